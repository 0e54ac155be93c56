/*
 * Every AMO on a long (bitwise ones on an unsigned long), PE 0 -> PE 1:
 * latency of the blocking call, and rate: back-to-back non-fetching calls
 * (or non-blocking fetching ones, where 1.5 has them) closed by one quiet.
 *   oshrun -np 2 amo_bench
 */
#include <shmem.h>

#include "bench_util.h"

#define ITERS 100000

static long target;
static long fetched[64];

int main(void)
{
    if (!bench_init_pair("amo_bench", 0))
        return 1;
    int me = shmem_my_pe();
    shmem_barrier_all();
    if (me == 0) {
        unsigned long *u = (unsigned long *)&target;
        long sink = 0;
        double lat, rate;
        bench_section("Atomic Operations Test (long)", "Operation           Million ops/s   Latency (us)");
/* LAT_OP is timed one by one; RATE_OP back to back with a quiet at the end. */
#define ROW(label, LAT_OP, RATE_OP)                                                  \
    do {                                                                             \
        BENCH_BEST_OF_3(lat, for (int i = 0; i < ITERS; i++) { LAT_OP; });          \
        BENCH_BEST_OF_3(rate, {                                                      \
            for (int i = 0; i < ITERS; i++) {                                        \
                RATE_OP;                                                             \
            }                                                                        \
            shmem_quiet();                                                           \
        });                                                                          \
        printf("%-20s %14.2f %14.3f\n", label, ITERS / rate, lat / ITERS);           \
        fflush(stdout);                                                              \
    } while (0)
/* The rate of a fetching AMO: its non-blocking form where there is one. */
#if BENCH_HAVE_1_5
#define NBI_OR(nbi, blocking) nbi
#else
#define NBI_OR(nbi, blocking) blocking
#endif
        ROW("fetch_add", sink += shmem_long_atomic_fetch_add(&target, 1, 1),
            NBI_OR(shmem_long_atomic_fetch_add_nbi(&fetched[i % 64], &target, 1, 1), sink += shmem_long_atomic_fetch_add(&target, 1, 1)));
        ROW("fetch_inc", sink += shmem_long_atomic_fetch_inc(&target, 1),
            NBI_OR(shmem_long_atomic_fetch_inc_nbi(&fetched[i % 64], &target, 1), sink += shmem_long_atomic_fetch_inc(&target, 1)));
        ROW("add", shmem_long_atomic_add(&target, 1, 1), shmem_long_atomic_add(&target, 1, 1));
        ROW("inc", shmem_long_atomic_inc(&target, 1), shmem_long_atomic_inc(&target, 1));
        ROW("compare_swap", sink += shmem_long_atomic_compare_swap(&target, 0, 1, 1),
            NBI_OR(shmem_long_atomic_compare_swap_nbi(&fetched[i % 64], &target, 0, 1, 1),
                   sink += shmem_long_atomic_compare_swap(&target, 0, 1, 1)));
        ROW("swap", sink += shmem_long_atomic_swap(&target, i, 1),
            NBI_OR(shmem_long_atomic_swap_nbi(&fetched[i % 64], &target, i, 1), sink += shmem_long_atomic_swap(&target, i, 1)));
        ROW("fetch", sink += shmem_long_atomic_fetch(&target, 1),
            NBI_OR(shmem_long_atomic_fetch_nbi(&fetched[i % 64], &target, 1), sink += shmem_long_atomic_fetch(&target, 1)));
        ROW("set", shmem_long_atomic_set(&target, i, 1), shmem_long_atomic_set(&target, i, 1));
        ROW("fetch_and", sink += shmem_ulong_atomic_fetch_and(u, ~0ul, 1),
            NBI_OR(shmem_ulong_atomic_fetch_and_nbi((unsigned long *)&fetched[i % 64], u, ~0ul, 1),
                   sink += shmem_ulong_atomic_fetch_and(u, ~0ul, 1)));
        ROW("fetch_or", sink += shmem_ulong_atomic_fetch_or(u, 1ul, 1),
            NBI_OR(shmem_ulong_atomic_fetch_or_nbi((unsigned long *)&fetched[i % 64], u, 1ul, 1), sink += shmem_ulong_atomic_fetch_or(u, 1ul, 1)));
        ROW("fetch_xor", sink += shmem_ulong_atomic_fetch_xor(u, 1ul, 1),
            NBI_OR(shmem_ulong_atomic_fetch_xor_nbi((unsigned long *)&fetched[i % 64], u, 1ul, 1), sink += shmem_ulong_atomic_fetch_xor(u, 1ul, 1)));
        ROW("and", shmem_ulong_atomic_and(u, ~0ul, 1), shmem_ulong_atomic_and(u, ~0ul, 1));
        ROW("or", shmem_ulong_atomic_or(u, 1ul, 1), shmem_ulong_atomic_or(u, 1ul, 1));
        ROW("xor", shmem_ulong_atomic_xor(u, 1ul, 1), shmem_ulong_atomic_xor(u, 1ul, 1));
        fetched[0] = sink;
    }
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
