/* Timing helpers shared by the benchmarks (standard OpenSHMEM only). */
#ifndef OSHM_BENCH_UTIL_H
#define OSHM_BENCH_UTIL_H

#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Routines new in OpenSHMEM 1.5 are measured only where the implementation
 * has them, so that the same sources build with a 1.4 implementation. */
#define BENCH_HAVE_1_5 (SHMEM_MAJOR_VERSION * 100 + SHMEM_MINOR_VERSION >= 105)

/* shmem_init, and the number of PEs a two-PE benchmark needs: at least 2,
 * or exactly 2 when EXACT. False (after shmem_finalize, PE 0 having said
 * why) when the job has another number. */
static inline int bench_init_pair(const char *name, int exact)
{
    shmem_init();
    int n = shmem_n_pes();
    if (exact ? n == 2 : n >= 2)
        return 1;
    if (shmem_my_pe() == 0)
        fprintf(stderr, "%s needs 2 PEs\n", name);
    shmem_finalize();
    return 0;
}

static inline double bench_now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

#define BENCH_MAX_SIZES 64

/* The message sizes named by a benchmark's argument: "N" is every power of
 * two up to N, "a,b,c" those sizes (a long run measures only what it is
 * asked for), none every power of two up to DEFAULT_MAX. Sizes above LIMIT
 * are left out. Returns how many were stored in SIZES. */
static inline size_t bench_sizes(const char *arg, size_t default_max, size_t limit,
                                 size_t sizes[BENCH_MAX_SIZES])
{
    size_t n = 0;
    if (arg == NULL || strchr(arg, ',') == NULL) {
        size_t max = arg ? strtoul(arg, NULL, 0) : default_max;
        for (size_t s = 1; s <= max && s <= limit && n < BENCH_MAX_SIZES; s *= 2)
            sizes[n++] = s;
        return n;
    }
    for (const char *p = arg; n < BENCH_MAX_SIZES; p++) {
        char *end;
        size_t s = strtoul(p, &end, 0);
        if (end == p)
            break;
        if (s >= 1 && s <= limit)
            sizes[n++] = s;
        if (*end != ',')
            break;
        p = end;
    }
    return n;
}

static inline size_t bench_max_size(const size_t *sizes, size_t n)
{
    size_t max = 1;
    for (size_t i = 0; i < n; i++)
        max = sizes[i] > max ? sizes[i] : max;
    return max;
}

/* The OSU micro-benchmarks' loop: SKIP iterations untimed (first touches of
 * the peer's pages, caches, lazily made connections), then ITERS timed
 * ones; RESULT is the average time of one, in us. BODY sees the iteration
 * number as bench_i_. */
#define BENCH_OSU_LOOP(result, skip, iters, body)                  \
    do {                                                           \
        double t0_ = 0;                                            \
        for (long bench_i_ = -(long)(skip); bench_i_ < (long)(iters); bench_i_++) { \
            if (bench_i_ == 0)                                     \
                t0_ = bench_now_us();                              \
            body;                                                  \
        }                                                          \
        result = (bench_now_us() - t0_) / (double)(iters);         \
    } while (0)

/* OSU's counts: a message of up to 8 KiB is small (1,000 untimed and
 * 10,000 timed iterations), a larger one gets 10 and 100. */
#define BENCH_LARGE_MESSAGE 8192
static inline int bench_skip(size_t size) { return size <= BENCH_LARGE_MESSAGE ? 1000 : 10; }
static inline int bench_iters(size_t size) { return size <= BENCH_LARGE_MESSAGE ? 10000 : 100; }

/* The average over all PEs of each PE's VALUE, as OSU prints it (the
 * active-set form, which 1.4 implementations have too). */
static inline double bench_average_over_pes(double value)
{
    static double in, out, work[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
    static long sync[SHMEM_REDUCE_SYNC_SIZE];
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
        sync[i] = SHMEM_SYNC_VALUE;
    in = value;
    shmem_barrier_all();
    shmem_double_sum_to_all(&out, &in, 1, 0, 0, shmem_n_pes(), work, sync);
    shmem_barrier_all();
    return out / shmem_n_pes();
}

/* Best of three runs of BODY (coll_bench; the others follow OSU above). */
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
 * then one row per size or operation. bench/compare and bench/ucx_compare
 * read this layout. bench_section_as names something other than the
 * library (bench/ucx_raw: raw UCP, with OpenSHMEM only to start it). */
static inline void bench_section_as(const char *title, const char *impl, const char *columns)
{
    printf("\n# OSU-style OpenSHMEM %s\n# implementation: %s, %d PEs\n# %s\n", title, impl,
           shmem_n_pes(), columns);
}

static inline void bench_section(const char *title, const char *columns)
{
    char name[SHMEM_MAX_NAME_LEN];
    shmem_info_get_name(name);
    bench_section_as(title, name, columns);
}

#endif
