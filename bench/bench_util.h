/* Timing helpers shared by the benchmarks (standard OpenSHMEM only). */
#ifndef OSHM_BENCH_UTIL_H
#define OSHM_BENCH_UTIL_H

#include <shmem.h>
#include <stdio.h>
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

/* Output in the OSU micro-benchmark layout: a section per test,
 *   # OSU-style OpenSHMEM <title>
 *   # implementation: <name>, <n> PEs
 *   # <key column>   <value column>...
 * then one row per size or operation. bench/compare reads this layout. */
static inline void bench_section(const char *title, const char *columns)
{
    char name[SHMEM_MAX_NAME_LEN];
    shmem_info_get_name(name);
    printf("\n# OSU-style OpenSHMEM %s\n# implementation: %s, %d PEs\n# %s\n", title, name,
           shmem_n_pes(), columns);
}

#endif
