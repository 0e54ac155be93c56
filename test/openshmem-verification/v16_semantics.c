/* OpenSHMEM 1.6, "Changes to this Document": the semantic changes to
 * routines 1.5 already had. Repeated and nested init/finalize (the program
 * itself lives twice: it finalizes and initializes again before the other
 * cases), empty test/wait sets, const comparison vectors, strided splits
 * with negative and zero strides, splits of SHMEM_TEAM_INVALID,
 * team_get_config with a zero mask, team_ptr on SHMEM_TEAM_INVALID, fence per
 * context, collectives that may not read a peer's source before the peer
 * entered, pcontrol levels above 2. */
#include <stdint.h>
#include <time.h>

#include "vv.h"

/* The PE that enters late, so that a collective that reads its source too
 * early reads the previous value. */
static void late_entry(int me, int late)
{
    if (me == late) {
        struct timespec ts = {0, 30 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
}

/* ---- init and finalize (1.6: may be called several times) ---- */

static long life_mark; /* global data: symmetric in every life */

/* Called before the first case: a first life, a full finalize, then the
 * life the cases run in. Returns how the first life went (failures). */
static int first_life(int *pe_before, int *npes_before)
{
    int failures = 0;
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    *pe_before = me;
    *npes_before = n;
    long *h = shmem_malloc(sizeof(long) * 4);
    if (!h)
        failures++;
    life_mark = -1;
    shmem_barrier_all();
    shmem_long_p(&life_mark, 100 + me, (me + 1) % n);
    if (h)
        shmem_long_p(&h[0], 200 + me, (me + 1) % n);
    shmem_barrier_all();
    int left = (me + n - 1) % n;
    if (life_mark != 100 + left || (h && h[0] != 200 + left)) {
        fprintf(stderr, "PE %d: first life: got %ld %ld, want %d %d\n", me, life_mark,
                h ? h[0] : 0L, 100 + left, 200 + left);
        failures++;
    }
    /* Left for the last finalize to destroy: a team and a context on it. */
    shmem_team_t t;
    shmem_ctx_t ctx;
    if (shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, n, NULL, 0, &t) != 0 ||
        shmem_team_create_ctx(t, 0, &ctx) != 0)
        failures++;
    shmem_finalize();
    return failures;
}

static void test_relife(int failures, int pe_before, int npes_before)
{
    int me = VV_ME, n = VV_NPES;
    VV_CHECK(failures == 0, "the first life had %d failures", failures);
    VV_CHECK(me == pe_before && n == npes_before, "PE %d of %d, was %d of %d", me, n, pe_before,
             npes_before);
    /* Symmetric data, heap, teams, contexts and collectives work again. */
    life_mark = -1;
    long *h = shmem_malloc(sizeof(long) * 8);
    VV_CHECK(h != NULL, "shmem_malloc in the second life");
    shmem_barrier_all();
    shmem_long_p(&life_mark, 300 + me, (me + 1) % n);
    shmem_barrier_all();
    VV_CHECK(life_mark == 300 + (me + n - 1) % n, "global data: %ld", life_mark);
    shmem_team_t t;
    VV_CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, n, NULL, 0, &t) == 0, "split");
    shmem_ctx_t ctx;
    VV_CHECK(shmem_team_create_ctx(t, 0, &ctx) == 0, "ctx");
    if (h) {
        h[0] = -1;
        shmem_barrier_all();
        shmem_ctx_long_p(ctx, &h[0], 400 + me, (me + 1) % n);
        shmem_ctx_quiet(ctx);
        shmem_barrier_all();
        VV_CHECK(h[0] == 400 + (me + n - 1) % n, "heap through a context: %ld", h[0]);
        h[1] = me;
        shmem_long_sum_reduce(t, &h[2], &h[1], 1);
        VV_CHECK(h[2] == (long)n * (n - 1) / 2, "reduction: %ld", h[2]);
    }
    shmem_ctx_destroy(ctx);
    shmem_team_destroy(t);
    shmem_free(h);
    vv_case_end("1.6", "finalize, then init again", "second life");
}

static void test_nested(void)
{
    int me = VV_ME, n = VV_NPES;
    int provided = -1, level;
    shmem_query_thread(&level);
    /* Nested inits: each returns at once, the thread level unchanged. */
    shmem_init();
    VV_CHECK(shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided) == 0, "nested init_thread");
    VV_CHECK(provided == level, "nested init_thread provided %d, level %d", provided, level);
    static long got[2];
    long *h = shmem_malloc(sizeof(long));
    VV_CHECK(h != NULL, "malloc");
    shmem_team_t t;
    VV_CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, n, NULL, 0, &t) == 0, "split");
    for (int round = 0; round < 2; round++) {
        got[round] = -1;
        if (h)
            *h = -1;
        shmem_barrier_all();
        /* A finalize that is not the last acts as shmem_barrier_all: the
         * non-blocking puts before it are complete and visible after it. */
        late_entry(me, n - 1);
        long v1 = 500 + me + round, v2 = 600 + me; /* live until the finalize's quiet */
        shmem_long_put_nbi(&got[round], &v1, 1, (me + 1) % n);
        if (h)
            shmem_long_put_nbi(h, &v2, 1, (me + 1) % n);
        shmem_finalize();
        int left = (me + n - 1) % n;
        VV_CHECK(got[round] == 500 + left + round, "after nested finalize %d: %ld", round,
                 got[round]);
        VV_CHECK(!h || *h == 600 + left, "heap after nested finalize %d: %ld", round, h ? *h : 0);
    }
    /* Nothing was released: the team and the allocation still work. */
    VV_CHECK(shmem_team_n_pes(t) == n, "team after nested finalizes");
    VV_CHECK(shmem_team_sync(t) == 0, "team sync after nested finalizes");
    shmem_team_destroy(t);
    shmem_free(h);
    vv_case_end("1.6", "nested init/finalize", "init init_thread");
}

/* ---- point-to-point: empty test and wait sets ---- */

static void test_empty_sets(void)
{
    static long ivars[4];
    static const int none[4] = {1, 1, 1, 1};
    static const int some[4] = {0, 1, 0, 1};
    static const long cmp[4] = {1, 2, 3, 4}; /* const: 1.6's prototypes */
    for (int i = 0; i < 4; i++)
        ivars[i] = 0; /* no element satisfies EQ to cmp */
    VV_CHECK(shmem_long_test_all(ivars, 4, none, SHMEM_CMP_EQ, 7) == 1, "test_all, all excluded");
    VV_CHECK(shmem_long_test_all(ivars, 0, NULL, SHMEM_CMP_EQ, 7) == 1, "test_all, nelems 0");
    VV_CHECK(shmem_long_test_all_vector(ivars, 4, none, SHMEM_CMP_EQ, cmp) == 1,
             "test_all_vector, all excluded");
    VV_CHECK(shmem_long_test_all_vector(ivars, 0, NULL, SHMEM_CMP_EQ, cmp) == 1,
             "test_all_vector, nelems 0");
    /* Not empty: still a real test. */
    VV_CHECK(shmem_long_test_all(ivars, 4, some, SHMEM_CMP_EQ, 7) == 0, "test_all, not met");
    VV_CHECK(shmem_long_test_all_vector(ivars, 4, some, SHMEM_CMP_EQ, cmp) == 0,
             "test_all_vector, not met");
    ivars[0] = 1;
    ivars[2] = 3;
    VV_CHECK(shmem_long_test_all_vector(ivars, 4, some, SHMEM_CMP_EQ, cmp) == 1,
             "test_all_vector, included ones met");
    ivars[0] = ivars[2] = 0;
    /* The others of the family on an empty set. */
    VV_CHECK(shmem_long_test_any(ivars, 4, none, SHMEM_CMP_EQ, 7) == SIZE_MAX, "test_any");
    VV_CHECK(shmem_long_test_any_vector(ivars, 4, none, SHMEM_CMP_EQ, cmp) == SIZE_MAX,
             "test_any_vector");
    size_t idx[4];
    VV_CHECK(shmem_long_test_some(ivars, 4, idx, none, SHMEM_CMP_EQ, 7) == 0, "test_some");
    VV_CHECK(shmem_long_test_some_vector(ivars, 4, idx, none, SHMEM_CMP_EQ, cmp) == 0,
             "test_some_vector");
    /* Waits on an empty set return at once (a hang fails by timeout). */
    shmem_long_wait_until_all(ivars, 4, none, SHMEM_CMP_EQ, 7);
    shmem_long_wait_until_all(ivars, 0, NULL, SHMEM_CMP_EQ, 7);
    shmem_long_wait_until_all_vector(ivars, 4, none, SHMEM_CMP_EQ, cmp);
    VV_CHECK(shmem_long_wait_until_any(ivars, 4, none, SHMEM_CMP_EQ, 7) == SIZE_MAX,
             "wait_until_any");
    VV_CHECK(shmem_long_wait_until_any_vector(ivars, 4, none, SHMEM_CMP_EQ, cmp) == SIZE_MAX,
             "wait_until_any_vector");
    VV_CHECK(shmem_long_wait_until_some(ivars, 4, idx, none, SHMEM_CMP_EQ, 7) == 0,
             "wait_until_some");
    VV_CHECK(shmem_long_wait_until_some_vector(ivars, 4, idx, none, SHMEM_CMP_EQ, cmp) == 0,
             "wait_until_some_vector");
    vv_case_end("1.6", "empty test/wait sets", "long");
}

/* The vector forms take const comparison values: a const array passes
 * without a cast, through a remote update too. */
static void test_const_vector(void)
{
    int me = VV_ME, n = VV_NPES;
    static int flags[2];
    static const int want[2] = {11, 22};
    flags[0] = flags[1] = 0;
    shmem_barrier_all();
    int right = (me + 1) % n;
    shmem_int_atomic_set(&flags[0], 11, right);
    shmem_int_atomic_set(&flags[1], 22, right);
    shmem_int_wait_until_all_vector(flags, 2, NULL, SHMEM_CMP_EQ, want);
    VV_CHECK(shmem_int_test_all_vector(flags, 2, NULL, SHMEM_CMP_EQ, want) == 1, "test_all_vector");
    size_t idx[2];
    VV_CHECK(shmem_int_wait_until_some_vector(flags, 2, idx, NULL, SHMEM_CMP_EQ, want) == 2,
             "wait_until_some_vector");
    VV_CHECK(shmem_int_wait_until_any_vector(flags, 2, NULL, SHMEM_CMP_EQ, want) < 2,
             "wait_until_any_vector");
    VV_CHECK(shmem_int_test_some_vector(flags, 2, idx, NULL, SHMEM_CMP_EQ, want) == 2,
             "test_some_vector");
    VV_CHECK(shmem_int_test_any_vector(flags, 2, NULL, SHMEM_CMP_EQ, want) < 2, "test_any_vector");
    vv_case_end("1.6", "const cmp_values", "int");
}

/* ---- teams ---- */

/* Checks TEAM = world PEs first + i * stride, i < size (world a parent). */
static void check_team(shmem_team_t team, int first, int stride, int size)
{
    int me = VV_ME;
    int index = -1;
    for (int i = 0; i < size; i++)
        if (first + i * stride == me)
            index = i;
    if (index < 0) {
        VV_CHECK(team == SHMEM_TEAM_INVALID, "PE outside the team has a handle");
        return;
    }
    VV_CHECK(team != SHMEM_TEAM_INVALID, "member without a team");
    if (team == SHMEM_TEAM_INVALID)
        return;
    VV_CHECK(shmem_team_my_pe(team) == index, "my_pe %d, want %d", shmem_team_my_pe(team), index);
    VV_CHECK(shmem_team_n_pes(team) == size, "n_pes %d, want %d", shmem_team_n_pes(team), size);
    for (int i = 0; i < size; i++) {
        VV_CHECK(shmem_team_translate_pe(team, i, SHMEM_TEAM_WORLD) == first + i * stride,
                 "team PE %d is world %d", i, shmem_team_translate_pe(team, i, SHMEM_TEAM_WORLD));
        VV_CHECK(shmem_team_translate_pe(SHMEM_TEAM_WORLD, first + i * stride, team) == i,
                 "world %d is team PE %d", first + i * stride, i);
    }
    /* Collectives and a context use the team's numbering. */
    static long src[2], dst[64], bsrc, bdst;
    src[0] = index;
    src[1] = me;
    shmem_long_fcollect(team, dst, src, 2);
    for (int i = 0; i < size; i++)
        VV_CHECK(dst[2 * i] == i && dst[2 * i + 1] == first + i * stride,
                 "fcollect block %d: %ld %ld", i, dst[2 * i], dst[2 * i + 1]);
    bsrc = 700 + me;
    bdst = -1;
    shmem_long_broadcast(team, &bdst, &bsrc, 1, size - 1);
    VV_CHECK(bdst == 700 + first + (size - 1) * stride, "broadcast from team PE %d: %ld",
             size - 1, bdst);
    shmem_long_sum_reduce(team, &dst[0], &src[0], 1);
    VV_CHECK(dst[0] == (long)size * (size - 1) / 2, "sum of team PEs %ld", dst[0]);
    shmem_ctx_t ctx;
    VV_CHECK(shmem_team_create_ctx(team, 0, &ctx) == 0, "team_create_ctx");
    static long box;
    box = -1;
    shmem_team_sync(team);
    shmem_ctx_long_p(ctx, &box, me, (index + 1) % size);
    shmem_ctx_quiet(ctx);
    shmem_team_sync(team);
    VV_CHECK(box == first + ((index + size - 1) % size) * stride, "ctx put from team PE %d: %ld",
             (index + size - 1) % size, box);
    shmem_ctx_destroy(ctx);
    /* team_ptr numbers PEs in the team too. */
    static int probe;
    probe = me;
    shmem_team_sync(team);
    int *p = shmem_team_ptr(team, &probe, 0);
    VV_CHECK(p ? *p == first : shmem_ptr(&probe, first) == NULL, "team_ptr to team PE 0");
    shmem_team_sync(team);
}

static void test_split_negative(void)
{
    int n = VV_NPES;
    shmem_team_t rev = SHMEM_TEAM_WORLD;
    /* Every PE, in reverse order. */
    VV_CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, n - 1, -1, n, NULL, 0, &rev) == 0,
             "reverse split");
    check_team(rev, n - 1, -1, n);
    /* Every other PE from the last, backwards; then a split of that. */
    int half = (n + 1) / 2;
    shmem_team_t back2 = SHMEM_TEAM_WORLD;
    VV_CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, n - 1, -2, half, NULL, 0, &back2) == 0,
             "stride -2 split");
    check_team(back2, n - 1, -2, half);
    if (rev != SHMEM_TEAM_INVALID) {
        /* Reverse of the reverse: team PEs n-1 .. 0 of rev are world 0 .. n-1. */
        shmem_team_t fwd = SHMEM_TEAM_INVALID;
        VV_CHECK(shmem_team_split_strided(rev, n - 1, -1, n, NULL, 0, &fwd) == 0, "split of rev");
        check_team(fwd, 0, 1, n);
        shmem_team_destroy(fwd);
    }
    shmem_team_destroy(back2);
    shmem_team_destroy(rev);
    vv_case_end("1.6", "split_strided, negative stride", "-1 -2 nested");
}

static void test_split_zero(void)
{
    int n = VV_NPES;
    for (int k = 0; k < n; k += (n > 2 ? n - 1 : 1)) {
        shmem_team_t one = SHMEM_TEAM_WORLD;
        VV_CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, k, 0, 1, NULL, 0, &one) == 0,
                 "stride 0 split at %d", k);
        check_team(one, k, 0, 1);
        shmem_team_destroy(one);
        shmem_barrier_all();
    }
    /* A triplet outside the parent: nonzero on every PE, no team. */
    shmem_team_t bad = SHMEM_TEAM_WORLD;
    VV_CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, -1, 2, NULL, 0, &bad) != 0,
             "start 0, stride -1, size 2");
    VV_CHECK(bad == SHMEM_TEAM_INVALID, "bad split's handle");
    vv_case_end("1.6", "split_strided, stride 0", "size 1");
}

static void test_invalid_parent(void)
{
    shmem_team_t t = SHMEM_TEAM_WORLD, x = SHMEM_TEAM_WORLD, y = SHMEM_TEAM_WORLD;
    shmem_team_config_t cfg = {.num_contexts = 1};
    VV_CHECK(shmem_team_split_strided(SHMEM_TEAM_INVALID, 0, 1, 1, NULL, 0, &t) != 0,
             "split_strided of SHMEM_TEAM_INVALID");
    VV_CHECK(t == SHMEM_TEAM_INVALID, "split_strided's new team");
    VV_CHECK(shmem_team_split_2d(SHMEM_TEAM_INVALID, 1, &cfg, 0, &x, &cfg, 0, &y) != 0,
             "split_2d of SHMEM_TEAM_INVALID");
    VV_CHECK(x == SHMEM_TEAM_INVALID && y == SHMEM_TEAM_INVALID, "split_2d's new teams");
    /* team_ptr on SHMEM_TEAM_INVALID: a null pointer. */
    static int probe;
    VV_CHECK(shmem_team_ptr(SHMEM_TEAM_INVALID, &probe, 0) == NULL, "team_ptr(INVALID)");
    vv_case_end("1.6", "SHMEM_TEAM_INVALID parent", "split_strided split_2d team_ptr");
}

static void test_get_config(void)
{
    int n = VV_NPES;
    /* A zero mask asks for nothing: CONFIG may be NULL. */
    VV_CHECK(shmem_team_get_config(SHMEM_TEAM_WORLD, 0, NULL) == 0, "zero mask, NULL config");
    VV_CHECK(shmem_team_get_config(SHMEM_TEAM_INVALID, 0, NULL) != 0, "INVALID, zero mask");
    shmem_team_config_t cfg = {.num_contexts = 3}, out = {.num_contexts = -5};
    shmem_team_t t;
    VV_CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, n, &cfg, SHMEM_TEAM_NUM_CONTEXTS,
                                      &t) == 0, "split with config");
    VV_CHECK(shmem_team_get_config(t, 0, &out) == 0 && out.num_contexts == -5,
             "zero mask leaves CONFIG alone: %d", out.num_contexts);
    VV_CHECK(shmem_team_get_config(t, SHMEM_TEAM_NUM_CONTEXTS, &out) == 0, "get_config");
    /* The current value, after contexts were made and destroyed. */
    shmem_ctx_t ctx[3];
    for (int i = 0; i < 3; i++)
        VV_CHECK(shmem_team_create_ctx(t, 0, &ctx[i]) == 0, "ctx %d", i);
    for (int i = 0; i < 3; i++)
        shmem_ctx_destroy(ctx[i]);
    VV_CHECK(shmem_team_get_config(t, SHMEM_TEAM_NUM_CONTEXTS, &out) == 0 &&
                 out.num_contexts == 3,
             "num_contexts %d, want 3", out.num_contexts);
    shmem_team_destroy(t);
    vv_case_end("1.6", "team_get_config", "mask 0, NULL config");
}

/* ---- ordering: fence orders per context ---- */

static void test_fence_ctx(void)
{
    int me = VV_ME, n = VV_NPES;
    enum { ROUNDS = 200 };
    static long data[ROUNDS], flag[ROUNDS], out[ROUNDS]; /* out: put_nbi's sources */
    shmem_ctx_t ctx;
    VV_CHECK(shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx) == 0, "ctx_create");
    for (int i = 0; i < ROUNDS; i++)
        data[i] = flag[i] = 0;
    shmem_barrier_all();
    int right = (me + 1) % n, left = (me + n - 1) % n;
    /* Data then flag, a fence on the same context between: the flag never
     * arrives before its data. */
    for (int i = 0; i < ROUNDS; i++) {
        out[i] = 1000 * me + i;
        shmem_ctx_long_put_nbi(ctx, &data[i], &out[i], 1, right);
        shmem_ctx_fence(ctx);
        shmem_ctx_long_atomic_set(ctx, &flag[i], 1, right);
    }
    int bad = 0;
    for (int i = 0; i < ROUNDS; i++) {
        shmem_long_wait_until(&flag[i], SHMEM_CMP_EQ, 1);
        bad += data[i] != 1000 * left + i;
    }
    VV_CHECK(bad == 0, "%d flags before their data", bad);
    shmem_ctx_quiet(ctx);
    shmem_ctx_destroy(ctx);
    vv_case_end("1.6", "fence orders a context", "ctx put_nbi/atomic_set");
}

/* ---- collectives: a PE's source is ready when it enters, not earlier ---- */

static void test_source_on_entry(void)
{
    int me = VV_ME, n = VV_NPES;
    static long src[64], dst[64 * 64];
    shmem_team_t w = SHMEM_TEAM_WORLD;
    for (int round = 0; round < 2; round++) {
        int late = round ? 0 : n - 1;
        long base = 1000 * (round + 1);
        /* Stale values first; each PE writes its real source only just
         * before it enters, without a barrier. */
        for (int i = 0; i < 64; i++)
            src[i] = -1;
        shmem_barrier_all();
        late_entry(me, late);
        for (int i = 0; i < n; i++)
            src[i] = base + 10 * me + i;
        shmem_long_alltoall(w, dst, src, 1);
        for (int j = 0; j < n; j++)
            VV_CHECK(dst[j] == base + 10 * j + me, "alltoall from %d: %ld", j, dst[j]);

        late_entry(me, late);
        src[0] = base + me;
        shmem_long_fcollect(w, dst, src, 1);
        for (int j = 0; j < n; j++)
            VV_CHECK(dst[j] == base + j, "fcollect from %d: %ld", j, dst[j]);

        late_entry(me, late);
        src[0] = base + 2 * me;
        shmem_long_collect(w, dst, src, 1);
        for (int j = 0; j < n; j++)
            VV_CHECK(dst[j] == base + 2 * j, "collect from %d: %ld", j, dst[j]);

        late_entry(me, late);
        src[0] = base + me;
        src[1] = me;
        shmem_long_max_reduce(w, dst, src, 2);
        VV_CHECK(dst[0] == base + n - 1 && dst[1] == n - 1, "max_reduce: %ld %ld", dst[0], dst[1]);
        late_entry(me, late);
        src[0] = base + me;
        shmem_long_sum_reduce(w, dst, src, 1);
        VV_CHECK(dst[0] == base * n + (long)n * (n - 1) / 2, "sum_reduce: %ld", dst[0]);

        late_entry(me, late);
        src[0] = base + 7 * me;
        dst[0] = -1;
        shmem_long_broadcast(w, dst, src, 1, late);
        VV_CHECK(dst[0] == base + 7 * late, "broadcast from %d: %ld", late, dst[0]);
        shmem_barrier_all();
    }
    vv_case_end("1.6", "source read only after entry", "alltoall collect reduce bcast");
}

static void test_pcontrol(void)
{
    /* Levels 0-2 are the library's; above 2 they are a profiler's, with
     * arguments of its own: without one, nothing happens. */
    shmem_pcontrol(0);
    shmem_pcontrol(1);
    shmem_pcontrol(2);
    shmem_pcontrol(3, "profiler argument", 42);
    shmem_pcontrol(17, (void *)0);
    static long x;
    x = VV_ME;
    shmem_barrier_all();
    VV_CHECK(shmem_long_g(&x, (VV_ME + 1) % VV_NPES) == (VV_ME + 1) % VV_NPES,
             "library still works");
    vv_case_end("1.6", "pcontrol levels above 2", "3 17");
}

int main(void)
{
    int pe_before, npes_before;
    int first = first_life(&pe_before, &npes_before);
    int provided;
    if (shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided) != 0) {
        fprintf(stderr, "shmem_init_thread after the last finalize failed\n");
        return 1;
    }
    test_relife(first, pe_before, npes_before);
    test_nested();
    test_empty_sets();
    test_const_vector();
    test_split_negative();
    test_split_zero();
    test_invalid_parent();
    test_get_config();
    test_fence_ctx();
    test_source_on_entry();
    test_pcontrol();
    return vv_finish("v16_semantics");
}
