/* 9.7 Atomic memory operations: every AMO on every type of its table,
 * contended by all PEs, plain, ctx, non-blocking and deprecated forms. */
#include "vv.h"

#define ROUNDS 200

static shmem_ctx_t ctx;

/* Standard AMOs: counters that every PE hits. */
#define TEST_STANDARD(T, N, U)                                                                \
    static void test_standard_##N(void)                                                       \
    {                                                                                         \
        int me = VV_ME, n = VV_NPES;                                                          \
        T *counter = shmem_calloc(4, sizeof(T));                                              \
        long long *sum = shmem_calloc(1, sizeof(long long));                                  \
        /* fetch_inc and fetch_add: every fetched value is distinct, so they sum to     */ \
        /* 0 + 1 + ... + (total - 1).                                                   */ \
        long long mine = 0;                                                                   \
        for (int i = 0; i < ROUNDS; i++) {                                                    \
            if (i % 4 == 0)                                                                   \
                mine += (long long)shmem_##N##_atomic_fetch_inc(&counter[0], 0);              \
            else if (i % 4 == 1)                                                              \
                mine += (long long)shmem_##N##_atomic_fetch_add(&counter[0], (T)1, 0);        \
            else if (i % 4 == 2)                                                              \
                mine += (long long)shmem_ctx_##N##_atomic_fetch_inc(ctx, &counter[0], 0);     \
            else {                                                                            \
                T f;                                                                          \
                shmem_##N##_atomic_fetch_add_nbi(&f, &counter[0], (T)1, 0);                   \
                shmem_quiet();                                                                \
                mine += (long long)f;                                                         \
            }                                                                                 \
            shmem_##N##_atomic_inc(&counter[1], (n - 1 + me) % n);                            \
            shmem_##N##_atomic_add(&counter[2], (T)2, (me + 1) % n);                          \
            shmem_ctx_##N##_atomic_add(ctx, &counter[3], (T)1, 0);                            \
        }                                                                                     \
        shmem_ctx_quiet(ctx);                                                                 \
        shmem_longlong_atomic_add(sum, mine, 0);                                              \
        shmem_barrier_all();                                                                  \
        long long total = (long long)ROUNDS * n;                                              \
        if (me == 0) {                                                                        \
            VV_CHECK(counter[0] == (T)total, "fetch_inc/fetch_add count %lld", (long long)counter[0]); \
            VV_CHECK(*sum == total * (total - 1) / 2, "fetched values not distinct: sum %lld", *sum); \
            VV_CHECK(counter[3] == (T)total, "ctx add %lld", (long long)counter[3]);          \
        }                                                                                     \
        VV_CHECK(counter[1] == (T)ROUNDS, "inc %lld", (long long)counter[1]);                 \
        VV_CHECK(counter[2] == (T)(2 * ROUNDS), "add %lld", (long long)counter[2]);           \
        shmem_barrier_all();                                                                  \
        /* compare_swap: a lock-free increment loop; each success is one step. */           \
        counter[0] = 0;                                                                       \
        shmem_barrier_all();                                                                  \
        for (int i = 0; i < ROUNDS / 4; i++) {                                                \
            T seen = shmem_##N##_atomic_fetch(&counter[0], 0), old;                           \
            while ((old = (i % 2 ? shmem_##N##_atomic_compare_swap(&counter[0], seen,         \
                                                                   (T)(seen + 1), 0)          \
                                 : shmem_ctx_##N##_atomic_compare_swap(ctx, &counter[0], seen, \
                                                                       (T)(seen + 1), 0))) != seen) \
                seen = old;                                                                   \
        }                                                                                     \
        T f;                                                                                  \
        shmem_##N##_atomic_compare_swap_nbi(&f, &counter[1], (T)12345, (T)7, me);             \
        shmem_quiet();                                                                        \
        VV_CHECK(f == (T)ROUNDS && counter[1] == (T)ROUNDS, "failed cswap must not write");   \
        shmem_##N##_atomic_compare_swap_nbi(&f, &counter[1], (T)ROUNDS, (T)7, me);            \
        shmem_##N##_atomic_fetch_inc_nbi(&f, &counter[1], me);                                \
        shmem_quiet();                                                                        \
        VV_CHECK(f == (T)7 && counter[1] == (T)8, "cswap_nbi/fetch_inc_nbi: %lld",            \
                 (long long)counter[1]);                                                      \
        shmem_barrier_all();                                                                  \
        if (me == 0)                                                                          \
            VV_CHECK(counter[0] == (T)(n * (ROUNDS / 4)), "cswap increments %lld",            \
                     (long long)counter[0]);                                                  \
        shmem_barrier_all();                                                                  \
        shmem_free(counter);                                                                  \
        shmem_free(sum);                                                                      \
        vv_case_end("9.7", "standard AMOs", #N);                                              \
    }
SHMEM_AMO_STANDARD_TABLE(TEST_STANDARD)

/* Extended AMOs: set, fetch, swap (also float and double). */
#define TEST_EXTENDED(T, N, U)                                                                \
    static void test_extended_##N(void)                                                       \
    {                                                                                         \
        int me = VV_ME, n = VV_NPES, next = (me + 1) % n;                                     \
        T *x = shmem_calloc(2, sizeof(T));                                                    \
        shmem_##N##_atomic_set(&x[0], (T)(me + 1), next);                                     \
        shmem_ctx_##N##_atomic_set(ctx, &x[1], (T)(me + 2), next);                            \
        shmem_ctx_quiet(ctx);                                                                 \
        shmem_barrier_all();                                                                  \
        int prev = (me + n - 1) % n;                                                          \
        VV_CHECK(x[0] == (T)(prev + 1) && x[1] == (T)(prev + 2), "set");                      \
        VV_CHECK(shmem_##N##_atomic_fetch(&x[0], next) == (T)(me + 1), "fetch");              \
        VV_CHECK(shmem_ctx_##N##_atomic_fetch(ctx, &x[1], next) == (T)(me + 2), "ctx fetch"); \
        T f = 0;                                                                              \
        shmem_##N##_atomic_fetch_nbi(&f, &x[0], next);                                        \
        shmem_quiet();                                                                        \
        VV_CHECK(f == (T)(me + 1), "fetch_nbi");                                              \
        shmem_barrier_all();                                                                  \
        /* swap: each PE swaps its neighbour's values once. */                               \
        T got = shmem_##N##_atomic_swap(&x[0], (T)100, next);                                 \
        VV_CHECK(got == (T)(me + 1), "swap returned %lld", (long long)got);                   \
        shmem_##N##_atomic_swap_nbi(&f, &x[1], (T)200, next);                                 \
        shmem_quiet();                                                                        \
        VV_CHECK(f == (T)(me + 2), "swap_nbi");                                               \
        VV_CHECK(shmem_ctx_##N##_atomic_swap(ctx, &x[1], (T)300, next) == (T)200, "ctx swap"); \
        shmem_barrier_all();                                                                  \
        VV_CHECK(x[0] == (T)100 && x[1] == (T)300, "after swaps");                            \
        shmem_barrier_all();                                                                  \
        shmem_free(x);                                                                        \
        vv_case_end("9.7", "extended AMOs", #N);                                              \
    }
SHMEM_AMO_EXTENDED_TABLE(TEST_EXTENDED)

/* Bitwise AMOs: every PE owns bits of PE 0's word. */
#define TEST_BITWISE(T, N, U)                                                                 \
    static void test_bitwise_##N(void)                                                        \
    {                                                                                         \
        int me = VV_ME, n = VV_NPES;                                                          \
        T *w = shmem_calloc(3, sizeof(T));                                                    \
        T bit = (T)((T)1 << (me % (8 * (int)sizeof(T) - 1)));                                 \
        shmem_barrier_all();                                                                  \
        if (me == 0) {                                                                        \
            w[1] = (T)~(T)0;                                                                  \
        }                                                                                     \
        shmem_barrier_all();                                                                  \
        shmem_##N##_atomic_or(&w[0], bit, 0);                                                 \
        T before = shmem_##N##_atomic_fetch_and(&w[1], (T)~bit, 0);                           \
        VV_CHECK((before & bit) || n > 8 * (int)sizeof(T) - 1, "fetch_and lost a bit");       \
        shmem_ctx_##N##_atomic_xor(ctx, &w[2], bit, 0);                                       \
        shmem_ctx_quiet(ctx);                                                                 \
        shmem_barrier_all();                                                                  \
        T all = 0;                                                                            \
        for (int p = 0; p < n; p++)                                                           \
            all |= (T)((T)1 << (p % (8 * (int)sizeof(T) - 1)));                               \
        if (me == 0) {                                                                        \
            VV_CHECK(w[0] == all, "or");                                                      \
            VV_CHECK(w[1] == (T)~all, "and");                                                 \
            VV_CHECK(n > 8 * (int)sizeof(T) - 1 || w[2] == all, "xor");                       \
        }                                                                                     \
        shmem_barrier_all();                                                                  \
        T f;                                                                                  \
        shmem_##N##_atomic_fetch_or_nbi(&f, &w[0], (T)0, 0);                                  \
        shmem_quiet();                                                                        \
        VV_CHECK(f == all, "fetch_or_nbi");                                                   \
        if (n <= 8 * (int)sizeof(T) - 1)                                                      \
            VV_CHECK(shmem_##N##_atomic_fetch_xor(&w[2], (T)0, 0) == all, "fetch_xor");       \
        shmem_##N##_atomic_fetch_and_nbi(&f, &w[0], (T)~(T)0, 0);                             \
        shmem_##N##_atomic_fetch_xor_nbi(&f, &w[1], (T)0, 0);                                 \
        shmem_quiet();                                                                        \
        VV_CHECK(f == (T)~all, "fetch_xor_nbi");                                              \
        T g = shmem_ctx_##N##_atomic_fetch_or(ctx, &w[0], (T)0, 0);                           \
        VV_CHECK(g == all, "ctx fetch_or");                                                   \
        shmem_barrier_all();                                                                  \
        if (me == 0) {                                                                        \
            shmem_##N##_atomic_and(&w[0], (T)0, 0);                                           \
            VV_CHECK(w[0] == 0, "and to zero");                                               \
        }                                                                                     \
        shmem_barrier_all();                                                                  \
        shmem_free(w);                                                                        \
        vv_case_end("9.7", "bitwise AMOs", #N);                                               \
    }
SHMEM_AMO_BITWISE_TABLE(TEST_BITWISE)

/* Deprecated names and the C11 generic names. */
static void test_deprecated_and_generic(void)
{
    int me = VV_ME, n = VV_NPES;
    long *l = shmem_calloc(4, sizeof(long));
    int *i = shmem_calloc(4, sizeof(int));
    double *d = shmem_calloc(1, sizeof(double));
    shmem_barrier_all();
    shmem_long_finc(&l[0], 0);
    shmem_long_inc(&l[0], 0);
    shmem_long_fadd(&l[0], 2, 0);
    shmem_long_add(&l[0], 3, 0);
    shmem_int_add(&i[0], 1, 0);
    shmem_atomic_add(&i[1], 5, 0);
    shmem_atomic_inc(SHMEM_CTX_DEFAULT, &i[2], 0);
    shmem_atomic_fetch_add(&l[1], 1L, 0);
    shmem_atomic_fetch_inc(ctx, &l[2], 0);
    shmem_ctx_quiet(ctx);
    shmem_barrier_all();
    if (me == 0) {
        VV_CHECK(l[0] == 7L * n, "deprecated long ops: %ld", l[0]);
        VV_CHECK(i[0] == n && i[1] == 5 * n && i[2] == n, "int add/generic");
        VV_CHECK(l[1] == n && l[2] == n, "generic fetch forms");
    }
    shmem_barrier_all();
    if (me == 0) {
        shmem_double_set(d, 2.5, n - 1);
        VV_CHECK(shmem_double_fetch(d, n - 1) == 2.5, "double set/fetch");
        VV_CHECK(shmem_atomic_swap(d, 4.0, n - 1) == 2.5, "generic swap");
        VV_CHECK(shmem_long_cswap(&l[3], 0, 9, n - 1) == 0, "cswap");
        VV_CHECK(shmem_swap(&l[3], 11, n - 1) == 9, "shmem_swap");
        VV_CHECK(shmem_atomic_compare_swap(&l[3], 11L, 12L, n - 1) == 11, "generic cswap");
        VV_CHECK(shmem_atomic_fetch(&l[3], n - 1) == 12, "generic fetch");
        shmem_atomic_set(&l[3], 13L, n - 1);
        VV_CHECK(shmem_long_g(&l[3], n - 1) == 13, "generic set");
        unsigned int *u = (unsigned int *)&i[3];
        VV_CHECK(shmem_atomic_fetch_or(u, 6u, n - 1) == 0, "generic fetch_or");
        shmem_atomic_xor(u, 2u, n - 1);
        VV_CHECK(shmem_atomic_fetch_and(u, 0xffu, n - 1) == 4u, "generic xor/and");
    }
    shmem_barrier_all();
    shmem_free(l);
    shmem_free(i);
    shmem_free(d);
    vv_case_end("9.7", "deprecated and generic AMOs", "int long double");
}

#define CALL(T, N, U) test_standard_##N();
#define CALL_EXT(T, N, U) test_extended_##N();
#define CALL_BIT(T, N, U) test_bitwise_##N();

int main(void)
{
    shmem_init();
    if (shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx) != 0)
        ctx = SHMEM_CTX_DEFAULT;
    SHMEM_AMO_STANDARD_TABLE(CALL)
    SHMEM_AMO_EXTENDED_TABLE(CALL_EXT)
    SHMEM_AMO_BITWISE_TABLE(CALL_BIT)
    test_deprecated_and_generic();
    shmem_ctx_destroy(ctx);
    return vv_finish("9.7");
}
