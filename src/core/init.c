#include "api/api.h"
#include <shmem/shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "api/ctx.h"
#include "core/boot.h"
#include "core/env.h"
#include "core/log.h"
#include "core/runtime.h"
#include "device/device.h"
#include "heap/heap.h"
#include "hcomm/hcomm.h"
#include "ipc/ipc.h"
#include "team/team.h"

struct oshm_runtime oshm_rt;

struct shmem_ctx_impl shmem_ctx_default_impl = {.channel = &hcomm.default_channel,
                                                .team = &shmem_team_world_impl};

void oshm_runtime_abort(int status)
{
    fflush(NULL);
    if (oshm_boot.ops)
        oshm_boot.ops->abort(status, "shmem abort");
    _exit(status);
}

void oshm_require_init(const char *routine)
{
    if (!oshm_rt.initialized || oshm_rt.finalized)
        oshm_fatal("%s called %s", routine,
                   oshm_rt.finalized ? "after shmem_finalize" : "before shmem_init");
}

void oshm_bad_ctx(const char *routine)
{
    oshm_fatal("%s: the context is SHMEM_CTX_INVALID", routine);
}

void oshm_bad_team_pe(shmem_ctx_t ctx, int pe, const char *routine)
{
    if (ctx->team == SHMEM_TEAM_WORLD)
        hcomm_bad_pe(pe, routine);
    oshm_fatal("%s: PE %d is not in the context's team (PEs 0 to %d)", routine, pe,
               ctx->team->set.size - 1);
}

void oshm_sync_world(void) { oshm_barrier_sync(&oshm_rt.world); }

static void finalize_at_exit(void)
{
    /* A program that returns from main without shmem_finalize still leaves
     * the job in order. */
    if (oshm_rt.initialized && !oshm_rt.finalized)
        shmem_finalize();
}

static int setup(void)
{
    oshm_env_read();
    if (oshm_boot_init() != 0)
        return -1;
    oshm_log_set_pe(oshm_boot.rank);

    if (oshm_env.symmetric_size > SIZE_MAX / 2) {
        oshm_warn("SHMEM_SYMMETRIC_SIZE=%zu is larger than the address space allows",
                  oshm_env.symmetric_size);
        return -1;
    }
    if (oshm_heap_init(oshm_env.symmetric_size + OSHM_INTERNAL_HEAP_SIZE) != 0 ||
        oshm_symdata_init() != 0 || ipc_init() != 0)
        return -1;
    hcomm_register_seg(HCOMM_SEG_HEAP, (uintptr_t)oshm_heap.base, oshm_heap.capacity,
                       &oshm_heap.mem);
    hcomm_register_seg(HCOMM_SEG_DATA, (uintptr_t)oshm_symdata.base, oshm_symdata.size,
                       &oshm_symdata.mem);
    if (device_heap_init() != 0)
        return -1;
    if (hcomm_init() != 0)
        return -1;

    /* The first allocation: at the same offset on every PE. */
    if (oshm_teams_init() != 0)
        return -1;
    /* Every PE's sync words are zeroed before any PE may signal them. */
    if (oshm_boot.ops->fence() != 0)
        return -1;
    return 0;
}

OSHM_FN(int, shmem_init_thread, (int requested, int *provided))
{
    if (oshm_rt.initialized && !oshm_rt.finalized) {
        if (provided)
            *provided = oshm_rt.thread_level;
        return 0;
    }
    if (oshm_rt.finalized) {
        fprintf(stderr, "shmem: shmem_init called after shmem_finalize\n");
        return -1;
    }
    if (requested < SHMEM_THREAD_SINGLE || requested > SHMEM_THREAD_MULTIPLE) {
        fprintf(stderr, "shmem: shmem_init_thread: unknown thread level %d\n", requested);
        return -1;
    }
    if (setup() != 0) {
        fprintf(stderr, "shmem: start-up failed\n");
        return -1;
    }
    oshm_rt.thread_level = requested;
    if (requested == SHMEM_THREAD_MULTIPLE)
        hcomm_threads_begin();
    oshm_rt.initialized = true;
    if (provided)
        *provided = requested;
    atexit(finalize_at_exit);
    if (oshm_boot.rank == 0) {
        if (oshm_env.version)
            printf("%s (OpenSHMEM %d.%d)\n", SHMEM_VENDOR_STRING, SHMEM_MAJOR_VERSION,
                   SHMEM_MINOR_VERSION);
        if (oshm_env.info)
            oshm_env_print_info();
        fflush(stdout);
    }
    oshm_sync_world();
    return 0;
}

OSHM_FN(void, shmem_init, (void))
{
    if (shmem_init_thread(SHMEM_THREAD_SINGLE, NULL) != 0)
        oshm_runtime_abort(1);
}

OSHM_FN(void, start_pes, (int npes))
{
    (void)npes; /* the launcher decides the number of PEs */
    shmem_init();
}

OSHM_FN(void, shmem_query_thread, (int *provided))
{
    oshm_require_init("shmem_query_thread");
    *provided = oshm_rt.thread_level;
}

OSHM_FN(void, shmem_finalize, (void))
{
    if (!oshm_rt.initialized || oshm_rt.finalized)
        return;
    /* Kernels still running may still talk to other PEs. */
    device_fini();
    shmem_quiet();
    oshm_sync_world();
    oshm_rt.finalized = true;
    /* No PE touches another's memory after the barrier: unmap, then leave. */
    hcomm_fini();
    ipc_fini();
    oshm_boot.ops->finalize();
    oshm_symdata_fini();
    fflush(stdout);
}

OSHM_FN(void, shmem_global_exit, (int status))
{
    fflush(NULL);
    if (oshm_boot.ops)
        oshm_boot.ops->abort(status, "shmem_global_exit");
    exit(status);
}
