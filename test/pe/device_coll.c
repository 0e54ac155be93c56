/* Device collectives over a team, from one thread per PE and from a whole
 * block (_block), for every type of their tables: broadcast from each root
 * in turn, fcollect, alltoall and the byte forms, and every reduction,
 * called back to back with no synchronization between the calls, over the
 * world team and over every other PE. Values are checked after each call. */
#include <shmem/device.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define E 3          /* elements per PE */
#define MAXPE 8
#define BUF (MAXPE * E * 16 + 16)
#define THREADS 4

struct coll_args {
    unsigned char *src, *dst; /* BUF bytes each */
    shmem_team_t team;        /* or INVALID on a PE outside it */
    int team_me, team_n, start, stride; /* world PE of team index i: start + i * stride */
};

static unsigned char pattern(int pe, int block, size_t type, size_t byte)
{
    return (unsigned char)(pe * 37 + block * 11 + type * 5 + byte + 1);
}

static int world_of(const struct coll_args *a, int index) { return a->start + index * a->stride; }

/* The caller's local SRC for collective TYPE: block j of BYTES bytes holds
 * pattern(me, j). Every thread of a block fills it the same (only thread 0
 * writes: the others wait at the collective's entry). */
static void fill(const struct coll_args *a, size_t type, size_t bytes, int blocks)
{
    if (shmemd_thread_idx() == 0)
        for (int j = 0; j < blocks; j++)
            for (size_t b = 0; b < bytes; b++)
                a->src[j * bytes + b] = pattern(shmemd_my_pe(), j, type, b);
}

static void check_block(const struct coll_args *a, const char *what, size_t type, size_t off,
                        size_t bytes, int pe, int block)
{
    for (size_t b = 0; b < bytes; b++)
        CHECK(a->dst[off + b] == pattern(pe, block, type, b),
              "%s type %zu: byte %zu of %zu is %u, not PE %d's", what, type, off + b, bytes,
              a->dst[off + b], pe);
}

/* "quick" (the runs over UCX, where every step is a network round trip):
 * every operation and form, but one type of each size and table. */
static bool quick;

#define BLOCK_FORM(NAME, BLOCKED) (BLOCKED ? NAME##_block : NAME)

#define DATA_COLL(T, N)                                                                        \
    do {                                                                                       \
        size_t bytes = E * sizeof(T);                                                          \
        if (quick && (sizes_done & sizeof(T))) {                                                   \
            t++;                                                                               \
            continue;                                                                          \
        }                                                                                      \
        sizes_done |= sizeof(T);                                                                 \
        for (int root = 0; root < a->team_n; root++) {                                         \
            fill(a, t, bytes, 1);                                                              \
            int rc = blocked ? shmemd_##N##_broadcast_block(a->team, (T *)a->dst,              \
                                                            (const T *)a->src, E, root)        \
                             : shmemd_##N##_broadcast(a->team, (T *)a->dst, (const T *)a->src, \
                                                      E, root);                                \
            CHECK(rc == 0, "broadcast returns %d", rc);                                        \
            check_block(a, #N "_broadcast", t, 0, bytes, world_of(a, root), 0);                \
        }                                                                                      \
        fill(a, t, bytes, 1);                                                                  \
        if (blocked)                                                                           \
            shmemd_##N##_fcollect_block(a->team, (T *)a->dst, (const T *)a->src, E);           \
        else                                                                                   \
            shmemd_##N##_fcollect(a->team, (T *)a->dst, (const T *)a->src, E);                 \
        for (int j = 0; j < a->team_n; j++)                                                    \
            check_block(a, #N "_fcollect", t, j * bytes, bytes, world_of(a, j), 0);            \
        fill(a, t, bytes, a->team_n);                                                          \
        if (blocked)                                                                           \
            shmemd_##N##_alltoall_block(a->team, (T *)a->dst, (const T *)a->src, E);           \
        else                                                                                   \
            shmemd_##N##_alltoall(a->team, (T *)a->dst, (const T *)a->src, E);                 \
        for (int j = 0; j < a->team_n; j++)                                                    \
            check_block(a, #N "_alltoall", t, j * bytes, bytes, world_of(a, j), a->team_me);   \
        t++;                                                                                   \
    } while (0);

/* Reductions: each PE's value of element i, and the expected result
 * folded over the team's PEs (values small enough to be exact in every
 * type, half included, in any order). */
#define V_and(p, i) (((p) + 1) * 0x15 + (i)) & 0x7f
#define V_or(p, i) V_and(p, i)
#define V_xor(p, i) V_and(p, i)
#define V_min(p, i) (((p) * 5 + (i) * 3) % 11)
#define V_max(p, i) V_min(p, i)
#define V_sum(p, i) ((p) + (i) + 1)
#define V_prod(p, i) (1 + ((p) + (i)) % 2)
#define F_and(x, y) ((x) & (y))
#define F_or(x, y) ((x) | (y))
#define F_xor(x, y) ((x) ^ (y))
#define F_min(x, y) ((y) < (x) ? (y) : (x))
#define F_max(x, y) ((y) > (x) ? (y) : (x))
#define F_sum(x, y) ((x) + (y))
#define F_prod(x, y) ((x) * (y))

#define REDUCE_ONE(T, N, OP, TO_T, FROM_T, ACC)                                                \
    if (!quick || first_of_table) {                                                            \
        T *s = (T *)a->src, *d = (T *)a->dst;                                                  \
        if (shmemd_thread_idx() == 0)                                                          \
            for (int i = 0; i < E; i++)                                                        \
                s[i] = TO_T(V_##OP(a->team_me, i));                                            \
        int rc = blocked ? shmemd_##N##_##OP##_reduce_block(a->team, d, s, E)                  \
                         : shmemd_##N##_##OP##_reduce(a->team, d, s, E);                       \
        CHECK(rc == 0, #N "_" #OP "_reduce returns %d", rc);                                   \
        for (int i = 0; i < E; i++) {                                                          \
            ACC want = (ACC)(V_##OP(0, i));                                                    \
            for (int p = 1; p < a->team_n; p++)                                                \
                want = F_##OP(want, (ACC)(V_##OP(p, i)));                                      \
            CHECK(FROM_T(d[i]) == want, #N "_" #OP "_reduce%s element %d: %g, not %g",         \
                  blocked ? "_block" : "", i, (double)FROM_T(d[i]), (double)want);             \
        }                                                                                      \
    }
#define SAME(x) (x)
#define R_BIT(T, N)                                                                            \
    REDUCE_ONE(T, N, and, (T), SAME, T) REDUCE_ONE(T, N, or, (T), SAME, T)                     \
    REDUCE_ONE(T, N, xor, (T), SAME, T) first_of_table = false;
#define R_MINMAX(T, N)                                                                         \
    REDUCE_ONE(T, N, min, (T), SAME, T) REDUCE_ONE(T, N, max, (T), SAME, T) first_of_table = false;
#define R_ARITH(T, N)                                                                          \
    REDUCE_ONE(T, N, sum, (T), SAME, T) REDUCE_ONE(T, N, prod, (T), SAME, T) first_of_table = false;
#define R_F16(T, N)                                                                            \
    REDUCE_ONE(T, N, min, shmemd_float_to_##N, shmemd_##N##_to_float, float)                   \
    REDUCE_ONE(T, N, max, shmemd_float_to_##N, shmemd_##N##_to_float, float)                   \
    REDUCE_ONE(T, N, sum, shmemd_float_to_##N, shmemd_##N##_to_float, float)                   \
    REDUCE_ONE(T, N, prod, shmemd_float_to_##N, shmemd_##N##_to_float, float)

static void run(const struct coll_args *a, bool blocked)
{
    size_t t = 0, sizes_done = 0;
    bool first_of_table;
    SHMEMD_RMA_TYPE_TABLE(DATA_COLL)
    /* Byte forms. */
    fill(a, 99, 7, a->team_n);
    if (blocked)
        shmemd_broadcastmem_block(a->team, a->dst, a->src, 7, a->team_n - 1);
    else
        shmemd_broadcastmem(a->team, a->dst, a->src, 7, a->team_n - 1);
    check_block(a, "broadcastmem", 99, 0, 7, world_of(a, a->team_n - 1), 0);
    fill(a, 98, 5, a->team_n);
    BLOCK_FORM(shmemd_fcollectmem, blocked)(a->team, a->dst, a->src, 5);
    for (int j = 0; j < a->team_n; j++)
        check_block(a, "fcollectmem", 98, (size_t)j * 5, 5, world_of(a, j), 0);
    fill(a, 97, 6, a->team_n);
    BLOCK_FORM(shmemd_alltoallmem, blocked)(a->team, a->dst, a->src, 6);
    for (int j = 0; j < a->team_n; j++)
        check_block(a, "alltoallmem", 97, (size_t)j * 6, 6, world_of(a, j), a->team_me);
    first_of_table = true;
    SHMEM_REDUCE_BITWISE_TABLE(R_BIT)
    first_of_table = true;
    SHMEM_REDUCE_MINMAX_TABLE(R_MINMAX)
    first_of_table = true;
    SHMEM_REDUCE_MINMAX_TABLE(R_ARITH)
    first_of_table = true;
    SHMEMD_FLOAT16_TABLE(R_F16)
}

/* Complex sums and products, checked apart (no %g for them). */
static void run_complex(const struct coll_args *a, bool blocked)
{
    double _Complex *s = (double _Complex *)a->src, *d = (double _Complex *)a->dst;
    if (shmemd_thread_idx() == 0)
        for (int i = 0; i < E; i++)
            s[i] = (double)(a->team_me + 1) + (double)i * 1.0i;
    if (blocked)
        shmemd_complexd_sum_reduce_block(a->team, d, s, E);
    else
        shmemd_complexd_sum_reduce(a->team, d, s, E);
    for (int i = 0; i < E; i++) {
        double _Complex want = 0;
        for (int p = 0; p < a->team_n; p++)
            want += (double)(p + 1) + (double)i * 1.0i;
        CHECK(d[i] == want, "complexd_sum_reduce element %d", i);
    }
    float _Complex *fs = (float _Complex *)a->src, *fd = (float _Complex *)a->dst;
    if (shmemd_thread_idx() == 0)
        for (int i = 0; i < E; i++)
            fs[i] = 1.0f + (float)(a->team_me % 2) * 1.0fi;
    if (blocked)
        shmemd_complexf_prod_reduce_block(a->team, fd, fs, E);
    else
        shmemd_complexf_prod_reduce(a->team, fd, fs, E);
    float _Complex want = 1;
    for (int p = 0; p < a->team_n; p++)
        want *= 1.0f + (float)(p % 2) * 1.0fi;
    for (int i = 0; i < E; i++)
        CHECK(fd[i] == want, "complexf_prod_reduce element %d", i);
}

static void coll_kernel(void *p)
{
    const struct coll_args *a = p;
    if (a->team == SHMEM_TEAM_INVALID)
        return;
    if (shmemd_thread_idx() == 0) {
        run(a, false);
        run_complex(a, false);
    }
    shmemd_block_sync();
    run(a, true);
    run_complex(a, true);
}

static void test_team(shmem_team_t team, int start, int stride)
{
    struct coll_args a = {.src = shmemx_device_calloc(1, BUF), .dst = shmemx_device_calloc(1, BUF),
                          .team = team, .start = start, .stride = stride};
    if (team != SHMEM_TEAM_INVALID) {
        a.team_me = shmem_team_my_pe(team);
        a.team_n = shmem_team_n_pes(team);
        CHECK(a.team_n <= MAXPE, "at most %d PEs", MAXPE);
    }
    shmem_barrier_all();
    CHECK(shmemx_launch(coll_kernel, 1, THREADS, &a, sizeof a, NULL) == 0, "launch");
    shmemx_stream_synchronize(NULL);
    shmem_barrier_all();
    shmemx_device_free(a.dst);
    shmemx_device_free(a.src);
}

/* Bad input: each a clear error naming the routine (the test's regular
 * expression), never a hang or a crash. */
struct bad_args {
    int *buf;       /* symmetric */
    int *local;     /* not symmetric */
    const char *mode;
};

static void bad_kernel(void *p)
{
    const struct bad_args *a = p;
    if (!strcmp(a->mode, "bad_root"))
        shmemd_int_broadcast(SHMEMD_TEAM_WORLD, a->buf, a->buf + 8, 2, shmemd_n_pes());
    else if (!strcmp(a->mode, "bad_team"))
        shmemd_int_sum_reduce(SHMEMD_TEAM_INVALID, a->buf, a->buf + 8, 2);
    else if (!strcmp(a->mode, "bad_dest"))
        shmemd_long_max_reduce_block(SHMEMD_TEAM_WORLD, (long *)a->local, (long *)a->buf, 2);
}

static int run_bad(const char *mode)
{
    int *local = calloc(16, sizeof(int));
    struct bad_args a = {shmemx_device_calloc(16, sizeof(int)), local, mode};
    CHECK(shmemx_launch(bad_kernel, 1, 2, &a, sizeof a, NULL) == 0, "launch");
    shmemx_stream_synchronize(NULL);
    shmem_finalize();
    return 0;
}

int main(int argc, char **argv)
{
    quick = argc > 1 && !strcmp(argv[1], "quick");
    shmem_init();
    if (argc > 1 && !strncmp(argv[1], "bad_", 4))
        return run_bad(argv[1]);
    int me = shmem_my_pe(), n = shmem_n_pes();
    test_team(SHMEM_TEAM_WORLD, 0, 1);
    /* PEs 0, 2, 4, ...: another team, other sync words. */
    shmem_team_t even;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (n + 1) / 2, NULL, 0, &even);
    test_team(even, 0, 2);
    /* The world team again: its words were left idle. */
    test_team(SHMEM_TEAM_WORLD, 0, 1);
    if (even != SHMEM_TEAM_INVALID)
        shmem_team_destroy(even);
    shmem_finalize();
    if (me == 0)
        printf("device_coll: %d PEs passed\n", n);
    return 0;
}
