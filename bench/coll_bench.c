/*
 * Latency of collectives over all PEs, 8 B to 64 KiB per PE, through the
 * active-set routines that OpenSHMEM 1.4 and 1.5 implementations share (so
 * the same source compares both), and put-with-signal round trips where 1.5
 * is available. Each collective is followed by a barrier (the active-set
 * routines may reuse pSync only after one), included in the time.
 *   oshrun -np N coll_bench
 */
#include <shmem.h>
#include <stdio.h>
#include <string.h>

#include "bench_util.h"

#define MAX_BYTES 65536
#define ITERS 200

static long psync[SHMEM_REDUCE_SYNC_SIZE];
static long pwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE + MAX_BYTES / 8];

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
        psync[i] = SHMEM_SYNC_VALUE;
    long *src = shmem_malloc(MAX_BYTES * (size_t)n);
    long *dst = shmem_malloc(MAX_BYTES * (size_t)n);
    memset(src, 1, MAX_BYTES * (size_t)n);
    shmem_barrier_all();
    if (me == 0) {
        char name[SHMEM_MAX_NAME_LEN];
        shmem_info_get_name(name);
        printf("# %s: %d PEs, best of 3, latency in us\n", name, n);
        printf("%-10s %12s %12s %12s %12s\n", "bytes", "broadcast", "fcollect", "alltoall",
               "sum_to_all");
    }
    for (size_t bytes = 8; bytes <= MAX_BYTES; bytes *= 4) {
        size_t nlong = bytes / 8;
        double t[4];
        for (int op = 0; op < 4; op++) {
            shmem_barrier_all();
            BENCH_BEST_OF_3(t[op], for (int i = 0; i < ITERS; i++) {
                switch (op) {
                case 0: shmem_broadcast64(dst, src, nlong, 0, 0, 0, n, psync); break;
                case 1: shmem_fcollect64(dst, src, nlong, 0, 0, n, psync); break;
                case 2: shmem_alltoall64(dst, src, nlong, 0, 0, n, psync); break;
                default:
                    shmem_long_sum_to_all(dst, src, (int)nlong, 0, 0, n, pwrk, psync);
                }
                /* The active-set routines may reuse pSync after a barrier only. */
                shmem_barrier_all();
            });
        }
        if (me == 0)
            printf("%-10zu %12.3f %12.3f %12.3f %12.3f\n", bytes, t[0] / ITERS, t[1] / ITERS,
                   t[2] / ITERS, t[3] / ITERS);
    }
#if BENCH_HAVE_1_5
    /* put_signal round trip between PE 0 and PE 1, 8 bytes each way. */
    if (n >= 2) {
        static uint64_t sig;
        double t;
        shmem_barrier_all();
        if (me < 2) {
            int peer = 1 - me;
            BENCH_BEST_OF_3(t, for (int i = 1; i <= 10000; i++) {
                uint64_t round = (uint64_t)i + 10000u * (uint64_t)rep_;
                if (me == 0) {
                    shmem_putmem_signal(dst, src, 8, &sig, round, SHMEM_SIGNAL_SET, peer);
                    shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, round);
                } else {
                    shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, round);
                    shmem_putmem_signal(dst, src, 8, &sig, round, SHMEM_SIGNAL_SET, peer);
                }
            });
            if (me == 0)
                printf("%-10s %12.3f  (put_signal + signal_wait_until, one way)\n", "signal",
                       t / 10000 / 2);
        }
    }
#endif
    shmem_barrier_all();
    shmem_free(src);
    shmem_free(dst);
    shmem_finalize();
    return 0;
}
