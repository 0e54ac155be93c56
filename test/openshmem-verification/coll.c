/* 9.9 Collectives, data movement: broadcast, collect, fcollect, alltoall,
 * alltoalls for every RMA type on SHMEM_TEAM_WORLD and on a strided team,
 * the mem forms, and the deprecated active-set forms. */
#include "vv.h"

#define NE 5

static shmem_team_t evens; /* world PEs 0, 2, 4, ... */

#define TEST_COLL(T, N)                                                                       \
    static void test_##N##_on(shmem_team_t team, const char *name, T *src, T *dst)            \
    {                                                                                         \
        if (team == SHMEM_TEAM_INVALID)                                                       \
            return;                                                                           \
        int me = shmem_team_my_pe(team), n = shmem_team_n_pes(team);                          \
        for (int i = 0; i < NE * n * 2; i++) {                                                \
            src[i] = (T)(me * 10 + i % 10);                                                   \
            dst[i] = (T)0;                                                                    \
        }                                                                                     \
        int root = n - 1;                                                                     \
        shmem_##N##_broadcast(team, dst, src, NE, root);                                      \
        for (int i = 0; i < NE; i++)                                                          \
            VV_CHECK(dst[i] == (T)(root * 10 + i), "%s broadcast [%d]", name, i);             \
        shmem_##N##_fcollect(team, dst, src, NE);                                             \
        for (int p = 0; p < n; p++)                                                           \
            for (int i = 0; i < NE; i++)                                                      \
                VV_CHECK(dst[p * NE + i] == (T)(p * 10 + i), "%s fcollect", name);            \
        /* collect: PE p contributes p % 3 + 1 elements */                                  \
        shmem_##N##_collect(team, dst, src, (size_t)(me % 3 + 1));                            \
        for (int p = 0, at = 0; p < n; at += p % 3 + 1, p++)                                  \
            for (int i = 0; i <= p % 3; i++)                                                  \
                VV_CHECK(dst[at + i] == (T)(p * 10 + i), "%s collect pe %d", name, p);        \
        for (int j = 0; j < n; j++)                                                           \
            for (int i = 0; i < NE; i++)                                                      \
                src[j * NE + i] = (T)(me * 10 + j);                                           \
        shmem_##N##_alltoall(team, dst, src, NE);                                             \
        for (int p = 0; p < n; p++)                                                           \
            for (int i = 0; i < NE; i++)                                                      \
                VV_CHECK(dst[p * NE + i] == (T)(p * 10 + me), "%s alltoall", name);           \
        for (int i = 0; i < NE * n * 2; i++)                                                  \
            dst[i] = (T)0;                                                                    \
        /* alltoalls: destination stride 2, source stride 1 */                             \
        shmem_##N##_alltoalls(team, dst, src, 2, 1, NE);                                      \
        for (int p = 0; p < n; p++)                                                           \
            for (int i = 0; i < NE; i++)                                                      \
                VV_CHECK(dst[2 * (p * NE + i)] == (T)(p * 10 + me) &&                         \
                             dst[2 * (p * NE + i) + 1] == (T)0,                               \
                         "%s alltoalls", name);                                               \
        shmem_team_sync(team);                                                                \
    }                                                                                         \
    static void test_##N(void)                                                                \
    {                                                                                         \
        /* Allocation is collective over all PEs, so it is not done per team. */             \
        size_t len = sizeof(T) * NE * (size_t)VV_NPES * 2;                                    \
        T *src = shmem_malloc(len), *dst = shmem_malloc(len);                                 \
        test_##N##_on(SHMEM_TEAM_WORLD, "world", src, dst);                                   \
        test_##N##_on(evens, "evens", src, dst);                                              \
        shmem_barrier_all();                                                                  \
        shmem_free(src);                                                                      \
        shmem_free(dst);                                                                      \
        vv_case_end("9.9", "broadcast collect alltoall", #N);                                 \
    }
SHMEM_RMA_TYPE_TABLE(TEST_COLL)
#define CALL(T, N) test_##N();

static void test_mem_and_generic(void)
{
    int me = VV_ME, n = VV_NPES;
    char *src = shmem_malloc(16 * (size_t)n), *dst = shmem_calloc(16 * (size_t)n, 1);
    for (int i = 0; i < 16 * n; i++)
        src[i] = (char)(me + i);
    shmem_broadcastmem(SHMEM_TEAM_WORLD, dst, src, 16, 0);
    VV_CHECK(dst[15] == 15, "broadcastmem");
    shmem_fcollectmem(SHMEM_TEAM_WORLD, dst, src, 16);
    VV_CHECK(dst[16 * (n - 1)] == (char)(n - 1), "fcollectmem");
    shmem_collectmem(SHMEM_TEAM_WORLD, dst, src, 3);
    VV_CHECK(dst[3 * (n - 1)] == (char)(n - 1), "collectmem");
    shmem_alltoallmem(SHMEM_TEAM_WORLD, dst, src, 4);
    VV_CHECK(dst[4 * (n - 1)] == (char)(n - 1 + 4 * me), "alltoallmem");
    shmem_alltoallsmem(SHMEM_TEAM_WORLD, dst, src, 1, 1, 4);
    VV_CHECK(dst[4 * (n - 1) + 1] == (char)(n - 1 + 4 * me + 1), "alltoallsmem");
    long *ls = shmem_malloc(sizeof(long) * (size_t)n), *ld = shmem_calloc((size_t)n, sizeof(long));
    for (int i = 0; i < n; i++)
        ls[i] = me * 100 + i;
    shmem_broadcast(SHMEM_TEAM_WORLD, ld, ls, 1, 0);
    VV_CHECK(ld[0] == 0, "generic broadcast");
    shmem_fcollect(SHMEM_TEAM_WORLD, ld, ls, 1);
    VV_CHECK(ld[n - 1] == (n - 1) * 100, "generic fcollect");
    shmem_alltoall(SHMEM_TEAM_WORLD, ld, ls, 1);
    VV_CHECK(ld[n - 1] == (n - 1) * 100 + me, "generic alltoall");
    shmem_barrier_all();
    shmem_free(src);
    shmem_free(dst);
    shmem_free(ls);
    shmem_free(ld);
    vv_case_end("9.9", "mem forms and generic names", "mem long");
}

/* Deprecated active-set forms: on all PEs and on the even PEs. Two pSync
 * arrays alternate; a pSync array is reused only after every collective
 * that used it has completed on every PE (the specification's rule), which
 * the barrier on a third array between each pair of calls ensures. */
static long psync[SHMEM_COLLECT_SYNC_SIZE];
static long psync2[SHMEM_BCAST_SYNC_SIZE];
static long psync_bar[SHMEM_BARRIER_SYNC_SIZE];
#define PAIR_DONE() shmem_barrier(start, log_stride, size, psync_bar)

static void test_active_set(int start, int log_stride, int size)
{
    int me = VV_ME;
    int stride = 1 << log_stride;
    int in = me >= start && (me - start) % stride == 0 && (me - start) / stride < size;
    int idx = (me - start) / stride;
    int32_t *s32 = shmem_malloc(sizeof(int32_t) * 4 * (size_t)size);
    int32_t *d32 = shmem_calloc(4 * (size_t)size, sizeof(int32_t));
    int64_t *s64 = shmem_malloc(sizeof(int64_t) * 4 * (size_t)size);
    int64_t *d64 = shmem_calloc(4 * (size_t)size, sizeof(int64_t));
    for (int i = 0; i < 4 * size; i++) {
        s32[i] = idx * 10 + i;
        s64[i] = (int64_t)idx * 1000000000000LL + i;
    }
    if (in) {
        shmem_broadcast32(d32, s32, 4, 0, start, log_stride, size, psync);
        if (idx != 0)
            VV_CHECK(d32[3] == 3, "broadcast32");
        else
            VV_CHECK(d32[3] == 0, "broadcast32 must leave the root's dest alone");
        shmem_broadcast64(d64, s64, 4, size - 1, start, log_stride, size, psync2);
        if (idx != size - 1)
            VV_CHECK(d64[2] == (int64_t)(size - 1) * 1000000000000LL + 2, "broadcast64");
        PAIR_DONE();
        shmem_fcollect32(d32, s32, 2, start, log_stride, size, psync);
        VV_CHECK(d32[2 * (size - 1) + 1] == (size - 1) * 10 + 1, "fcollect32");
        shmem_collect64(d64, s64, (size_t)(idx % 2 + 1), start, log_stride, size, psync2);
        VV_CHECK(d64[0] == 0, "collect64");
        PAIR_DONE();
        shmem_collect32(d32, s32, 1, start, log_stride, size, psync);
        VV_CHECK(d32[size - 1] == (size - 1) * 10, "collect32");
        shmem_fcollect64(d64, s64, 1, start, log_stride, size, psync2);
        VV_CHECK(d64[size - 1] == (int64_t)(size - 1) * 1000000000000LL, "fcollect64");
        PAIR_DONE();
        shmem_alltoall32(d32, s32, 1, start, log_stride, size, psync);
        VV_CHECK(d32[size - 1] == (size - 1) * 10 + idx, "alltoall32");
        shmem_alltoall64(d64, s64, 1, start, log_stride, size, psync2);
        VV_CHECK(d64[0] == idx, "alltoall64");
        PAIR_DONE();
        shmem_alltoalls32(d32, s32, 1, 1, 1, start, log_stride, size, psync);
        VV_CHECK(d32[size - 1] == (size - 1) * 10 + idx, "alltoalls32");
        shmem_alltoalls64(d64, s64, 1, 1, 1, start, log_stride, size, psync2);
        VV_CHECK(d64[0] == idx, "alltoalls64");
        PAIR_DONE();
        shmem_barrier(start, log_stride, size, psync);
        shmem_sync(start, log_stride, size, psync2);
        for (int i = 0; i < SHMEM_SYNC_SIZE; i++)
            VV_CHECK(psync[i] == SHMEM_SYNC_VALUE && psync2[i] == SHMEM_SYNC_VALUE,
                     "pSync not restored at %d", i);
    }
    shmem_barrier_all();
    shmem_free(s32);
    shmem_free(d32);
    shmem_free(s64);
    shmem_free(d64);
}

int main(void)
{
    shmem_init();
    for (int i = 0; i < SHMEM_SYNC_SIZE; i++)
        psync[i] = psync2[i] = SHMEM_SYNC_VALUE;
    for (int i = 0; i < SHMEM_BARRIER_SYNC_SIZE; i++)
        psync_bar[i] = SHMEM_SYNC_VALUE;
    int n = VV_NPES;
    shmem_barrier_all();
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (n + 1) / 2, NULL, 0, &evens);
    SHMEM_RMA_TYPE_TABLE(CALL)
    test_mem_and_generic();
    test_active_set(0, 0, n);
    test_active_set(0, 1, (n + 1) / 2);
    if (n > 2)
        test_active_set(1, 0, n - 1);
    vv_case_end("9.9", "active-set collectives", "32 64 barrier sync");
    shmem_team_destroy(evens);
    return vv_finish("9.9");
}
