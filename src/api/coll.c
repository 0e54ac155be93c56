/*
 * Collective routines: team-based (OpenSHMEM 1.5) and the deprecated
 * active-set forms, all on the algorithms of src/team/coll.c.
 */
#include <complex.h>

#include "api/api.h"
#include "api/ctx.h"
#include "team/coll.h"
#include "team/team.h"
#include "util/log.h"
#include "util/prof.h"
#include "util/reduce_ops.h"
#include "util/state.h"

/* The PE set of an active set; its sync words are the caller's pSync. */
static struct oshm_pe_set active_set(int start, int log_stride, int size, long *pSync,
                                     const char *routine)
{
    oshm_require_init(routine);
    int stride = 1 << log_stride;
    if (size < 1 || start < 0 || log_stride < 0 || log_stride > 30 ||
        start + (long)(size - 1) * stride >= hcomm.n_pes)
        oshm_fatal("%s: active set (start %d, log stride %d, size %d) does not fit in %d PEs",
                   routine, start, log_stride, size, hcomm.n_pes);
    int rel = hcomm.my_pe - start;
    if (rel < 0 || rel % stride || rel / stride >= size)
        oshm_fatal("%s: PE %d is not in the active set (start %d, log stride %d, size %d)",
                   routine, hcomm.my_pe, start, log_stride, size);
    return (struct oshm_pe_set){.start = start, .stride = stride, .size = size,
                                .my_index = rel / stride, .sync = (int64_t *)pSync,
                                .idle = SHMEM_SYNC_VALUE};
}

static const struct oshm_pe_set *team_set(shmem_team_t team, const char *routine)
{
    oshm_require_init(routine);
    return oshm_team_set(team, routine);
}

/* ---- barriers ---- */
/* Every routine here is one call of the profile (util/prof.h), internal
 * quiets and synchronizations included, and is recorded (util/routine.h):
 * where a PE waits is what a launcher's report of a hung job names. */
static inline void barrier_all(void)
{
    const char *was = oshm_routine_wait_enter("shmem_barrier_all");
    hcomm_quiet(&hcomm.default_channel);
    oshm_sync_world();
    oshm_routine_restore(was);
}

static __attribute__((noinline, cold)) void barrier_all_slow(void)
{
    OSHM_SLOW_PATH(OSHM_PROF_barrier, "shmem_barrier_all", 0, -1, barrier_all());
}

/* The hottest collective: the fast path's one test covers the profiler. */
OSHM_FN(void, shmem_barrier_all, (void))
{
    if (!oshm_fast() && !oshm_prof_leaf(OSHM_PROF_barrier, 0)) {
        barrier_all_slow();
        return;
    }
    barrier_all();
}

OSHM_FN(void, shmem_sync_all, (void))
{
    oshm_require_init("shmem_sync_all");
    const char *was = oshm_routine_wait_enter("shmem_sync_all");
    OSHM_PROFILED_LOCAL(OSHM_PROF_sync, "shmem_sync_all", 0, oshm_sync_world());
    oshm_routine_restore(was);
}

OSHM_FN(void, shmem_barrier, (int PE_start, int logPE_stride, int PE_size, long *pSync))
{
    struct oshm_pe_set s = active_set(PE_start, logPE_stride, PE_size, pSync, "shmem_barrier");
    const char *was = oshm_routine_wait_enter("shmem_barrier");
    OSHM_PROFILED_LOCAL(OSHM_PROF_barrier, "shmem_barrier", 0, {
        hcomm_quiet(&hcomm.default_channel);
        oshm_barrier_sync(&s);
    });
    oshm_routine_restore(was);
}

OSHM_FN(void, shmem_sync, (int PE_start, int logPE_stride, int PE_size, long *pSync))
{
    struct oshm_pe_set s = active_set(PE_start, logPE_stride, PE_size, pSync, "shmem_sync");
    const char *was = oshm_routine_wait_enter("shmem_sync");
    OSHM_PROFILED_LOCAL(OSHM_PROF_sync, "shmem_sync", 0, oshm_barrier_sync(&s));
    oshm_routine_restore(was);
}

/* ---- team data movement ---- */
static int check_root(const struct oshm_pe_set *s, int root, const char *routine)
{
    if (root < 0 || root >= s->size)
        oshm_fatal("%s: root %d is not in the team (PEs 0 to %d)", routine, root, s->size - 1);
    return root;
}

#define DEFINE_TEAM_COLL(NAME, T, ELEM)                                                       \
    OSHM_FN(int, shmem_##NAME##broadcast,                                                     \
            (shmem_team_t team, T *dest, const T *source, size_t nelems, int PE_root))        \
    {                                                                                         \
        const struct oshm_pe_set *s = team_set(team, "shmem_" #NAME "broadcast");             \
        OSHM_PROFILED_LOCAL(OSHM_PROF_broadcast, "shmem_" #NAME "broadcast", nelems * (ELEM), \
            oshm_broadcast(s, dest, source, nelems * (ELEM),                                  \
                           check_root(s, PE_root, "shmem_" #NAME "broadcast"),                \
                           OSHM_COLL_TEAM));                                                  \
        return 0;                                                                             \
    }                                                                                         \
    OSHM_FN(int, shmem_##NAME##collect, (shmem_team_t team, T *dest, const T *source,         \
                                         size_t nelems))                                      \
    {                                                                                         \
        OSHM_PROFILED_LOCAL(OSHM_PROF_collect, "shmem_" #NAME "collect", nelems * (ELEM),     \
            oshm_collect(team_set(team, "shmem_" #NAME "collect"), dest, source,             \
                         nelems * (ELEM),                                                     \
                         OSHM_COLL_TEAM));                                                    \
        return 0;                                                                             \
    }                                                                                         \
    OSHM_FN(int, shmem_##NAME##fcollect, (shmem_team_t team, T *dest, const T *source,        \
                                          size_t nelems))                                     \
    {                                                                                         \
        OSHM_PROFILED_LOCAL(OSHM_PROF_fcollect, "shmem_" #NAME "fcollect", nelems * (ELEM),   \
            oshm_fcollect(team_set(team, "shmem_" #NAME "fcollect"), dest, source,            \
                          nelems * (ELEM), OSHM_COLL_TEAM));                                  \
        return 0;                                                                             \
    }                                                                                         \
    OSHM_FN(int, shmem_##NAME##alltoall, (shmem_team_t team, T *dest, const T *source,        \
                                          size_t nelems))                                     \
    {                                                                                         \
        OSHM_PROFILED_LOCAL(OSHM_PROF_alltoall, "shmem_" #NAME "alltoall", nelems * (ELEM),   \
            oshm_alltoall(team_set(team, "shmem_" #NAME "alltoall"), dest, source,            \
                          nelems * (ELEM), OSHM_COLL_TEAM));                                  \
        return 0;                                                                             \
    }                                                                                         \
    OSHM_FN(int, shmem_##NAME##alltoalls, (shmem_team_t team, T *dest, const T *source,       \
                                           ptrdiff_t dst, ptrdiff_t sst, size_t nelems))      \
    {                                                                                         \
        OSHM_PROFILED_LOCAL(OSHM_PROF_alltoalls, "shmem_" #NAME "alltoalls", nelems * (ELEM), \
            oshm_alltoalls(team_set(team, "shmem_" #NAME "alltoalls"), dest, source, dst,    \
                           sst,                                                               \
                           ELEM, nelems, OSHM_COLL_TEAM));                                    \
        return 0;                                                                             \
    }
#define DEFINE_TYPED_TEAM_COLL(T, N) DEFINE_TEAM_COLL(N##_, T, sizeof(T))
SHMEM_RMA_TYPE_TABLE(DEFINE_TYPED_TEAM_COLL)
/* shmem_broadcastmem, ...: the "mem" suffix follows the operation. */
OSHM_FN(int, shmem_broadcastmem, (shmem_team_t team, void *dest, const void *source, size_t nelems, int PE_root))
{
    const struct oshm_pe_set *s = team_set(team, "shmem_broadcastmem");
    OSHM_PROFILED_LOCAL(OSHM_PROF_broadcast, "shmem_broadcastmem", nelems,
        oshm_broadcast(s, dest, source, nelems, check_root(s, PE_root, "shmem_broadcastmem"),
                       OSHM_COLL_TEAM));
    return 0;
}
OSHM_FN(int, shmem_collectmem, (shmem_team_t team, void *dest, const void *source, size_t nelems))
{
    OSHM_PROFILED_LOCAL(OSHM_PROF_collect, "shmem_collectmem", nelems,
        oshm_collect(team_set(team, "shmem_collectmem"), dest, source, nelems, OSHM_COLL_TEAM));
    return 0;
}
OSHM_FN(int, shmem_fcollectmem, (shmem_team_t team, void *dest, const void *source, size_t nelems))
{
    OSHM_PROFILED_LOCAL(OSHM_PROF_fcollect, "shmem_fcollectmem", nelems,
        oshm_fcollect(team_set(team, "shmem_fcollectmem"), dest, source, nelems, OSHM_COLL_TEAM));
    return 0;
}
OSHM_FN(int, shmem_alltoallmem, (shmem_team_t team, void *dest, const void *source, size_t nelems))
{
    OSHM_PROFILED_LOCAL(OSHM_PROF_alltoall, "shmem_alltoallmem", nelems,
        oshm_alltoall(team_set(team, "shmem_alltoallmem"), dest, source, nelems, OSHM_COLL_TEAM));
    return 0;
}
OSHM_FN(int, shmem_alltoallsmem, (shmem_team_t team, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems))
{
    OSHM_PROFILED_LOCAL(OSHM_PROF_alltoalls, "shmem_alltoallsmem", nelems,
        oshm_alltoalls(team_set(team, "shmem_alltoallsmem"), dest, source, dst, sst, 1, nelems,
                       OSHM_COLL_TEAM));
    return 0;
}

/* ---- active-set data movement (deprecated) ---- */
#define DEFINE_ACTIVE_SET(BITS)                                                               \
    OSHM_FN(void, shmem_broadcast##BITS,                                                      \
            (void *dest, const void *source, size_t nelems, int PE_root, int PE_start,        \
             int logPE_stride, int PE_size, long *pSync))                                     \
    {                                                                                         \
        struct oshm_pe_set s = active_set(PE_start, logPE_stride, PE_size, pSync,             \
                                          "shmem_broadcast" #BITS);                           \
        OSHM_PROFILED_LOCAL(OSHM_PROF_broadcast, "shmem_broadcast" #BITS,                    \
                            nelems * (BITS / 8),                                              \
            oshm_broadcast(&s, dest, source, nelems * (BITS / 8),                             \
                           check_root(&s, PE_root, "shmem_broadcast" #BITS),                  \
                           OSHM_COLL_ACTIVE_SET));                                            \
    }                                                                                         \
    OSHM_FN(void, shmem_collect##BITS,                                                        \
            (void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride,   \
             int PE_size, long *pSync))                                                       \
    {                                                                                         \
        struct oshm_pe_set s = active_set(PE_start, logPE_stride, PE_size, pSync,             \
                                          "shmem_collect" #BITS);                             \
        OSHM_PROFILED_LOCAL(OSHM_PROF_collect, "shmem_collect" #BITS, nelems * (BITS / 8),    \
            oshm_collect(&s, dest, source, nelems * (BITS / 8), OSHM_COLL_ACTIVE_SET));       \
    }                                                                                         \
    OSHM_FN(void, shmem_fcollect##BITS,                                                       \
            (void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride,   \
             int PE_size, long *pSync))                                                       \
    {                                                                                         \
        struct oshm_pe_set s = active_set(PE_start, logPE_stride, PE_size, pSync,             \
                                          "shmem_fcollect" #BITS);                            \
        OSHM_PROFILED_LOCAL(OSHM_PROF_fcollect, "shmem_fcollect" #BITS, nelems * (BITS / 8),  \
            oshm_fcollect(&s, dest, source, nelems * (BITS / 8), OSHM_COLL_ACTIVE_SET));      \
    }                                                                                         \
    OSHM_FN(void, shmem_alltoall##BITS,                                                       \
            (void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride,   \
             int PE_size, long *pSync))                                                       \
    {                                                                                         \
        struct oshm_pe_set s = active_set(PE_start, logPE_stride, PE_size, pSync,             \
                                          "shmem_alltoall" #BITS);                            \
        OSHM_PROFILED_LOCAL(OSHM_PROF_alltoall, "shmem_alltoall" #BITS, nelems * (BITS / 8),  \
            oshm_alltoall(&s, dest, source, nelems * (BITS / 8), OSHM_COLL_ACTIVE_SET));      \
    }                                                                                         \
    OSHM_FN(void, shmem_alltoalls##BITS,                                                      \
            (void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,     \
             int PE_start, int logPE_stride, int PE_size, long *pSync))                       \
    {                                                                                         \
        struct oshm_pe_set s = active_set(PE_start, logPE_stride, PE_size, pSync,             \
                                          "shmem_alltoalls" #BITS);                           \
        OSHM_PROFILED_LOCAL(OSHM_PROF_alltoalls, "shmem_alltoalls" #BITS,                    \
                            nelems * (BITS / 8),                                              \
                            oshm_alltoalls(&s, dest, source, dst, sst, BITS / 8, nelems,      \
                                           OSHM_COLL_ACTIVE_SET));                            \
    }
DEFINE_ACTIVE_SET(32)
DEFINE_ACTIVE_SET(64)

/* ---- reductions ---- */

#define DEFINE_COMBINE_FN(T, N, OP)                                                           \
    static void combine_##N##_##OP(void *acc, const void *in, size_t n)                       \
    {                                                                                         \
        T *a = acc;                                                                           \
        const T *b = in;                                                                      \
        for (size_t i = 0; i < n; i++)                                                        \
            a[i] = OP_##OP(a[i], b[i]);                                                       \
    }
#define DEFINE_COMBINE(T, N, OP)                                                              \
    DEFINE_COMBINE_FN(T, N, OP)                                                               \
    OSHM_FN(int, shmem_##N##_##OP##_reduce, (shmem_team_t team, T *dest, const T *source,     \
                                             size_t nreduce))                                 \
    {                                                                                         \
        OSHM_PROFILED_LOCAL(OSHM_PROF_reduce, "shmem_" #N "_" #OP "_reduce",                 \
                            nreduce * sizeof(T),                                              \
            oshm_reduce(team_set(team, "shmem_" #N "_" #OP "_reduce"), dest, source, nreduce, \
                        sizeof(T), combine_##N##_##OP));                                      \
        return 0;                                                                             \
    }
#define DEFINE_BITWISE_REDUCE(T, N) DEFINE_COMBINE(T, N, and) DEFINE_COMBINE(T, N, or) DEFINE_COMBINE(T, N, xor)
#define DEFINE_MINMAX_REDUCE(T, N) DEFINE_COMBINE(T, N, min) DEFINE_COMBINE(T, N, max)
#define DEFINE_ARITH_REDUCE(T, N) DEFINE_COMBINE(T, N, sum) DEFINE_COMBINE(T, N, prod)
SHMEM_REDUCE_BITWISE_TABLE(DEFINE_BITWISE_REDUCE)
SHMEM_REDUCE_MINMAX_TABLE(DEFINE_MINMAX_REDUCE)
SHMEM_REDUCE_ARITH_TABLE(DEFINE_ARITH_REDUCE)

/* The signed types of the deprecated bitwise reductions have no team form. */
#define DEFINE_SIGNED_BITWISE_COMBINE(T, N)                                                   \
    DEFINE_COMBINE_FN(T, N, and) DEFINE_COMBINE_FN(T, N, or) DEFINE_COMBINE_FN(T, N, xor)
SHMEM_TO_ALL_BITWISE_TABLE(DEFINE_SIGNED_BITWISE_COMBINE)

/* The work array of an active-set reduction, where it is what the
 * specification asks (symmetric, max(nreduce / 2 + 1,
 * SHMEM_REDUCE_MIN_WRKDATA_SIZE) elements): the network reductions'
 * receive space (coll_net.h). Elsewhere it is not needed (PEs combine
 * straight from each other's sources, or in private scratch). */
static void give_work(struct oshm_pe_set *s, void *pWrk, int nreduce, size_t elem)
{
    size_t n = (size_t)nreduce / 2 + 1;
    size_t bytes = (n > SHMEM_REDUCE_MIN_WRKDATA_SIZE ? n : SHMEM_REDUCE_MIN_WRKDATA_SIZE) * elem;
    if (pWrk && hcomm_seg_of(pWrk, bytes) >= 0) {
        s->scratch = pWrk;
        s->scratch_bytes = bytes;
    }
}

/* Deprecated active-set reductions reuse the combine functions above. */
#define DEFINE_TO_ALL(T, N, OP)                                                               \
    OSHM_FN(void, shmem_##N##_##OP##_to_all,                                                  \
            (T * dest, const T *source, int nreduce, int PE_start, int logPE_stride,          \
             int PE_size, T *pWrk, long *pSync))                                              \
    {                                                                                         \
        struct oshm_pe_set s = active_set(PE_start, logPE_stride, PE_size, pSync,             \
                                          "shmem_" #N "_" #OP "_to_all");                     \
        if (nreduce < 0)                                                                      \
            oshm_fatal("shmem_" #N "_" #OP "_to_all: nreduce %d is negative", nreduce);      \
        give_work(&s, pWrk, nreduce, sizeof(T));                                              \
        OSHM_PROFILED_LOCAL(OSHM_PROF_reduce, "shmem_" #N "_" #OP "_to_all",                 \
                            (size_t)nreduce * sizeof(T),                                      \
            oshm_reduce(&s, dest, source, (size_t)nreduce, sizeof(T), combine_##N##_##OP));   \
    }
#define DEFINE_BITWISE_TO_ALL(T, N) DEFINE_TO_ALL(T, N, and) DEFINE_TO_ALL(T, N, or) DEFINE_TO_ALL(T, N, xor)
#define DEFINE_MINMAX_TO_ALL(T, N) DEFINE_TO_ALL(T, N, min) DEFINE_TO_ALL(T, N, max)
#define DEFINE_ARITH_TO_ALL(T, N) DEFINE_TO_ALL(T, N, sum) DEFINE_TO_ALL(T, N, prod)
SHMEM_TO_ALL_BITWISE_TABLE(DEFINE_BITWISE_TO_ALL)
SHMEM_TO_ALL_MINMAX_TABLE(DEFINE_MINMAX_TO_ALL)
SHMEM_TO_ALL_ARITH_TABLE(DEFINE_ARITH_TO_ALL)

/* ---- scans (OpenSHMEM 1.6) over the SUM types, with the sum combine ---- */
#define DEFINE_SCAN(T, N, KIND, EXCLUSIVE)                                                    \
    OSHM_FN(int, shmem_##N##_sum_##KIND, (shmem_team_t team, T *dest, const T *source,        \
                                          size_t nelems))                                     \
    {                                                                                         \
        OSHM_PROFILED_LOCAL(OSHM_PROF_scan, "shmem_" #N "_sum_" #KIND, nelems * sizeof(T),    \
            oshm_scan(team_set(team, "shmem_" #N "_sum_" #KIND), dest, source, nelems,       \
                      sizeof(T),                                                              \
                      combine_##N##_sum, EXCLUSIVE));                                         \
        return 0;                                                                             \
    }
#define DEFINE_SCANS(T, N) DEFINE_SCAN(T, N, inscan, false) DEFINE_SCAN(T, N, exscan, true)
SHMEM_SCAN_TABLE(DEFINE_SCANS)
