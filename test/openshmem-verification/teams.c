/* 9.4 Teams and 9.5 Contexts: predefined teams, strided and 2D splits,
 * translation, team pointers, team sync, contexts on teams (PE numbers are
 * the team's), context fence/quiet, invalid handles. */
#include "vv.h"

static void test_predefined(void)
{
    int me = VV_ME, n = VV_NPES;
    VV_CHECK(shmem_team_my_pe(SHMEM_TEAM_WORLD) == me, "world my_pe");
    VV_CHECK(shmem_team_n_pes(SHMEM_TEAM_WORLD) == n, "world n_pes");
    /* SHARED: the PEs whose memory shmem_ptr reaches (all of them on one
     * node, only this one when SHMEM_TRANSPORT=ucx) */
    static int probe;
    int mapped = 0;
    for (int p = 0; p < n; p++)
        mapped += shmem_ptr(&probe, p) != NULL;
    VV_CHECK(shmem_team_n_pes(SHMEM_TEAM_SHARED) == mapped, "shared n_pes %d, %d mapped",
             shmem_team_n_pes(SHMEM_TEAM_SHARED), mapped);
    VV_CHECK(shmem_team_my_pe(SHMEM_TEAM_INVALID) == -1, "invalid my_pe");
    VV_CHECK(shmem_team_n_pes(SHMEM_TEAM_INVALID) == -1, "invalid n_pes");
    int in_shared = shmem_team_translate_pe(SHMEM_TEAM_WORLD, me, SHMEM_TEAM_SHARED);
    VV_CHECK(in_shared == (mapped == n ? me : shmem_team_my_pe(SHMEM_TEAM_SHARED)), "translate");
    VV_CHECK(shmem_team_translate_pe(SHMEM_TEAM_INVALID, 0, SHMEM_TEAM_WORLD) == -1, "translate invalid");
    shmem_team_config_t cfg;
    VV_CHECK(shmem_team_get_config(SHMEM_TEAM_WORLD, SHMEM_TEAM_NUM_CONTEXTS, &cfg) == 0, "get_config");
    VV_CHECK(shmem_team_get_config(SHMEM_TEAM_INVALID, 0, &cfg) != 0, "get_config invalid");
    static int x;
    x = me;
    shmem_barrier_all();
    int *p = shmem_team_ptr(SHMEM_TEAM_WORLD, &x, n - 1);
    /* NULL for a PE reached over the network (SHMEM_TRANSPORT=ucx) */
    VV_CHECK(p ? *p == n - 1 : shmem_ptr(&x, n - 1) == NULL, "team_ptr");
    VV_CHECK(shmem_team_sync(SHMEM_TEAM_WORLD) == 0, "team_sync");
    vv_case_end("9.4", "predefined teams", "world shared invalid");
}

static void test_split_strided(void)
{
    int me = VV_ME, n = VV_NPES;
    shmem_team_t even, odd;
    int ne = (n + 1) / 2, no = n / 2;
    VV_CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, ne, NULL, 0, &even) == 0, "split even");
    int rc = no ? shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, no, NULL, 0, &odd) : -1;
    if (!no)
        odd = SHMEM_TEAM_INVALID;
    VV_CHECK(!no || rc == 0, "split odd");
    shmem_team_t mine = me % 2 ? odd : even, other = me % 2 ? even : odd;
    VV_CHECK(other == SHMEM_TEAM_INVALID, "non-member gets SHMEM_TEAM_INVALID");
    VV_CHECK(shmem_team_my_pe(mine) == me / 2, "my_pe in split: %d", shmem_team_my_pe(mine));
    VV_CHECK(shmem_team_n_pes(mine) == (me % 2 ? no : ne), "n_pes in split");
    VV_CHECK(shmem_team_translate_pe(mine, 0, SHMEM_TEAM_WORLD) == me % 2, "translate to world");
    VV_CHECK(shmem_team_translate_pe(SHMEM_TEAM_WORLD, me, mine) == me / 2, "translate from world");
    /* A context on the team: PE numbers are the team's. */
    shmem_ctx_t ctx;
    VV_CHECK(shmem_team_create_ctx(mine, 0, &ctx) == 0, "team_create_ctx");
    shmem_team_t back;
    VV_CHECK(shmem_ctx_get_team(ctx, &back) == 0 && back == mine, "ctx_get_team");
    static long slot[64];
    int tn = shmem_team_n_pes(mine), tme = shmem_team_my_pe(mine);
    shmem_ctx_long_p(ctx, &slot[tme], 1000 + me, (tme + 1) % tn);
    shmem_ctx_quiet(ctx);
    shmem_team_sync(mine);
    int from = shmem_team_translate_pe(mine, (tme + tn - 1) % tn, SHMEM_TEAM_WORLD);
    VV_CHECK(slot[(tme + tn - 1) % tn] == 1000 + from, "team ctx put landed on the team's PE");
    /* A split of the split: every second PE of the team. */
    shmem_team_t quarter;
    VV_CHECK(shmem_team_split_strided(mine, 0, 2, (tn + 1) / 2, NULL, 0, &quarter) == 0, "nested split");
    if (tme % 2 == 0) {
        VV_CHECK(shmem_team_my_pe(quarter) == tme / 2, "nested my_pe");
        VV_CHECK(shmem_team_translate_pe(quarter, 0, SHMEM_TEAM_WORLD) == me % 2, "nested translate");
        shmem_team_destroy(quarter);
    } else {
        VV_CHECK(quarter == SHMEM_TEAM_INVALID, "nested non-member");
    }
    shmem_ctx_destroy(ctx);
    shmem_team_destroy(mine);
    shmem_barrier_all();
    /* Bad arguments: an error on every PE, no team. */
    shmem_team_t bad;
    VV_CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, n + 1, NULL, 0, &bad) != 0 &&
                 bad == SHMEM_TEAM_INVALID,
             "oversized split refused");
    vv_case_end("9.4", "team_split_strided", "even odd nested");
}

static void test_split_2d(void)
{
    int me = VV_ME, n = VV_NPES;
    int xr = n > 2 ? 2 : 1;
    shmem_team_t row, col;
    VV_CHECK(shmem_team_split_2d(SHMEM_TEAM_WORLD, xr, NULL, 0, &row, NULL, 0, &col) == 0, "split_2d");
    VV_CHECK(shmem_team_my_pe(row) == me % xr, "row index");
    VV_CHECK(shmem_team_my_pe(col) == me / xr, "column index");
    VV_CHECK(shmem_team_n_pes(col) == (n - me % xr + xr - 1) / xr, "column size %d",
             shmem_team_n_pes(col));
    /* Collectives on both at once. */
    static int sum;
    static int one = 1;
    shmem_int_sum_reduce(col, &sum, &one, 1);
    VV_CHECK(sum == shmem_team_n_pes(col), "sum over column");
    shmem_int_sum_reduce(row, &sum, &one, 1);
    VV_CHECK(sum == shmem_team_n_pes(row), "sum over row");
    shmem_team_destroy(row);
    shmem_team_destroy(col);
    vv_case_end("9.4", "team_split_2d", "rows columns");
}

static void test_contexts(void)
{
    int me = VV_ME, n = VV_NPES, next = (me + 1) % n;
    shmem_ctx_t a, b;
    VV_CHECK(shmem_ctx_create(0, &a) == 0, "ctx_create");
    VV_CHECK(shmem_ctx_create(SHMEM_CTX_SERIALIZED | SHMEM_CTX_PRIVATE | SHMEM_CTX_NOSTORE, &b) == 0,
             "ctx_create with options");
    static int data[2], flag;
    shmem_barrier_all();
    shmem_ctx_int_p(a, &data[0], me, next);
    shmem_ctx_int_p(b, &data[1], me, next);
    shmem_ctx_fence(a);
    shmem_ctx_int_p(a, &flag, 1, next);
    shmem_ctx_quiet(a);
    shmem_ctx_quiet(b);
    shmem_int_wait_until(&flag, SHMEM_CMP_EQ, 1);
    VV_CHECK(data[0] == (me + n - 1) % n, "ctx put ordered by ctx fence");
    shmem_team_t t;
    VV_CHECK(shmem_ctx_get_team(SHMEM_CTX_DEFAULT, &t) == 0 && t == SHMEM_TEAM_WORLD, "default ctx team");
    VV_CHECK(shmem_ctx_get_team(SHMEM_CTX_INVALID, &t) != 0 && t == SHMEM_TEAM_INVALID, "invalid ctx team");
    shmem_ctx_t none;
    VV_CHECK(shmem_team_create_ctx(SHMEM_TEAM_INVALID, 0, &none) != 0 && none == SHMEM_CTX_INVALID,
             "ctx on invalid team");
    shmem_ctx_quiet(SHMEM_CTX_INVALID); /* no-op by the specification */
    shmem_ctx_fence(SHMEM_CTX_INVALID);
    shmem_ctx_destroy(SHMEM_CTX_INVALID);
    shmem_ctx_destroy(a);
    shmem_ctx_destroy(b);
    shmem_barrier_all();
    vv_case_end("9.5", "contexts", "create fence quiet destroy");
}

int main(void)
{
    shmem_init();
    test_predefined();
    test_split_strided();
    test_split_2d();
    test_contexts();
    return vv_finish("9.4-9.5");
}
