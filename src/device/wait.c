/*
 * Point-to-point waits and tests from a kernel, on this PE's symmetric
 * memory (OpenSHMEM 1.5 semantics). The scans are written once over a
 * per-type predicate; _some returns every satisfied index in order, _any
 * one index, starting where the thread's last call on the set stopped, so
 * a series of calls returns each satisfied element in turn.
 */
#include <shmem/device.h>
#include <shmem/shmem.h>

#include "api/p2p.h"
#include "api/p2p_cursor.h"
#include "device/dsync.h"
#include "util/log.h"
#include "util/spin.h"

/* Does element I of IVARS compare to VALUES[I] (or *VALUE) as CMP says? */
typedef bool (*satisfies_fn)(const void *ivars, size_t i, int cmp, const void *values,
                             const void *value, const char *routine);

struct wait_set {
    const void *ivars;
    size_t nelems;
    const int *status;
    int cmp;
    const void *values; /* the _vector forms' array, or NULL */
    const void *value;
    satisfies_fn sat;
    const char *routine;
};

static void check_set(const struct wait_set *w, const size_t *indices, bool need_indices)
{
    device_thread_of(w->routine);
    if (w->nelems && !w->ivars)
        oshm_fatal("%s: ivars is NULL", w->routine);
    if (w->nelems && w->values == NULL && w->value == NULL)
        oshm_fatal("%s: cmp_values is NULL", w->routine);
    if (need_indices && w->nelems && !indices)
        oshm_fatal("%s: indices is NULL", w->routine);
    switch (w->cmp) {
    case SHMEM_CMP_EQ: case SHMEM_CMP_NE: case SHMEM_CMP_GT:
    case SHMEM_CMP_GE: case SHMEM_CMP_LT: case SHMEM_CMP_LE: break;
    default: oshm_bad_cmp(w->cmp, w->routine); /* also for an empty set */
    }
}

#define INCLUDED(w, i) (!(w)->status || !(w)->status[i])

/* One pass: how many included elements satisfy (their indices, in order,
 * into INDICES when given); *INCLUDED how many are included. */
static size_t scan(const struct wait_set *w, size_t *indices, size_t *included)
{
    size_t hits = 0;
    oshm_progress();
    *included = 0;
    for (size_t i = 0; i < w->nelems; i++) {
        if (!INCLUDED(w, i))
            continue;
        (*included)++;
        if (w->sat(w->ivars, i, w->cmp, w->values, w->value, w->routine)) {
            if (indices)
                indices[hits] = i;
            hits++;
        }
    }
    return hits;
}

/* Until all included elements satisfy (ALL) or at least one does (the
 * count returned, the indices in INDICES); TEST: one pass only. */
static size_t wait_set_run(const struct wait_set *w, size_t *indices, bool all, bool test,
                           bool *done)
{
    uint32_t spins = 0;
    for (;;) {
        size_t included, hits = scan(w, indices, &included);
        *done = all ? hits == included : hits > 0 || included == 0;
        if (*done || test)
            return hits;
        dsync_spin(&spins);
    }
}

static size_t wait_set(const struct wait_set *w, size_t *indices, bool all, bool test, bool *done)
{
    size_t r;
    OSHM_PROFILED_LOCAL(OSHM_PROF_device_wait, w->routine, 0,
                        r = wait_set_run(w, indices, all, test, done));
    return r;
}

static size_t any_run(const struct wait_set *w, bool test)
{
    if (w->nelems == 0)
        return SIZE_MAX;
    size_t *cursor = oshm_any_cursor(w->ivars, w->routine);
    size_t start = *cursor % w->nelems;
    uint32_t spins = 0;
    for (;;) {
        size_t included = 0;
        oshm_progress();
        for (size_t k = 0, i = start; k < w->nelems; k++, i = i + 1 < w->nelems ? i + 1 : 0) {
            if (!INCLUDED(w, i))
                continue;
            included++;
            if (w->sat(w->ivars, i, w->cmp, w->values, w->value, w->routine)) {
                *cursor = i + 1;
                return i;
            }
        }
        if (test || included == 0)
            return SIZE_MAX;
        dsync_spin(&spins);
    }
}

static size_t any(const struct wait_set *w, bool test)
{
    size_t r;
    OSHM_PROFILED_LOCAL(OSHM_PROF_device_wait, w->routine, 0, r = any_run(w, test));
    return r;
}

#define SET(N, NAME, IV, NE, ST, CMP, VALS, VAL)                                               \
    (struct wait_set)                                                                          \
    {                                                                                          \
        .ivars = (IV), .nelems = (NE), .status = (ST), .cmp = (CMP), .values = (VALS),          \
        .value = (VAL), .sat = satisfies_##N, .routine = "shmemd_" #N "_" NAME                 \
    }

#define DEFINE_DEVICE_P2P(T, N)                                                                \
    static bool satisfies_##N(const void *ivars, size_t i, int cmp, const void *values,        \
                              const void *value, const char *routine)                          \
    {                                                                                          \
        T v = __atomic_load_n((const T *)ivars + i, __ATOMIC_ACQUIRE);                         \
        T want = values ? ((const T *)values)[i] : *(const T *)value;                          \
        return OSHM_COMPARE(v, cmp, want, routine);                                            \
    }                                                                                          \
    void shmemd_##N##_wait_until(T *ivar, int cmp, T cmp_value)                                \
    {                                                                                          \
        struct wait_set w = SET(N, "wait_until", ivar, 1, NULL, cmp, NULL, &cmp_value);        \
        bool done;                                                                             \
        check_set(&w, NULL, false);                                                            \
        wait_set(&w, NULL, true, false, &done);                                                \
    }                                                                                          \
    void shmemd_##N##_wait_until_all(T *ivars, size_t nelems, const int *status, int cmp,      \
                                     T cmp_value)                                              \
    {                                                                                          \
        struct wait_set w = SET(N, "wait_until_all", ivars, nelems, status, cmp, NULL,         \
                                &cmp_value);                                                   \
        bool done;                                                                             \
        check_set(&w, NULL, false);                                                            \
        wait_set(&w, NULL, true, false, &done);                                                \
    }                                                                                          \
    size_t shmemd_##N##_wait_until_any(T *ivars, size_t nelems, const int *status, int cmp,    \
                                       T cmp_value)                                            \
    {                                                                                          \
        struct wait_set w = SET(N, "wait_until_any", ivars, nelems, status, cmp, NULL,         \
                                &cmp_value);                                                   \
        check_set(&w, NULL, false);                                                            \
        return any(&w, false);                                                                 \
    }                                                                                          \
    size_t shmemd_##N##_wait_until_some(T *ivars, size_t nelems, size_t *indices,              \
                                        const int *status, int cmp, T cmp_value)               \
    {                                                                                          \
        struct wait_set w = SET(N, "wait_until_some", ivars, nelems, status, cmp, NULL,        \
                                &cmp_value);                                                   \
        bool done;                                                                             \
        check_set(&w, indices, true);                                                          \
        return wait_set(&w, indices, false, false, &done);                                     \
    }                                                                                          \
    void shmemd_##N##_wait_until_all_vector(T *ivars, size_t nelems, const int *status,        \
                                            int cmp, const T *cmp_values)                      \
    {                                                                                          \
        struct wait_set w = SET(N, "wait_until_all_vector", ivars, nelems, status, cmp,        \
                                cmp_values, NULL);                                             \
        bool done;                                                                             \
        check_set(&w, NULL, false);                                                            \
        wait_set(&w, NULL, true, false, &done);                                                \
    }                                                                                          \
    size_t shmemd_##N##_wait_until_any_vector(T *ivars, size_t nelems, const int *status,      \
                                              int cmp, const T *cmp_values)                    \
    {                                                                                          \
        struct wait_set w = SET(N, "wait_until_any_vector", ivars, nelems, status, cmp,        \
                                cmp_values, NULL);                                             \
        check_set(&w, NULL, false);                                                            \
        return any(&w, false);                                                                 \
    }                                                                                          \
    size_t shmemd_##N##_wait_until_some_vector(T *ivars, size_t nelems, size_t *indices,       \
                                               const int *status, int cmp,                     \
                                               const T *cmp_values)                            \
    {                                                                                          \
        struct wait_set w = SET(N, "wait_until_some_vector", ivars, nelems, status, cmp,       \
                                cmp_values, NULL);                                             \
        bool done;                                                                             \
        check_set(&w, indices, true);                                                          \
        return wait_set(&w, indices, false, false, &done);                                     \
    }                                                                                          \
    int shmemd_##N##_test(T *ivar, int cmp, T cmp_value)                                       \
    {                                                                                          \
        struct wait_set w = SET(N, "test", ivar, 1, NULL, cmp, NULL, &cmp_value);              \
        bool done;                                                                             \
        check_set(&w, NULL, false);                                                            \
        wait_set(&w, NULL, true, true, &done);                                                 \
        return done;                                                                           \
    }                                                                                          \
    int shmemd_##N##_test_all(T *ivars, size_t nelems, const int *status, int cmp,             \
                              T cmp_value)                                                     \
    {                                                                                          \
        struct wait_set w = SET(N, "test_all", ivars, nelems, status, cmp, NULL, &cmp_value);  \
        bool done;                                                                             \
        check_set(&w, NULL, false);                                                            \
        wait_set(&w, NULL, true, true, &done);                                                 \
        return done;                                                                           \
    }                                                                                          \
    size_t shmemd_##N##_test_any(T *ivars, size_t nelems, const int *status, int cmp,          \
                                 T cmp_value)                                                  \
    {                                                                                          \
        struct wait_set w = SET(N, "test_any", ivars, nelems, status, cmp, NULL, &cmp_value);  \
        check_set(&w, NULL, false);                                                            \
        return any(&w, true);                                                                  \
    }                                                                                          \
    size_t shmemd_##N##_test_some(T *ivars, size_t nelems, size_t *indices, const int *status, \
                                  int cmp, T cmp_value)                                        \
    {                                                                                          \
        struct wait_set w = SET(N, "test_some", ivars, nelems, status, cmp, NULL, &cmp_value); \
        bool done;                                                                             \
        check_set(&w, indices, true);                                                          \
        return wait_set(&w, indices, false, true, &done);                                      \
    }                                                                                          \
    int shmemd_##N##_test_all_vector(T *ivars, size_t nelems, const int *status, int cmp,      \
                                     const T *cmp_values)                                      \
    {                                                                                          \
        struct wait_set w = SET(N, "test_all_vector", ivars, nelems, status, cmp, cmp_values,  \
                                NULL);                                                         \
        bool done;                                                                             \
        check_set(&w, NULL, false);                                                            \
        wait_set(&w, NULL, true, true, &done);                                                 \
        return done;                                                                           \
    }                                                                                          \
    size_t shmemd_##N##_test_any_vector(T *ivars, size_t nelems, const int *status, int cmp,   \
                                        const T *cmp_values)                                   \
    {                                                                                          \
        struct wait_set w = SET(N, "test_any_vector", ivars, nelems, status, cmp, cmp_values,  \
                                NULL);                                                         \
        check_set(&w, NULL, false);                                                            \
        return any(&w, true);                                                                  \
    }                                                                                          \
    size_t shmemd_##N##_test_some_vector(T *ivars, size_t nelems, size_t *indices,             \
                                         const int *status, int cmp, const T *cmp_values)      \
    {                                                                                          \
        struct wait_set w = SET(N, "test_some_vector", ivars, nelems, status, cmp,             \
                                cmp_values, NULL);                                             \
        bool done;                                                                             \
        check_set(&w, indices, true);                                                          \
        return wait_set(&w, indices, false, true, &done);                                      \
    }
SHMEM_P2P_TABLE(DEFINE_DEVICE_P2P)
