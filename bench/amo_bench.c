/*
 * Latency of every AMO, PE 0 -> PE 1 (PE 1 idles in a barrier).
 *   oshrun -np 2 amo_bench
 */
#include <shmem.h>
#include <stdio.h>

#include "bench_util.h"

#define ITERS 100000

static long target;
static long fetched;

int main(void)
{
    shmem_init();
    int me = shmem_my_pe();
    if (shmem_n_pes() < 2) {
        if (me == 0)
            fprintf(stderr, "amo_bench needs 2 PEs\n");
        shmem_finalize();
        return 1;
    }
    shmem_barrier_all();
    if (me == 0) {
        char name[SHMEM_MAX_NAME_LEN];
        shmem_info_get_name(name);
        printf("# %s: long AMOs, PE 0 -> PE 1, best of 3\n", name);
        printf("%-22s %12s\n", "operation", "latency_us");
        double t;
#define ROW(label, op)                                                  \
    do {                                                                \
        BENCH_BEST_OF_3(t, for (int i = 0; i < ITERS; i++) { op; });    \
        printf("%-22s %12.3f\n", label, t / ITERS);                     \
    } while (0)
        long sink = 0;
        ROW("fetch_add", sink += shmem_long_atomic_fetch_add(&target, 1, 1));
        ROW("fetch_inc", sink += shmem_long_atomic_fetch_inc(&target, 1));
        ROW("add", shmem_long_atomic_add(&target, 1, 1));
        ROW("inc", shmem_long_atomic_inc(&target, 1));
        ROW("compare_swap", sink += shmem_long_atomic_compare_swap(&target, 0, 1, 1));
        ROW("swap", sink += shmem_long_atomic_swap(&target, i, 1));
        ROW("fetch", sink += shmem_long_atomic_fetch(&target, 1));
        ROW("set", shmem_long_atomic_set(&target, i, 1));
        ROW("fetch_and", sink += shmem_ulong_atomic_fetch_and((unsigned long *)&target, ~0ul, 1));
        ROW("fetch_or", sink += shmem_ulong_atomic_fetch_or((unsigned long *)&target, 1ul, 1));
        ROW("fetch_xor", sink += shmem_ulong_atomic_fetch_xor((unsigned long *)&target, 1ul, 1));
#if BENCH_HAVE_1_5
        ROW("fetch_add_nbi+quiet", {
            shmem_long_atomic_fetch_add_nbi(&fetched, &target, 1, 1);
            shmem_quiet();
        });
#endif
        fetched = sink;
    }
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
