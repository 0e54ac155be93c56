/*
 * The device API (include/shmem/device.h): what a kernel thread calls. Each
 * operation becomes an engine descriptor counted on the thread's own
 * counter; waiting for that counter is quiet.
 */
#include <shmem/device.h>
#include <shmem/shmem.h>
#include <string.h>

#include "api/api.h"
#include "api/p2p.h"
#include "device/device.h"
#include "hcomm/hcomm.h"
#include "team/barrier.h"
#include "team/team.h"
#include "util/log.h"
#include "util/spin.h"

/* Checks now what the engine would otherwise find out later, on another
 * thread, with the kernel long gone on. */
static void check_target(const void *addr, size_t len, int pe, const char *routine)
{
    if ((unsigned)pe >= (unsigned)hcomm.n_pes)
        hcomm_bad_pe(pe, routine);
    if (len && hcomm_seg_of(addr, len) < 0)
        hcomm_bad_addr(addr, len, pe, routine);
}

static void post(struct device_thread *t, struct engine_desc d)
{
    d.done = &t->ops;
    engine_post(&d);
}

static void rma_run(enum engine_op op, void *dest, const void *source, size_t nbytes, int pe,
                    bool wait, const char *routine)
{
    struct device_thread *t = device_thread_of(routine);
    check_target(op == ENGINE_GET ? source : dest, nbytes, pe, routine);
    if (!nbytes)
        return;
    post(t, (struct engine_desc){.op = op, .pe = pe, .dst = dest, .src = source, .len = nbytes,
                                 .routine = routine});
    if (wait)
        engine_wait(&t->ops);
}

static void rma(enum engine_op op, void *dest, const void *source, size_t nbytes, int pe, bool wait,
                const char *routine)
{
    DEVICE_PROFILED(op == ENGINE_GET ? (wait ? OSHM_PROF_device_get : OSHM_PROF_device_get_nbi)
                                     : (wait ? OSHM_PROF_device_put : OSHM_PROF_device_put_nbi),
                    routine, nbytes, pe, rma_run(op, dest, source, nbytes, pe, wait, routine));
}

int shmemd_my_pe(void) { return hcomm.my_pe; }
int shmemd_n_pes(void) { return hcomm.n_pes; }
unsigned shmemd_block_idx(void) { return device_thread_of("shmemd_block_idx")->block; }
unsigned shmemd_block_num(void) { return device_thread_of("shmemd_block_num")->launch->nblocks; }
unsigned shmemd_thread_idx(void) { return device_thread_of("shmemd_thread_idx")->thread; }
unsigned shmemd_thread_num(void) { return device_thread_of("shmemd_thread_num")->launch->nthreads; }

void shmemd_block_sync(void)
{
    struct device_thread *t = device_thread_of("shmemd_block_sync");
    pthread_barrier_wait(&t->launch->block[t->block]);
}

void *shmemd_ptr(const void *dest, int pe) { return shmem_ptr(dest, pe); }

void shmemd_putmem(void *dest, const void *source, size_t nbytes, int pe)
{
    /* Blocking: the source may be reused on return, so the engine must
     * have read it. */
    rma(ENGINE_PUT, dest, source, nbytes, pe, true, "shmemd_putmem");
}

void shmemd_getmem(void *dest, const void *source, size_t nbytes, int pe)
{
    rma(ENGINE_GET, dest, source, nbytes, pe, true, "shmemd_getmem");
}

void shmemd_putmem_nbi(void *dest, const void *source, size_t nbytes, int pe)
{
    rma(ENGINE_PUT, dest, source, nbytes, pe, false, "shmemd_putmem_nbi");
}

void shmemd_getmem_nbi(void *dest, const void *source, size_t nbytes, int pe)
{
    rma(ENGINE_GET, dest, source, nbytes, pe, false, "shmemd_getmem_nbi");
}

/* This thread's share of a block-cooperative transfer. */
static void block_share(enum engine_op op, void *dest, const void *source, size_t nbytes, int pe,
                        bool wait, const char *routine)
{
    struct device_thread *t = device_thread_of(routine);
    size_t n = t->launch->nthreads, share = (nbytes + n - 1) / n;
    size_t from = share * t->thread, to = from + share < nbytes ? from + share : nbytes;
    check_target(op == ENGINE_GET ? source : dest, nbytes, pe, routine);
    if (from < to)
        rma(op, (char *)dest + from, (const char *)source + from, to - from, pe, wait, routine);
    pthread_barrier_wait(&t->launch->block[t->block]);
}

void shmemd_putmem_block(void *dest, const void *source, size_t nbytes, int pe)
{
    block_share(ENGINE_PUT, dest, source, nbytes, pe, true, "shmemd_putmem_block");
}

void shmemd_getmem_block(void *dest, const void *source, size_t nbytes, int pe)
{
    block_share(ENGINE_GET, dest, source, nbytes, pe, true, "shmemd_getmem_block");
}

void shmemd_putmem_nbi_block(void *dest, const void *source, size_t nbytes, int pe)
{
    block_share(ENGINE_PUT, dest, source, nbytes, pe, false, "shmemd_putmem_nbi_block");
}

void shmemd_getmem_nbi_block(void *dest, const void *source, size_t nbytes, int pe)
{
    block_share(ENGINE_GET, dest, source, nbytes, pe, false, "shmemd_getmem_nbi_block");
}

static void put_signal_run(void *dest, const void *source, size_t nbytes, uint64_t *sig_addr,
                           uint64_t signal, int sig_op, int pe, bool wait, const char *routine)
{
    struct device_thread *t = device_thread_of(routine);
    check_target(dest, nbytes, pe, routine);
    check_target(sig_addr, sizeof *sig_addr, pe, routine);
    post(t, (struct engine_desc){.op = nbytes ? ENGINE_PUT_SIGNAL : ENGINE_SIGNAL, .pe = pe,
                                 .dst = dest, .src = source, .len = nbytes, .sig = sig_addr,
                                 .sig_value = signal,
                                 .sig_op = (enum backend_signal_op)oshm_signal_op(sig_op, routine),
                                 .routine = routine});
    if (wait)
        engine_wait(&t->ops);
}

static void put_signal(void *dest, const void *source, size_t nbytes, uint64_t *sig_addr,
                       uint64_t signal, int sig_op, int pe, bool wait, const char *routine)
{
    DEVICE_PROFILED(
        OSHM_PROF_device_put_signal, routine, nbytes, pe,
        put_signal_run(dest, source, nbytes, sig_addr, signal, sig_op, pe, wait, routine));
}

void shmemd_putmem_signal(void *dest, const void *source, size_t nbytes, uint64_t *sig_addr,
                          uint64_t signal, int sig_op, int pe)
{
    put_signal(dest, source, nbytes, sig_addr, signal, sig_op, pe, true, "shmemd_putmem_signal");
}

void shmemd_putmem_signal_nbi(void *dest, const void *source, size_t nbytes, uint64_t *sig_addr,
                              uint64_t signal, int sig_op, int pe)
{
    put_signal(dest, source, nbytes, sig_addr, signal, sig_op, pe, false,
               "shmemd_putmem_signal_nbi");
}

void shmemd_signal_op(uint64_t *sig_addr, uint64_t signal, int sig_op, int pe)
{
    put_signal(NULL, NULL, 0, sig_addr, signal, sig_op, pe, false, "shmemd_signal_op");
}

static uint64_t signal_wait_until_run(uint64_t *sig_addr, int cmp, uint64_t value)
{
    device_thread_of("shmemd_signal_wait_until");
    return oshm_wait_u64(sig_addr, cmp, value, "shmemd_signal_wait_until");
}

uint64_t shmemd_signal_wait_until(uint64_t *sig_addr, int cmp, uint64_t value)
{
    uint64_t r;
    OSHM_PROFILED_LOCAL(OSHM_PROF_device_wait, "shmemd_signal_wait_until", 0,
                        r = signal_wait_until_run(sig_addr, cmp, value));
    return r;
}

uint64_t shmemd_signal_fetch(const uint64_t *sig_addr) { return shmem_signal_fetch(sig_addr); }

/* Descriptors of one thread complete in any order (several engines, and
 * several queues per engine under weak ordering): a fence makes the later
 * ones wait, in their engines, for the earlier ones; the thread goes on. */
void shmemd_fence(void)
{
    OSHM_PROFILED_LOCAL(OSHM_PROF_device_quiet, "shmemd_fence", 0,
                        engine_fence(&device_thread_of("shmemd_fence")->ops));
}
void shmemd_quiet(void)
{
    OSHM_PROFILED_LOCAL(OSHM_PROF_device_quiet, "shmemd_quiet", 0,
                        engine_wait(&device_thread_of("shmemd_quiet")->ops));
}

static void barrier_over_run(const struct oshm_pe_set *set, const char *routine)
{
    struct device_thread *t = device_thread_of(routine);
    engine_wait(&t->ops);
    pthread_barrier_wait(&t->launch->grid);
    /* One thread speaks for the device: every thread's operations are
     * complete, so the PEs' barrier orders all of them. */
    if (t->block == 0 && t->thread == 0)
        oshm_barrier_sync(set);
    pthread_barrier_wait(&t->launch->grid);
}

static void barrier_over(const struct oshm_pe_set *set, const char *routine)
{
    OSHM_PROFILED_LOCAL(OSHM_PROF_device_barrier, routine, 0, barrier_over_run(set, routine));
}

void shmemd_barrier_all(void) { barrier_over(&oshm_device_world, "shmemd_barrier_all"); }

void shmemd_team_barrier(shmemd_team_t team)
{
    const struct oshm_pe_set *set = oshm_team_set(team, "shmemd_team_barrier");
    if (set->my_index < 0)
        oshm_fatal("shmemd_team_barrier: this PE is not a member of the team");
    barrier_over(set, "shmemd_team_barrier");
}

