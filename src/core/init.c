#include "api/api.h"
#include <shmem/shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/ctx.h"
#include "boot/boot.h"
#include "core/backends.h"
#include "core/fault.h"
#ifdef OSHM_HAVE_DEVICE
#include "device/device.h"
#endif
#include "fabric/fabric.h"
#include "hcomm/hcomm.h"
#include "heap/heap.h"
#include "ipc/ipc.h"
#include "prof/report.h"
#include "team/coll.h"
#include "team/team.h"
#include "util/env.h"
#include "util/fdlimit.h"
#include "util/log.h"
#include "util/prof.h"
#include "util/routine.h"
#include "util/state.h"

static void finalize_at_exit(void)
{
    /* A program that returns from main without shmem_finalize still leaves
     * the job in order. oshrun is told it happened here: should this
     * finalize meet another collective of the other PEs, it says why. */
    if (oshm_state.running) {
        oshm_state.finalize_at_exit = true;
        oshm_state.init_depth = 1; /* inits left unmatched end here too */
        shmem_finalize();
    }
}

static int setup(int thread_level)
{
    /* Logging sits below the bootstrap: a fatal error anywhere ends the job
     * through it once it is connected. */
    oshm_log_set_abort(oshm_boot_abort);
    oshm_env_read();
    /* Peers' memory is mapped and its descriptors closed, so a PE needs a
     * few dozen files whatever the job's size; raised all the same for
     * what the program itself opens, as a launcher would. */
    oshm_fd_limit_raise(NULL);
    if (oshm_boot_init() != 0)
        return -1;
    oshm_log_set_pe(oshm_boot.rank);
    /* Unknown and deprecated names: said once per job. */
    if (oshm_boot.rank == 0)
        oshm_env_warn_notes();

    if (oshm_env.symmetric_size > SIZE_MAX / 2) {
        oshm_warn("SHMEM_SYMMETRIC_SIZE=%zu is larger than the address space allows",
                  oshm_env.symmetric_size);
        return -1;
    }
    /* The library's own words are backed from the start, so that the
     * backends register them with the rest at start-up. */
    if (oshm_heap_init(oshm_env.symmetric_size) != 0 ||
        oshm_heap_commit(&oshm_heap, OSHM_INTERNAL_HEAP_SIZE) != 0 ||
        oshm_symdata_init() != 0 || ipc_init() != 0)
        return -1;
    hcomm_register_seg(HCOMM_SEG_HEAP, (uintptr_t)oshm_heap.base, oshm_heap.capacity,
                       oshm_heap.committed, &oshm_heap.mem);
    hcomm_register_seg(HCOMM_SEG_DATA, (uintptr_t)oshm_symdata.base, oshm_symdata.size,
                       oshm_symdata.size, &oshm_symdata.mem);
#ifdef OSHM_HAVE_DEVICE
    if (device_heap_init() != 0)
        return -1;
#endif
    /* The bootstrap's store, as the layers below it see one (hcomm keeps
     * a copy). */
    const struct fabric_exchange exchange = {.rank = oshm_boot.rank,
                                             .size = oshm_boot.size,
                                             .put = oshm_boot.ops->put,
                                             .fence = oshm_boot.ops->fence,
                                             .get = oshm_boot.ops->get,
                                             .allgather = oshm_boot_allgather,
                                             .forget = oshm_boot.ops->forget,
                                             .retain = oshm_boot.ops->retain};
    struct hcomm_config hc = {.backends = oshm_builtin_backends,
                              .exchange = &exchange,
                              .default_mode = oshm_chan_mode_for_level(thread_level),
                              .progress_thread = oshm_env.progress_thread != 0};
    if (hcomm_init(&hc) != 0)
        return -1;

    /* The first allocations: at the same offset on every PE. */
    if (oshm_teams_init() != 0)
        return -1;
    oshm_prof_reserve();
    if (oshm_heap_end_library_part() != 0)
        return -1;
    hcomm_seg_grow(HCOMM_SEG_HEAP, oshm_heap.committed);
    /* Every PE's sync words are zeroed before any PE may signal them. */
    if (oshm_boot.ops->fence() != 0)
        return -1;
    return 0;
}

OSHM_FN(int, shmem_init_thread, (int requested, int *provided))
{
    if (requested < SHMEM_THREAD_SINGLE || requested > SHMEM_THREAD_MULTIPLE) {
        fprintf(stderr, "shmem: shmem_init_thread: unknown thread level %d\n", requested);
        return -1;
    }
    /* OpenSHMEM 1.6: inits nest, each matched by a finalize; one inside
     * another's life changes nothing, the thread level included. */
    if (oshm_state.running) {
        oshm_state.init_depth++;
        if (provided)
            *provided = oshm_state.thread_level;
        return 0;
    }
    /* After the last finalize a new life starts from nothing: every layer
     * released all it had. */
    uint64_t begin_ns = oshm_prof_clock_ns(); /* the profile's init time */
    /* Recorded (util/routine.h): a launcher's report of a PE that never
     * got through start-up says so. */
    const char *was = oshm_routine_wait_enter("shmem_init");
    int rc = setup(requested);
    oshm_routine_restore(was);
    if (rc != 0) {
        fprintf(stderr, "shmem: start-up failed\n");
        return -1;
    }
    oshm_state.thread_level = requested;
    oshm_state.initialized = true;
    oshm_state.finalized = false;
    oshm_state.finalize_at_exit = false;
    oshm_state.init_depth = 1;
    oshm_state.running = true;
    oshm_state_update();
    oshm_fault_init();
    if (provided)
        *provided = requested;
    static bool at_exit_registered;
    if (!at_exit_registered && atexit(finalize_at_exit) == 0)
        at_exit_registered = true;
    if (oshm_boot.rank == 0) {
        if (oshm_env.version)
            printf("%s (OpenSHMEM %d.%d)\n", SHMEM_VENDOR_STRING, SHMEM_MAJOR_VERSION,
                   SHMEM_MINOR_VERSION);
        if (oshm_env.info)
            oshm_env_print_info(stdout);
        fflush(stdout);
    }
    /* The start-up exchange's last fence (in setup) is the last step that
     * waits for the other PEs: it is served by the launcher, so every PE
     * leaves it at once, whatever the others do next. */
    oshm_coll_deferred_start();
    oshm_prof_start(oshm_boot.rank, oshm_boot.size, begin_ns);
    return 0;
}

OSHM_FN(void, shmem_init, (void))
{
    if (pshmem_init_thread(SHMEM_THREAD_SINGLE, NULL) != 0)
        oshm_boot_abort(1);
}

OSHM_FN(void, start_pes, (int npes))
{
    (void)npes; /* the launcher decides the number of PEs */
    pshmem_init();
}

OSHM_FN(void, shmem_query_thread, (int *provided))
{
    oshm_require_init("shmem_query_thread");
    *provided = oshm_state.thread_level;
}

OSHM_FN(void, shmem_finalize, (void))
{
    if (!oshm_state.running)
        return;
    /* Not the last of nested inits' finalizes: a barrier_all, and
     * everything stays (OpenSHMEM 1.6). The library's own quiet and
     * barrier: a profile or a pshmem tool sees only the program's calls. */
    if (oshm_state.init_depth > 1) {
        oshm_state.init_depth--;
        hcomm_quiet(&hcomm.default_channel);
        oshm_sync_world();
        return;
    }
    const char *was = oshm_routine_wait_enter("shmem_finalize");
#ifdef OSHM_HAVE_DEVICE
    /* Kernels still running may still talk to other PEs. */
    device_fini();
#endif
    hcomm_quiet(&hcomm.default_channel);
    oshm_prof_report();
    oshm_sync_world();
    if (oshm_boot.ops->teardown)
        oshm_boot.ops->teardown();
    oshm_state.init_depth = 0;
    oshm_state.finalized = true;
    oshm_state.running = false;
    oshm_state_update();
    oshm_fault_fini();
    /* No PE touches another's memory after the barrier: unmap, then leave.
     * The last finalize destroys every team and context the program left,
     * and releases the heaps, so that a later shmem_init starts afresh. */
    oshm_ctx_fini();
    oshm_teams_fini();
    hcomm_fini();
    ipc_fini();
    oshm_boot.ops->finalize();
    oshm_symdata_fini();
    oshm_heap_fini_kind(&oshm_device_heap);
    oshm_heap_fini();
    oshm_routine_restore(was);
    fflush(stdout);
}

OSHM_FN(void, shmem_global_exit, (int status)) { oshm_boot_global_exit(status); }
