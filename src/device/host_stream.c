/*
 * Host operations in stream order (shmemd_*_on_stream, shmemd_memcpy):
 * each is a task of the stream's worker thread, run between the kernels
 * queued before and after it. Its RMA goes to this PE's engines as a
 * kernel's does, on a counter of its own, and the task waits for it: an
 * entry's operations are complete before the stream's next entry starts.
 * Barriers are one-thread kernels, so that they meet the kernels'
 * barriers (their own sync words), never the host's.
 * Arguments are checked when the call is made, on the caller's thread.
 */
#include <shmem/device.h>
#include <shmem/shmemx.h>
#include <stdlib.h>

#include "api/api.h"
#include "api/p2p.h"
#include "device/device.h"
#include "hcomm/hcomm.h"
#include "heap/heap.h"
#include "team/barrier.h"
#include "team/team.h"
#include "util/log.h"
#include "util/state.h"

enum host_op { HOST_PUT, HOST_GET, HOST_PUT_SIGNAL, HOST_SIGNAL, HOST_WAIT, HOST_QUIET };

struct host_task {
    enum host_op op;
    void *dest;
    const void *source;
    size_t nbytes;
    uint64_t *sig;
    uint64_t signal;
    enum hcomm_signal_op sig_op;
    int cmp;
    int pe;
    const char *routine;
};

static void run_host_task(void *arg)
{
    struct host_task *h = arg;
    struct engine_counter done = {0};
    struct engine_desc d = {.pe = h->pe, .dst = h->dest, .src = h->source, .len = h->nbytes,
                            .sig = h->sig, .sig_value = h->signal,
                            .sig_op = (enum backend_signal_op)h->sig_op, .routine = h->routine,
                            .done = &done};
    switch (h->op) {
    case HOST_PUT: d.op = ENGINE_PUT; break;
    case HOST_GET: d.op = ENGINE_GET; break;
    case HOST_PUT_SIGNAL: d.op = h->nbytes ? ENGINE_PUT_SIGNAL : ENGINE_SIGNAL; break;
    case HOST_SIGNAL: d.op = ENGINE_SIGNAL; break;
    case HOST_WAIT:
        oshm_wait_u64(h->sig, h->cmp, h->signal, h->routine);
        return;
    case HOST_QUIET:
        /* Every earlier entry completed before this one started. */
        return;
    }
    if (d.op == ENGINE_PUT_SIGNAL || d.op == ENGINE_SIGNAL || h->nbytes) {
        engine_post(&d);
        engine_wait(&done);
    }
}

static void queue(shmemx_stream_t stream, struct host_task h)
{
    struct host_task *copy = malloc(sizeof *copy);
    if (!copy)
        oshm_fatal("%s: out of memory", h.routine);
    *copy = h;
    if (device_stream_call(stream, run_host_task, copy, h.routine) != 0) {
        free(copy);
        oshm_fatal("%s: cannot queue on the stream", h.routine);
    }
}

/* The symmetric side of a transfer to or from PE. */
static void check_target(const void *addr, size_t nbytes, int pe, const char *routine)
{
    oshm_require_init(routine);
    hcomm_ep_of(pe, routine);
    if (nbytes && hcomm_seg_of(addr, nbytes) < 0)
        hcomm_bad_addr(addr, nbytes, pe, routine);
}

static void check_local(const void *addr, size_t nbytes, const char *routine)
{
    if (nbytes && !addr)
        oshm_fatal("%s: NULL buffer of %zu bytes", routine, nbytes);
}

static void put_on_stream(void *dest, const void *source, size_t nbytes, int pe,
                          shmemx_stream_t stream, const char *routine)
{
    check_target(dest, nbytes, pe, routine);
    check_local(source, nbytes, routine);
    queue(stream, (struct host_task){.op = HOST_PUT, .dest = dest, .source = source,
                                     .nbytes = nbytes, .pe = pe, .routine = routine});
}

static void get_on_stream(void *dest, const void *source, size_t nbytes, int pe,
                          shmemx_stream_t stream, const char *routine)
{
    check_target(source, nbytes, pe, routine);
    check_local(dest, nbytes, routine);
    queue(stream, (struct host_task){.op = HOST_GET, .dest = dest, .source = source,
                                     .nbytes = nbytes, .pe = pe, .routine = routine});
}

OSHM_FN(void, shmemd_putmem_on_stream,
        (void *dest, const void *source, size_t nbytes, int pe, shmemx_stream_t stream))
{
    put_on_stream(dest, source, nbytes, pe, stream, "shmemd_putmem_on_stream");
}

OSHM_FN(void, shmemd_getmem_on_stream,
        (void *dest, const void *source, size_t nbytes, int pe, shmemx_stream_t stream))
{
    get_on_stream(dest, source, nbytes, pe, stream, "shmemd_getmem_on_stream");
}

#define DEFINE_ON_STREAM_(T, N)                                                               \
    OSHM_FN(void, shmemd_##N##_put_on_stream,                                                 \
            (T * dest, const T *source, size_t nelems, int pe, shmemx_stream_t stream))       \
    {                                                                                         \
        if (nelems > SIZE_MAX / sizeof(T))                                                    \
            oshm_fatal("shmemd_" #N "_put_on_stream: %zu elements overflow size_t", nelems);  \
        put_on_stream(dest, source, nelems * sizeof(T), pe, stream,                           \
                      "shmemd_" #N "_put_on_stream");                                         \
    }                                                                                         \
    OSHM_FN(void, shmemd_##N##_get_on_stream,                                                 \
            (T * dest, const T *source, size_t nelems, int pe, shmemx_stream_t stream))       \
    {                                                                                         \
        if (nelems > SIZE_MAX / sizeof(T))                                                    \
            oshm_fatal("shmemd_" #N "_get_on_stream: %zu elements overflow size_t", nelems);  \
        get_on_stream(dest, source, nelems * sizeof(T), pe, stream,                           \
                      "shmemd_" #N "_get_on_stream");                                         \
    }
SHMEMD_RMA_TYPE_TABLE(DEFINE_ON_STREAM_)
#undef DEFINE_ON_STREAM_

OSHM_FN(void, shmemd_putmem_signal_on_stream,
        (void *dest, const void *source, size_t nbytes, uint64_t *sig_addr, uint64_t signal,
         int sig_op, int pe, shmemx_stream_t stream))
{
    const char *routine = "shmemd_putmem_signal_on_stream";
    check_target(dest, nbytes, pe, routine);
    check_target(sig_addr, sizeof *sig_addr, pe, routine);
    check_local(source, nbytes, routine);
    queue(stream, (struct host_task){.op = HOST_PUT_SIGNAL, .dest = dest, .source = source,
                                     .nbytes = nbytes, .sig = sig_addr, .signal = signal,
                                     .sig_op = oshm_signal_op(sig_op, routine), .pe = pe,
                                     .routine = routine});
}

OSHM_FN(void, shmemd_signal_op_on_stream,
        (uint64_t * sig_addr, uint64_t signal, int sig_op, int pe, shmemx_stream_t stream))
{
    const char *routine = "shmemd_signal_op_on_stream";
    check_target(sig_addr, sizeof *sig_addr, pe, routine);
    queue(stream, (struct host_task){.op = HOST_SIGNAL, .sig = sig_addr, .signal = signal,
                                     .sig_op = oshm_signal_op(sig_op, routine), .pe = pe,
                                     .routine = routine});
}

OSHM_FN(void, shmemd_signal_wait_until_on_stream,
        (uint64_t * sig_addr, int cmp, uint64_t value, shmemx_stream_t stream))
{
    const char *routine = "shmemd_signal_wait_until_on_stream";
    check_target(sig_addr, sizeof *sig_addr, hcomm.my_pe, routine);
    if (cmp != SHMEM_CMP_EQ && cmp != SHMEM_CMP_NE && cmp != SHMEM_CMP_GT &&
        cmp != SHMEM_CMP_GE && cmp != SHMEM_CMP_LT && cmp != SHMEM_CMP_LE)
        oshm_fatal("%s: unknown comparison %d (SHMEM_CMP_*)", routine, cmp);
    queue(stream, (struct host_task){.op = HOST_WAIT, .sig = sig_addr, .cmp = cmp,
                                     .signal = value, .pe = hcomm.my_pe, .routine = routine});
}

OSHM_FN(void, shmemd_quiet_on_stream, (shmemx_stream_t stream))
{
    queue(stream, (struct host_task){.op = HOST_QUIET, .routine = "shmemd_quiet_on_stream"});
}

struct barrier_args {
    struct shmem_team_impl *team; /* NULL: every PE */
};

static void barrier_kernel(void *p)
{
    struct barrier_args *a = p;
    if (a->team)
        shmemd_team_barrier(a->team);
    else
        shmemd_barrier_all();
}

static void barrier_on_stream(struct shmem_team_impl *team, shmemx_stream_t stream,
                              const char *routine)
{
    oshm_require_init(routine);
    if (team) {
        const struct oshm_pe_set *set = oshm_team_set(team, routine);
        if (set->my_index < 0)
            oshm_fatal("%s: this PE is not a member of the team", routine);
    }
    struct barrier_args a = {.team = team};
    if (shmemx_launch(barrier_kernel, 1, 1, &a, sizeof a, stream) != 0)
        oshm_fatal("%s: cannot queue the barrier on the stream", routine);
}

OSHM_FN(void, shmemd_barrier_all_on_stream, (shmemx_stream_t stream))
{
    barrier_on_stream(NULL, stream, "shmemd_barrier_all_on_stream");
}

OSHM_FN(void, shmemd_team_barrier_on_stream,
        (struct shmem_team_impl * team, shmemx_stream_t stream))
{
    if (!team)
        oshm_fatal("shmemd_team_barrier_on_stream: SHMEM_TEAM_INVALID");
    barrier_on_stream(team, stream, "shmemd_team_barrier_on_stream");
}

/* ---- shmemd_memcpy ---- */

static int memcpy_on_stream(void *dest, const void *source, size_t nbytes, int pe,
                            shmemx_stream_t stream, const char *routine)
{
    oshm_require_init(routine);
    if ((unsigned)pe >= (unsigned)hcomm.n_pes) {
        oshm_warn("%s: PE %d is not in the job (0..%d)", routine, pe, hcomm.n_pes - 1);
        return -1;
    }
    if (!nbytes)
        return 0;
    if (!dest || !source) {
        oshm_warn("%s: NULL %s", routine, dest ? "source" : "destination");
        return -1;
    }
    bool to = oshm_heap_contains_in(&oshm_device_heap, dest) &&
              hcomm_seg_of(dest, nbytes) == HCOMM_SEG_DEVICE;
    bool from = oshm_heap_contains_in(&oshm_device_heap, source) &&
                hcomm_seg_of(source, nbytes) == HCOMM_SEG_DEVICE;
    if (!to && !from) {
        oshm_warn("%s: neither %p nor %p (%zu bytes) is device memory from shmemd_malloc",
                  routine, dest, source, nbytes);
        return -1;
    }
    struct host_task h = {.op = to ? HOST_PUT : HOST_GET, .dest = dest, .source = source,
                          .nbytes = nbytes, .pe = pe, .routine = routine};
    queue(stream, h);
    return 0;
}

OSHM_FN(int, shmemd_memcpy_async,
        (void *dest, const void *source, size_t nbytes, int pe, shmemx_stream_t stream))
{
    return memcpy_on_stream(dest, source, nbytes, pe, stream, "shmemd_memcpy_async");
}

OSHM_FN(int, shmemd_memcpy, (void *dest, const void *source, size_t nbytes, int pe))
{
    if (memcpy_on_stream(dest, source, nbytes, pe, NULL, "shmemd_memcpy") != 0)
        return -1;
    if (nbytes)
        shmemx_stream_synchronize(NULL);
    return 0;
}
