/* Timing helpers shared by the benchmarks (standard OpenSHMEM only). */
#ifndef OSHM_BENCH_UTIL_H
#define OSHM_BENCH_UTIL_H

#include <time.h>

/* Routines new in OpenSHMEM 1.5 are measured only where the implementation
 * has them, so that the same sources build with a 1.4 implementation. */
#define BENCH_HAVE_1_5 (SHMEM_MAJOR_VERSION * 100 + SHMEM_MINOR_VERSION >= 105)

static inline double bench_now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

/* Best of three runs of BODY: the machine may be shared. */
#define BENCH_BEST_OF_3(result, body)                 \
    do {                                              \
        result = 1e30;                                \
        for (int rep_ = 0; rep_ < 3; rep_++) {        \
            double t0_ = bench_now_us();              \
            body;                                     \
            double t_ = bench_now_us() - t0_;         \
            if (t_ < result)                          \
                result = t_;                          \
        }                                             \
    } while (0)

#endif
