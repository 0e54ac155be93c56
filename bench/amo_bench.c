/*
 * Every AMO on a long (bitwise ones on an unsigned long), PE 0 -> PE 1, the
 * way OSU's osu_oshm_atomics measures it: each timed loop issues LOOP calls,
 * call i on element i of a buffer that its owner has just rewritten (so
 * every call meets a cache line that lives in the target's cache, not one
 * left hot by the call before), no quiet inside the loop. Latency is the
 * time per call of the blocking form; the rate is that of back-to-back
 * non-fetching calls (or non-blocking fetching ones, where 1.5 has them)
 * closed by one quiet. Unlike OSU, which times one loop of 500, a row is
 * the average of REPS such loops after SKIP_REPS untimed ones, so that the
 * clock's resolution and one preemption do not decide it.
 *   oshrun -np 2 amo_bench
 */
#include <shmem.h>

#include "bench_util.h"

#define LOOP 500
#define REPS 20
#define SKIP_REPS 2

static long *target; /* LOOP elements, in the symmetric heap (OSU's "heap" form) */
static long fetched[LOOP];

/* The owner (PE 1) rewrites the buffer, as OSU's memset does, then PE 0
 * runs BODY LOOP times. Returns PE 0's time per call in us. */
#define TIMED(result, BODY)                                                          \
    do {                                                                             \
        double sum_ = 0;                                                             \
        for (int rep_ = -SKIP_REPS; rep_ < REPS; rep_++) {                           \
            if (me == 1)                                                             \
                memset(target, rep_ & 0x7f, LOOP * sizeof *target);                          \
            shmem_barrier_all();                                                     \
            if (me == 0) {                                                           \
                double t0_ = bench_now_us();                                         \
                for (int i = 0; i < LOOP; i++) {                                     \
                    BODY;                                                            \
                }                                                                    \
                if (rep_ >= 0)                                                       \
                    sum_ += bench_now_us() - t0_;                                    \
            }                                                                        \
            shmem_barrier_all();                                                     \
        }                                                                            \
        result = sum_ / REPS / LOOP;                                                 \
    } while (0)

int main(void)
{
    if (!bench_init_pair("amo_bench", 0))
        return 1;
    int me = shmem_my_pe();
    target = shmem_calloc(LOOP, sizeof *target);
    unsigned long *u = (unsigned long *)target;
    long sink = 0;
    double lat, rate;
    if (me == 0)
        bench_section("Atomic Operations Test (long)",
                      "Operation           Million ops/s   Latency (us)");
/* LAT_OP is timed call by call; RATE_OP back to back with a quiet at the end. */
#define ROW(label, LAT_OP, RATE_OP)                                                  \
    do {                                                                             \
        TIMED(lat, LAT_OP);                                                          \
        TIMED(rate, {                                                                \
            RATE_OP;                                                                 \
            if (i == LOOP - 1)                                                       \
                shmem_quiet();                                                       \
        });                                                                          \
        if (me == 0) {                                                               \
            printf("%-20s %14.2f %14.3f\n", label, 1 / rate, lat);                   \
            fflush(stdout);                                                          \
        }                                                                            \
    } while (0)
/* The rate of a fetching AMO: its non-blocking form where there is one. */
#if BENCH_HAVE_1_5
#define NBI_OR(nbi, blocking) nbi
#else
#define NBI_OR(nbi, blocking) blocking
#endif
    ROW("fetch_add", sink += shmem_long_atomic_fetch_add(&target[i], 1, 1),
        NBI_OR(shmem_long_atomic_fetch_add_nbi(&fetched[i], &target[i], 1, 1),
               sink += shmem_long_atomic_fetch_add(&target[i], 1, 1)));
    ROW("fetch_inc", sink += shmem_long_atomic_fetch_inc(&target[i], 1),
        NBI_OR(shmem_long_atomic_fetch_inc_nbi(&fetched[i], &target[i], 1),
               sink += shmem_long_atomic_fetch_inc(&target[i], 1)));
    ROW("add", shmem_long_atomic_add(&target[i], 1, 1), shmem_long_atomic_add(&target[i], 1, 1));
    ROW("inc", shmem_long_atomic_inc(&target[i], 1), shmem_long_atomic_inc(&target[i], 1));
    ROW("compare_swap", sink += shmem_long_atomic_compare_swap(&target[i], 0, 1, 1),
        NBI_OR(shmem_long_atomic_compare_swap_nbi(&fetched[i], &target[i], 0, 1, 1),
               sink += shmem_long_atomic_compare_swap(&target[i], 0, 1, 1)));
    ROW("swap", sink += shmem_long_atomic_swap(&target[i], i, 1),
        NBI_OR(shmem_long_atomic_swap_nbi(&fetched[i], &target[i], i, 1),
               sink += shmem_long_atomic_swap(&target[i], i, 1)));
    ROW("fetch", sink += shmem_long_atomic_fetch(&target[i], 1),
        NBI_OR(shmem_long_atomic_fetch_nbi(&fetched[i], &target[i], 1),
               sink += shmem_long_atomic_fetch(&target[i], 1)));
    ROW("set", shmem_long_atomic_set(&target[i], i, 1), shmem_long_atomic_set(&target[i], i, 1));
    ROW("fetch_and", sink += shmem_ulong_atomic_fetch_and(&u[i], ~0ul, 1),
        NBI_OR(shmem_ulong_atomic_fetch_and_nbi((unsigned long *)&fetched[i], &u[i], ~0ul, 1),
               sink += shmem_ulong_atomic_fetch_and(&u[i], ~0ul, 1)));
    ROW("fetch_or", sink += shmem_ulong_atomic_fetch_or(&u[i], 1ul, 1),
        NBI_OR(shmem_ulong_atomic_fetch_or_nbi((unsigned long *)&fetched[i], &u[i], 1ul, 1),
               sink += shmem_ulong_atomic_fetch_or(&u[i], 1ul, 1)));
    ROW("fetch_xor", sink += shmem_ulong_atomic_fetch_xor(&u[i], 1ul, 1),
        NBI_OR(shmem_ulong_atomic_fetch_xor_nbi((unsigned long *)&fetched[i], &u[i], 1ul, 1),
               sink += shmem_ulong_atomic_fetch_xor(&u[i], 1ul, 1)));
    ROW("and", shmem_ulong_atomic_and(&u[i], ~0ul, 1), shmem_ulong_atomic_and(&u[i], ~0ul, 1));
    ROW("or", shmem_ulong_atomic_or(&u[i], 1ul, 1), shmem_ulong_atomic_or(&u[i], 1ul, 1));
    ROW("xor", shmem_ulong_atomic_xor(&u[i], 1ul, 1), shmem_ulong_atomic_xor(&u[i], 1ul, 1));
    fetched[0] += sink;
    shmem_free(target);
    shmem_finalize();
    return 0;
}
