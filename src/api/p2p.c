/*
 * Point-to-point synchronization: wait and test on local symmetric variables,
 * single and in sets, generated from the point-to-point type table.
 */
#include "api/p2p.h"

#include "api/api.h"
#include "util/log.h"
#include "util/state.h"

void oshm_bad_cmp(int cmp, const char *routine)
{
    oshm_fatal("%s: comparison %d is not one of SHMEM_CMP_EQ/NE/GT/GE/LT/LE", routine, cmp);
}

#define LOAD(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define INCLUDED(status, i) (!(status) || !(status)[i])

#define DEFINE_P2P(T, N)                                                                      \
    /* One pass over the set: how many included elements satisfy, and which. */             \
    static size_t scan_##N(T *ivars, size_t nelems, const int *status, int cmp,               \
                           const T *values, T value, size_t *indices, size_t *first,          \
                           size_t *included, const char *routine)                             \
    {                                                                                         \
        size_t hits = 0;                                                                      \
        oshm_require_init(routine);                                                           \
        oshm_progress();                                                                      \
        *first = SIZE_MAX;                                                                    \
        *included = 0;                                                                        \
        for (size_t i = 0; i < nelems; i++) {                                                 \
            if (!INCLUDED(status, i))                                                         \
                continue;                                                                     \
            (*included)++;                                                                    \
            T want = values ? values[i] : value;                                              \
            if (OSHM_COMPARE(LOAD(&ivars[i]), cmp, want, routine)) {                          \
                if (*first == SIZE_MAX)                                                       \
                    *first = i;                                                               \
                if (indices)                                                                  \
                    indices[hits] = i;                                                        \
                hits++;                                                                       \
            }                                                                                 \
        }                                                                                     \
        return hits;                                                                          \
    }                                                                                         \
    /* MODE: 0 all, 1 any, 2 some. Returns what the routine returns. */                      \
    static size_t wait_##N(T *ivars, size_t nelems, const int *status, int cmp,               \
                           const T *values, T value, size_t *indices, int mode,               \
                           const char *routine)                                               \
    {                                                                                         \
        uint32_t spins = 0;                                                                   \
        for (;;) {                                                                            \
            size_t first, included;                                                           \
            size_t hits = scan_##N(ivars, nelems, status, cmp, values, value,                 \
                                   mode == 2 ? indices : NULL, &first, &included, routine);   \
            if (included == 0)                                                                \
                return mode == 1 ? SIZE_MAX : 0;                                              \
            if (mode == 0 ? hits == included : hits > 0)                                      \
                return mode == 1 ? first : hits;                                              \
            oshm_spin_step(&spins);                                                           \
        }                                                                                     \
    }                                                                                         \
    OSHM_FN(void, shmem_##N##_wait_until, (T * ivar, int cmp, T cmp_value))                   \
    {                                                                                         \
        uint32_t spins = 0;                                                                   \
        oshm_require_init("shmem_" #N "_wait_until");                                         \
        while (!OSHM_COMPARE(LOAD(ivar), cmp, cmp_value, "shmem_" #N "_wait_until"))          \
            oshm_spin_step(&spins);                                                           \
    }                                                                                         \
    OSHM_FN(void, shmem_##N##_wait_until_all,                                                 \
            (T * ivars, size_t nelems, const int *status, int cmp, T cmp_value))              \
    {                                                                                         \
        wait_##N(ivars, nelems, status, cmp, NULL, cmp_value, NULL, 0,                        \
                 "shmem_" #N "_wait_until_all");                                              \
    }                                                                                         \
    OSHM_FN(size_t, shmem_##N##_wait_until_any,                                               \
            (T * ivars, size_t nelems, const int *status, int cmp, T cmp_value))              \
    {                                                                                         \
        return wait_##N(ivars, nelems, status, cmp, NULL, cmp_value, NULL, 1,                 \
                        "shmem_" #N "_wait_until_any");                                       \
    }                                                                                         \
    OSHM_FN(size_t, shmem_##N##_wait_until_some,                                              \
            (T * ivars, size_t nelems, size_t *indices, const int *status, int cmp,           \
             T cmp_value))                                                                    \
    {                                                                                         \
        return wait_##N(ivars, nelems, status, cmp, NULL, cmp_value, indices, 2,              \
                        "shmem_" #N "_wait_until_some");                                      \
    }                                                                                         \
    OSHM_FN(void, shmem_##N##_wait_until_all_vector,                                          \
            (T * ivars, size_t nelems, const int *status, int cmp, T *cmp_values))            \
    {                                                                                         \
        wait_##N(ivars, nelems, status, cmp, cmp_values, 0, NULL, 0,                          \
                 "shmem_" #N "_wait_until_all_vector");                                       \
    }                                                                                         \
    OSHM_FN(size_t, shmem_##N##_wait_until_any_vector,                                        \
            (T * ivars, size_t nelems, const int *status, int cmp, T *cmp_values))            \
    {                                                                                         \
        return wait_##N(ivars, nelems, status, cmp, cmp_values, 0, NULL, 1,                   \
                        "shmem_" #N "_wait_until_any_vector");                                \
    }                                                                                         \
    OSHM_FN(size_t, shmem_##N##_wait_until_some_vector,                                       \
            (T * ivars, size_t nelems, size_t *indices, const int *status, int cmp,           \
             T *cmp_values))                                                                  \
    {                                                                                         \
        return wait_##N(ivars, nelems, status, cmp, cmp_values, 0, indices, 2,                \
                        "shmem_" #N "_wait_until_some_vector");                               \
    }                                                                                         \
    OSHM_FN(int, shmem_##N##_test, (T * ivar, int cmp, T cmp_value))                          \
    {                                                                                         \
        oshm_require_init("shmem_" #N "_test");                                               \
        oshm_progress();                                                                      \
        return OSHM_COMPARE(LOAD(ivar), cmp, cmp_value, "shmem_" #N "_test");                 \
    }                                                                                         \
    OSHM_FN(int, shmem_##N##_test_all,                                                        \
            (T * ivars, size_t nelems, const int *status, int cmp, T cmp_value))              \
    {                                                                                         \
        size_t first, included;                                                               \
        return scan_##N(ivars, nelems, status, cmp, NULL, cmp_value, NULL, &first, &included, \
                        "shmem_" #N "_test_all") == included;                                 \
    }                                                                                         \
    OSHM_FN(size_t, shmem_##N##_test_any,                                                     \
            (T * ivars, size_t nelems, const int *status, int cmp, T cmp_value))              \
    {                                                                                         \
        size_t first, included;                                                               \
        scan_##N(ivars, nelems, status, cmp, NULL, cmp_value, NULL, &first, &included,        \
                 "shmem_" #N "_test_any");                                                    \
        return first;                                                                         \
    }                                                                                         \
    OSHM_FN(size_t, shmem_##N##_test_some,                                                    \
            (T * ivars, size_t nelems, size_t *indices, const int *status, int cmp,           \
             T cmp_value))                                                                    \
    {                                                                                         \
        size_t first, included;                                                               \
        return scan_##N(ivars, nelems, status, cmp, NULL, cmp_value, indices, &first,         \
                        &included, "shmem_" #N "_test_some");                                 \
    }                                                                                         \
    OSHM_FN(int, shmem_##N##_test_all_vector,                                                 \
            (T * ivars, size_t nelems, const int *status, int cmp, T *cmp_values))            \
    {                                                                                         \
        size_t first, included;                                                               \
        return scan_##N(ivars, nelems, status, cmp, cmp_values, 0, NULL, &first, &included,   \
                        "shmem_" #N "_test_all_vector") == included;                          \
    }                                                                                         \
    OSHM_FN(size_t, shmem_##N##_test_any_vector,                                              \
            (T * ivars, size_t nelems, const int *status, int cmp, T *cmp_values))            \
    {                                                                                         \
        size_t first, included;                                                               \
        scan_##N(ivars, nelems, status, cmp, cmp_values, 0, NULL, &first, &included,          \
                 "shmem_" #N "_test_any_vector");                                             \
        return first;                                                                         \
    }                                                                                         \
    OSHM_FN(size_t, shmem_##N##_test_some_vector,                                             \
            (T * ivars, size_t nelems, size_t *indices, const int *status, int cmp,           \
             T *cmp_values))                                                                  \
    {                                                                                         \
        size_t first, included;                                                               \
        return scan_##N(ivars, nelems, status, cmp, cmp_values, 0, indices, &first,           \
                        &included, "shmem_" #N "_test_some_vector");                          \
    }
SHMEM_P2P_TABLE(DEFINE_P2P)

/* Deprecated: wait while *ivar == cmp_value. */
#define DEFINE_WAIT(T, N)                                                                     \
    OSHM_FN(void, shmem_##N##_wait, (T * ivar, T cmp_value))                                  \
    {                                                                                         \
        pshmem_##N##_wait_until(ivar, SHMEM_CMP_NE, cmp_value);                               \
    }
DEFINE_WAIT(short, short)
DEFINE_WAIT(int, int)
DEFINE_WAIT(long, long)
DEFINE_WAIT(long long, longlong)

OSHM_FN(void, shmem_wait, (long *ivar, long cmp_value)) { pshmem_long_wait_until(ivar, SHMEM_CMP_NE, cmp_value); }
OSHM_FN(void, shmem_wait_until, (long *ivar, int cmp, long cmp_value)) { pshmem_long_wait_until(ivar, cmp, cmp_value); }
