/*
 * The routine families the built-in profiler (util/prof.h, src/prof) counts,
 * in one table: the summary's rows, the trace's categories and the
 * communication matrix's classes are generated from it.
 *
 * X(id, KIND, CLASS)
 *   id     the family's name in the summary, the per-PE files and the trace
 *          ("cat"); OSHM_PROF_<id> is its index
 *   KIND   DATA: the call moves data (or completes its movement: quiet);
 *          WAIT: it waits for other PEs (wait_until, barrier, locks);
 *          OTHER: set-up (init, memory, contexts, teams);
 *          SPAN: it holds other calls (a device kernel) and is left out of
 *          the totals of the three above
 *   CLASS  where the call goes in the communication matrix: NONE; PUT or
 *          GET (through the backend that carries RMA to the PE); AMO or
 *          SIGNAL (through the one that carries AMOs); PUT_SIGNAL (the
 *          data as PUT and the signal as SIGNAL)
 *
 * One row per kind of routine, whatever its type or form: put holds
 * shmem_putmem, shmem_long_put, shmem_int_p and their context forms;
 * barrier holds shmem_barrier_all and shmem_barrier, sync shmem_sync_all,
 * shmem_sync and shmem_team_sync (the trace names each routine). The twelve
 * amo_ rows are in the order of enum hcomm_amo_op (api/amo.c checks it).
 */
#ifndef OSHM_UTIL_PROF_TABLE_H
#define OSHM_UTIL_PROF_TABLE_H

#define OSHM_PROF_FAMILY_TABLE(X)                                                             \
    X(init, OTHER, NONE)                                                                      \
    X(put, DATA, PUT)                                                                         \
    X(get, DATA, GET)                                                                         \
    X(put_nbi, DATA, PUT)                                                                     \
    X(get_nbi, DATA, GET)                                                                     \
    X(iput, DATA, PUT)                                                                        \
    X(iget, DATA, GET)                                                                        \
    X(put_signal, DATA, PUT_SIGNAL)                                                           \
    X(put_signal_nbi, DATA, PUT_SIGNAL)                                                       \
    X(signal_op, DATA, SIGNAL)                                                                \
    X(amo_fetch, DATA, AMO)                                                                   \
    X(amo_set, DATA, AMO)                                                                     \
    X(amo_swap, DATA, AMO)                                                                    \
    X(amo_compare_swap, DATA, AMO)                                                            \
    X(amo_fetch_add, DATA, AMO)                                                               \
    X(amo_add, DATA, AMO)                                                                     \
    X(amo_fetch_and, DATA, AMO)                                                               \
    X(amo_and, DATA, AMO)                                                                     \
    X(amo_fetch_or, DATA, AMO)                                                                \
    X(amo_or, DATA, AMO)                                                                      \
    X(amo_fetch_xor, DATA, AMO)                                                               \
    X(amo_xor, DATA, AMO)                                                                     \
    X(quiet, DATA, NONE)                                                                      \
    X(fence, DATA, NONE)                                                                      \
    X(signal_fetch, WAIT, NONE)                                                               \
    X(signal_wait_until, WAIT, NONE)                                                          \
    X(wait_until, WAIT, NONE)                                                                 \
    X(test, WAIT, NONE)                                                                       \
    X(lock, WAIT, NONE)                                                                       \
    X(barrier, WAIT, NONE)                                                                    \
    X(sync, WAIT, NONE)                                                                       \
    X(broadcast, DATA, NONE)                                                                  \
    X(collect, DATA, NONE)                                                                    \
    X(fcollect, DATA, NONE)                                                                   \
    X(alltoall, DATA, NONE)                                                                   \
    X(alltoalls, DATA, NONE)                                                                  \
    X(reduce, DATA, NONE)                                                                     \
    X(scan, DATA, NONE)                                                                       \
    X(malloc, OTHER, NONE)                                                                    \
    X(realloc, OTHER, NONE)                                                                   \
    X(free, OTHER, NONE)                                                                      \
    X(ctx_create, OTHER, NONE)                                                                \
    X(ctx_destroy, OTHER, NONE)                                                               \
    X(team_split, OTHER, NONE)                                                                \
    X(team_destroy, OTHER, NONE)                                                              \
    X(device_kernel, SPAN, NONE)                                                              \
    X(device_put, DATA, PUT)                                                                  \
    X(device_get, DATA, GET)                                                                  \
    X(device_put_nbi, DATA, PUT)                                                              \
    X(device_get_nbi, DATA, GET)                                                              \
    X(device_put_signal, DATA, PUT_SIGNAL)                                                    \
    X(device_amo, DATA, AMO)                                                                  \
    X(device_quiet, DATA, NONE)                                                               \
    X(device_wait, WAIT, NONE)                                                                \
    X(device_barrier, WAIT, NONE)                                                             \
    X(device_broadcast, DATA, NONE)                                                           \
    X(device_fcollect, DATA, NONE)                                                            \
    X(device_alltoall, DATA, NONE)                                                            \
    X(device_reduce, DATA, NONE)

#endif
