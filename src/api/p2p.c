/*
 * Point-to-point synchronization: wait and test on local symmetric variables,
 * single and in sets, generated from the point-to-point type table. The
 * _some forms return every satisfied index, in order, so no element waits
 * behind another; the _any forms return one, and rotate (p2p_cursor.h).
 */
#include "api/p2p.h"

#include "api/api.h"
#include "api/p2p_cursor.h"
#include "util/log.h"
#include "util/routine.h"
#include "util/state.h"

void oshm_bad_cmp(int cmp, const char *routine)
{
    oshm_fatal("%s: comparison %d is not one of SHMEM_CMP_EQ/NE/GT/GE/LT/LE", routine, cmp);
}

#define LOAD(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define INCLUDED(status, i) (!(status) || !(status)[i])

#define DEFINE_P2P(T, N)                                                                      \
    /* One pass over the set: how many included elements satisfy; their                       \
     * indices, in order, into INDICES when given. */                                         \
    static size_t scan_##N(T *ivars, size_t nelems, const int *status, int cmp,               \
                           const T *values, T value, size_t *indices, size_t *included,       \
                           const char *routine)                                               \
    {                                                                                         \
        size_t hits = 0;                                                                      \
        oshm_require_init(routine);                                                           \
        oshm_progress();                                                                      \
        *included = 0;                                                                        \
        for (size_t i = 0; i < nelems; i++) {                                                 \
            if (!INCLUDED(status, i))                                                         \
                continue;                                                                     \
            (*included)++;                                                                    \
            T want = values ? values[i] : value;                                              \
            if (OSHM_COMPARE(LOAD(&ivars[i]), cmp, want, routine)) {                          \
                if (indices)                                                                  \
                    indices[hits] = i;                                                        \
                hits++;                                                                       \
            }                                                                                 \
        }                                                                                     \
        return hits;                                                                          \
    }                                                                                         \
    /* Until all included elements satisfy (SOME false) or at least one                       \
     * does (SOME true, the count returned, the indices in INDICES). */                       \
    static size_t wait_##N(T *ivars, size_t nelems, const int *status, int cmp,               \
                           const T *values, T value, size_t *indices, bool some,              \
                           const char *routine)                                               \
    {                                                                                         \
        uint32_t spins = 0;                                                                   \
        const char *was = oshm_routine_wait_enter(routine);                                   \
        for (;;) {                                                                            \
            size_t included;                                                                  \
            size_t hits = scan_##N(ivars, nelems, status, cmp, values, value, indices,        \
                                   &included, routine);                                       \
            if (some ? hits > 0 || included == 0 : hits == included) {                        \
                oshm_routine_restore(was);                                                    \
                return hits;                                                                  \
            }                                                                                 \
            oshm_spin_step(&spins);                                                           \
        }                                                                                     \
    }                                                                                         \
    /* The first included element that satisfies, from START on, wrapping                     \
     * round; SIZE_MAX if none. *INCLUDED: 0 when the wait set is empty. */                   \
    static size_t scan_any_##N(T *ivars, size_t nelems, const int *status, int cmp,           \
                               const T *values, T value, size_t start, size_t *included,      \
                               const char *routine)                                           \
    {                                                                                         \
        oshm_progress();                                                                      \
        *included = 0;                                                                        \
        for (size_t k = 0, i = start; k < nelems; k++, i = i + 1 < nelems ? i + 1 : 0) {      \
            if (!INCLUDED(status, i))                                                         \
                continue;                                                                     \
            (*included)++;                                                                    \
            T want = values ? values[i] : value;                                              \
            if (OSHM_COMPARE(LOAD(&ivars[i]), cmp, want, routine))                            \
                return i;                                                                     \
        }                                                                                     \
        return SIZE_MAX;                                                                      \
    }                                                                                         \
    /* test_any and wait_until_any: each call starts where the calling                        \
     * thread's last call of this routine on IVARS stopped (p2p_cursor.h). */                 \
    static size_t any_##N(T *ivars, size_t nelems, const int *status, int cmp,                \
                          const T *values, T value, bool wait, const char *routine)           \
    {                                                                                         \
        oshm_require_init(routine);                                                           \
        if (nelems == 0)                                                                      \
            return SIZE_MAX;                                                                  \
        size_t *cursor = oshm_any_cursor(ivars, routine);                                     \
        size_t start = *cursor % nelems;                                                      \
        uint32_t spins = 0;                                                                   \
        for (;;) {                                                                            \
            size_t included;                                                                  \
            size_t i = scan_any_##N(ivars, nelems, status, cmp, values, value, start,         \
                                    &included, routine);                                      \
            if (i != SIZE_MAX) {                                                              \
                *cursor = i + 1;                                                              \
                return i;                                                                     \
            }                                                                                 \
            if (!wait || included == 0)                                                       \
                return SIZE_MAX;                                                              \
            oshm_spin_step(&spins);                                                           \
        }                                                                                     \
    }                                                                                         \
    OSHM_FN(void, shmem_##N##_wait_until, (T * ivar, int cmp, T cmp_value))                   \
    {                                                                                         \
        uint32_t spins = 0;                                                                   \
        oshm_require_init("shmem_" #N "_wait_until");                                         \
        const char *was = oshm_routine_wait_enter("shmem_" #N "_wait_until");                 \
        while (!OSHM_COMPARE(LOAD(ivar), cmp, cmp_value, "shmem_" #N "_wait_until"))          \
            oshm_spin_step(&spins);                                                           \
        oshm_routine_restore(was);                                                            \
    }                                                                                         \
    OSHM_FN(void, shmem_##N##_wait_until_all,                                                 \
            (T * ivars, size_t nelems, const int *status, int cmp, T cmp_value))              \
    {                                                                                         \
        wait_##N(ivars, nelems, status, cmp, NULL, cmp_value, NULL, false,                    \
                 "shmem_" #N "_wait_until_all");                                              \
    }                                                                                         \
    OSHM_FN(size_t, shmem_##N##_wait_until_any,                                               \
            (T * ivars, size_t nelems, const int *status, int cmp, T cmp_value))              \
    {                                                                                         \
        return any_##N(ivars, nelems, status, cmp, NULL, cmp_value, true,                     \
                       "shmem_" #N "_wait_until_any");                                        \
    }                                                                                         \
    OSHM_FN(size_t, shmem_##N##_wait_until_some,                                              \
            (T * ivars, size_t nelems, size_t *indices, const int *status, int cmp,           \
             T cmp_value))                                                                    \
    {                                                                                         \
        return wait_##N(ivars, nelems, status, cmp, NULL, cmp_value, indices, true,           \
                        "shmem_" #N "_wait_until_some");                                      \
    }                                                                                         \
    OSHM_FN(void, shmem_##N##_wait_until_all_vector,                                          \
            (T * ivars, size_t nelems, const int *status, int cmp, const T *cmp_values))      \
    {                                                                                         \
        wait_##N(ivars, nelems, status, cmp, cmp_values, 0, NULL, false,                      \
                 "shmem_" #N "_wait_until_all_vector");                                       \
    }                                                                                         \
    OSHM_FN(size_t, shmem_##N##_wait_until_any_vector,                                        \
            (T * ivars, size_t nelems, const int *status, int cmp, const T *cmp_values))      \
    {                                                                                         \
        return any_##N(ivars, nelems, status, cmp, cmp_values, 0, true,                       \
                       "shmem_" #N "_wait_until_any_vector");                                 \
    }                                                                                         \
    OSHM_FN(size_t, shmem_##N##_wait_until_some_vector,                                       \
            (T * ivars, size_t nelems, size_t *indices, const int *status, int cmp,           \
             const T *cmp_values))                                                            \
    {                                                                                         \
        return wait_##N(ivars, nelems, status, cmp, cmp_values, 0, indices, true,             \
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
        size_t included;                                                                      \
        return scan_##N(ivars, nelems, status, cmp, NULL, cmp_value, NULL, &included,         \
                        "shmem_" #N "_test_all") == included;                                 \
    }                                                                                         \
    OSHM_FN(size_t, shmem_##N##_test_any,                                                     \
            (T * ivars, size_t nelems, const int *status, int cmp, T cmp_value))              \
    {                                                                                         \
        return any_##N(ivars, nelems, status, cmp, NULL, cmp_value, false,                    \
                       "shmem_" #N "_test_any");                                              \
    }                                                                                         \
    OSHM_FN(size_t, shmem_##N##_test_some,                                                    \
            (T * ivars, size_t nelems, size_t *indices, const int *status, int cmp,           \
             T cmp_value))                                                                    \
    {                                                                                         \
        size_t included;                                                                      \
        return scan_##N(ivars, nelems, status, cmp, NULL, cmp_value, indices, &included,      \
                        "shmem_" #N "_test_some");                                            \
    }                                                                                         \
    OSHM_FN(int, shmem_##N##_test_all_vector,                                                 \
            (T * ivars, size_t nelems, const int *status, int cmp, const T *cmp_values))      \
    {                                                                                         \
        size_t included;                                                                      \
        return scan_##N(ivars, nelems, status, cmp, cmp_values, 0, NULL, &included,           \
                        "shmem_" #N "_test_all_vector") == included;                          \
    }                                                                                         \
    OSHM_FN(size_t, shmem_##N##_test_any_vector,                                              \
            (T * ivars, size_t nelems, const int *status, int cmp, const T *cmp_values))      \
    {                                                                                         \
        return any_##N(ivars, nelems, status, cmp, cmp_values, 0, false,                      \
                       "shmem_" #N "_test_any_vector");                                       \
    }                                                                                         \
    OSHM_FN(size_t, shmem_##N##_test_some_vector,                                             \
            (T * ivars, size_t nelems, size_t *indices, const int *status, int cmp,           \
             const T *cmp_values))                                                            \
    {                                                                                         \
        size_t included;                                                                      \
        return scan_##N(ivars, nelems, status, cmp, cmp_values, 0, indices, &included,        \
                        "shmem_" #N "_test_some_vector");                                     \
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
