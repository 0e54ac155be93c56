/* 9.9.x Reductions: and, or, xor, min, max, sum, prod on every type of their
 * tables, on SHMEM_TEAM_WORLD and a strided team, in place and not; the
 * deprecated active-set *_to_all forms. */
#include <complex.h>

#include "vv.h"

#define NR 7

static shmem_team_t odds_or_world;

/* Values small enough that a product over 5 PEs fits every type. */
#define VAL(pe, i) ((pe) % 3 + (i) % 2 + 1)

#define CHECK_REDUCE(T, N, OP, EXPECT_INIT, EXPECT_STEP)                                      \
    do {                                                                                      \
        for (int i = 0; i < NR; i++) {                                                        \
            T want = (T)(EXPECT_INIT);                                                        \
            for (int p = 1; p < n; p++) {                                                     \
                T v = (T)VAL(world_of(team, p), i);                                           \
                want = EXPECT_STEP;                                                           \
            }                                                                                 \
            VV_CHECK(dst[i] == want, #N " " #OP " [%d]", i);                                  \
        }                                                                                     \
    } while (0)

static int world_of(shmem_team_t team, int p)
{
    return shmem_team_translate_pe(team, p, SHMEM_TEAM_WORLD);
}

#define RUN_OP(T, N, OP, STEP)                                                                \
    do {                                                                                      \
        for (int i = 0; i < NR; i++)                                                          \
            src[i] = (T)VAL(wme, i);                                                          \
        shmem_##N##_##OP##_reduce(team, dst, src, NR);                                        \
        CHECK_REDUCE(T, N, OP, VAL(world_of(team, 0), i), STEP);                              \
        /* in place */                                                                        \
        for (int i = 0; i < NR; i++)                                                          \
            dst[i] = (T)VAL(wme, i);                                                          \
        shmem_##N##_##OP##_reduce(team, dst, dst, NR);                                        \
        CHECK_REDUCE(T, N, OP, VAL(world_of(team, 0), i), STEP);                              \
    } while (0)

#define DEFINE_REDUCE_TEST(T, N, KIND)                                                        \
    static void test_##KIND##_##N(void)                                                       \
    {                                                                                         \
        shmem_team_t teams[2] = {SHMEM_TEAM_WORLD, odds_or_world};                            \
        /* Allocation is collective over all PEs: outside the per-team part. */              \
        T *src = shmem_malloc(sizeof(T) * NR), *dst = shmem_malloc(sizeof(T) * NR);           \
        for (int t = 0; t < 2; t++) {                                                         \
            shmem_team_t team = teams[t];                                                     \
            if (team == SHMEM_TEAM_INVALID)                                                   \
                continue;                                                                     \
            int n = shmem_team_n_pes(team), wme = VV_ME;                                      \
            KIND##_OPS(T, N);                                                                 \
        }                                                                                     \
        shmem_barrier_all();                                                                  \
        shmem_free(src);                                                                      \
        shmem_free(dst);                                                                      \
        vv_case_end("9.9", #KIND " reductions", #N);                                          \
    }

#define bitwise_OPS(T, N)                                                                     \
    RUN_OP(T, N, and, (T)(want & v));                                                         \
    RUN_OP(T, N, or, (T)(want | v));                                                          \
    RUN_OP(T, N, xor, (T)(want ^ v))
#define minmax_OPS(T, N)                                                                      \
    RUN_OP(T, N, min, (v < want ? v : want));                                                 \
    RUN_OP(T, N, max, (v > want ? v : want))
#define arith_OPS(T, N)                                                                       \
    RUN_OP(T, N, sum, (T)(want + v));                                                         \
    RUN_OP(T, N, prod, (T)(want * v))

#define DEFINE_BITWISE(T, N) DEFINE_REDUCE_TEST(T, N, bitwise)
#define DEFINE_MINMAX(T, N) DEFINE_REDUCE_TEST(T, N, minmax)
#define DEFINE_ARITH(T, N) DEFINE_REDUCE_TEST(T, N, arith)
SHMEM_REDUCE_BITWISE_TABLE(DEFINE_BITWISE)
SHMEM_REDUCE_MINMAX_TABLE(DEFINE_MINMAX)
SHMEM_REDUCE_ARITH_TABLE(DEFINE_ARITH)
#define CALL_BITWISE(T, N) test_bitwise_##N();
#define CALL_MINMAX(T, N) test_minmax_##N();
#define CALL_ARITH(T, N) test_arith_##N();

/* The deprecated forms and the generic names. */
static long psync[SHMEM_REDUCE_SYNC_SIZE];
static double dwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static long lwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static double dsrc[4], ddst[4];
static long lsrc[4], ldst[4];
static double _Complex csrc[2], cdst[2];
static double _Complex cwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];

static void test_to_all_and_generic(void)
{
    int me = VV_ME, n = VV_NPES;
    for (int i = 0; i < 4; i++) {
        dsrc[i] = me + i;
        lsrc[i] = 1L << (me % 60);
    }
    csrc[0] = me + 1.0 * I;
    csrc[1] = 1.0;
    shmem_barrier_all();
    shmem_double_sum_to_all(ddst, dsrc, 4, 0, 0, n, dwrk, psync);
    VV_CHECK(ddst[3] == n * (n - 1) / 2.0 + 3.0 * n, "double_sum_to_all %f", ddst[3]);
    shmem_double_max_to_all(ddst, dsrc, 4, 0, 0, n, dwrk, psync);
    VV_CHECK(ddst[0] == n - 1, "double_max_to_all");
    shmem_long_or_to_all(ldst, lsrc, 4, 0, 0, n, lwrk, psync);
    long all = 0;
    for (int p = 0; p < n; p++)
        all |= 1L << (p % 60);
    VV_CHECK(ldst[2] == all, "long_or_to_all");
    shmem_complexd_sum_to_all(cdst, csrc, 2, 0, 0, n, cwrk, psync);
    VV_CHECK(creal(cdst[0]) == n * (n - 1) / 2.0 && cimag(cdst[0]) == n, "complexd_sum_to_all");
    if (n > 1) {
        /* the odd PEs only */
        if (me % 2)
            shmem_long_min_to_all(ldst, lsrc, 4, 1, 1, n / 2, lwrk, psync);
        if (me % 2)
            VV_CHECK(ldst[0] == 2, "active set min");
    }
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
        VV_CHECK(psync[i] == SHMEM_SYNC_VALUE, "pSync restored");
    shmem_barrier_all();
    shmem_sum_reduce(SHMEM_TEAM_WORLD, ddst, dsrc, 4);
    VV_CHECK(ddst[1] == n * (n - 1) / 2.0 + n, "generic sum_reduce");
    shmem_max_reduce(SHMEM_TEAM_WORLD, ldst, lsrc, 4);
    VV_CHECK(ldst[0] == 1L << ((n - 1) % 60), "generic max_reduce");
    unsigned int *u = (unsigned int *)shmem_malloc(sizeof(unsigned int) * 2);
    u[0] = u[1] = 1u << me;
    shmem_or_reduce(SHMEM_TEAM_WORLD, u, u, 2);
    VV_CHECK(u[1] == (1u << n) - 1, "generic or_reduce");
    shmem_free(u);
    vv_case_end("9.9", "to_all and generic reductions", "double long complexd");
}

int main(void)
{
    shmem_init();
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
        psync[i] = SHMEM_SYNC_VALUE;
    int n = VV_NPES;
    if (n > 1)
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, n / 2, NULL, 0, &odds_or_world);
    else
        odds_or_world = SHMEM_TEAM_INVALID;
    SHMEM_REDUCE_BITWISE_TABLE(CALL_BITWISE)
    SHMEM_REDUCE_MINMAX_TABLE(CALL_MINMAX)
    SHMEM_REDUCE_ARITH_TABLE(CALL_ARITH)
    test_to_all_and_generic();
    if (odds_or_world != SHMEM_TEAM_INVALID)
        shmem_team_destroy(odds_or_world);
    return vv_finish("9.9 reductions");
}
