/* Every typed, sized and bytewise RMA routine, plain, ctx and generic forms,
 * with the values checked on the receiving side. */
#include <string.h>

#include "check.h"

#define LEN 37 /* odd on purpose */

static int me, npes, next, prev;

#define VAL(pe, i, salt) ((pe) * 7 + (i) * 3 + (salt)) % 101

#define TEST_TYPE(T, N)                                                                   \
    static void test_##N(void)                                                            \
    {                                                                                     \
        T *dst = shmem_calloc(2 * LEN, sizeof(T));                                        \
        T *pub = shmem_malloc(2 * LEN * sizeof(T));                                       \
        T src[2 * LEN], got[2 * LEN];                                                     \
        for (int i = 0; i < 2 * LEN; i++) {                                               \
            src[i] = (T)(VAL(me, i, 1));                                                  \
            pub[i] = (T)(VAL(me, i, 2));                                                  \
        }                                                                                 \
        shmem_barrier_all();                                                              \
        /* put, then get of what the next PE published */                                 \
        shmem_##N##_put(dst, src, LEN, next);                                             \
        shmem_##N##_get(got, pub, LEN, next);                                             \
        for (int i = 0; i < LEN; i++)                                                     \
            CHECK(got[i] == (T)(VAL(next, i, 2)), #N "_get [%d]", i);                     \
        shmem_barrier_all();                                                              \
        for (int i = 0; i < LEN; i++)                                                     \
            CHECK(dst[i] == (T)(VAL(prev, i, 1)), #N "_put [%d]", i);                     \
        shmem_barrier_all();                                                              \
        /* strided: every other element of the target, every third of the source */     \
        memset(dst, 0, 2 * LEN * sizeof(T));                                              \
        shmem_barrier_all();                                                              \
        shmem_##N##_iput(dst, src, 2, 3, LEN / 3, next);                                  \
        shmem_##N##_iget(got, pub, 3, 2, LEN / 3, next);                                  \
        for (int i = 0; i < LEN / 3; i++)                                                 \
            CHECK(got[3 * i] == (T)(VAL(next, 2 * i, 2)), #N "_iget [%d]", i);            \
        shmem_barrier_all();                                                              \
        for (int i = 0; i < LEN / 3; i++) {                                               \
            CHECK(dst[2 * i] == (T)(VAL(prev, 3 * i, 1)), #N "_iput [%d]", i);            \
            CHECK(dst[2 * i + 1] == (T)0, #N "_iput touched a gap at %d", i);             \
        }                                                                                 \
        shmem_barrier_all();                                                              \
        /* p and g, ctx forms, nbi forms */                                               \
        shmem_##N##_p(&dst[LEN], (T)(VAL(me, 0, 5)), next);                               \
        T g = shmem_##N##_g(&pub[LEN - 1], next);                                         \
        CHECK(g == (T)(VAL(next, LEN - 1, 2)), #N "_g");                                  \
        CHECK(shmem_ctx_##N##_g(SHMEM_CTX_DEFAULT, &pub[0], prev) == (T)(VAL(prev, 0, 2)), \
              "ctx_" #N "_g");                                                            \
        shmem_ctx_##N##_p(SHMEM_CTX_DEFAULT, &dst[LEN + 1], (T)(VAL(me, 1, 5)), next);    \
        shmem_##N##_put_nbi(&dst[LEN + 2], src, 4, next);                                 \
        shmem_ctx_##N##_put_nbi(SHMEM_CTX_DEFAULT, &dst[LEN + 6], src + 4, 4, next);      \
        shmem_##N##_get_nbi(got, pub + LEN, 4, next);                                     \
        shmem_ctx_##N##_get_nbi(SHMEM_CTX_DEFAULT, got + 4, pub + LEN + 4, 4, next);      \
        shmem_quiet();                                                                    \
        for (int i = 0; i < 8; i++)                                                       \
            CHECK(got[i] == (T)(VAL(next, LEN + i, 2)), #N "_get_nbi [%d]", i);           \
        shmem_ctx_##N##_put(SHMEM_CTX_DEFAULT, &dst[LEN + 10], src, 2, next);             \
        shmem_ctx_##N##_get(SHMEM_CTX_DEFAULT, got, pub, 2, next);                        \
        CHECK(got[1] == (T)(VAL(next, 1, 2)), "ctx_" #N "_get");                          \
        shmem_ctx_##N##_iput(SHMEM_CTX_DEFAULT, &dst[LEN + 12], src, 1, 1, 2, next);      \
        shmem_ctx_##N##_iget(SHMEM_CTX_DEFAULT, got, pub, 1, 1, 2, next);                 \
        CHECK(got[1] == (T)(VAL(next, 1, 2)), "ctx_" #N "_iget");                         \
        shmem_barrier_all();                                                              \
        CHECK(dst[LEN] == (T)(VAL(prev, 0, 5)), #N "_p");                                 \
        CHECK(dst[LEN + 1] == (T)(VAL(prev, 1, 5)), "ctx_" #N "_p");                      \
        for (int i = 0; i < 8; i++)                                                       \
            CHECK(dst[LEN + 2 + i] == (T)(VAL(prev, i, 1)), #N "_put_nbi [%d]", i);       \
        CHECK(dst[LEN + 11] == (T)(VAL(prev, 1, 1)), "ctx_" #N "_put");                   \
        CHECK(dst[LEN + 13] == (T)(VAL(prev, 1, 1)), "ctx_" #N "_iput");                  \
        shmem_free(dst);                                                                  \
        shmem_free(pub);                                                                  \
    }
SHMEM_RMA_TYPE_TABLE(TEST_TYPE)

#define CALL_TEST(T, N) test_##N();

/* The C11 generic names select by type and by argument count. */
static void test_generic(void)
{
    double *d = shmem_calloc(8, sizeof(double));
    short *s = shmem_calloc(8, sizeof(short));
    double dv[4] = {1.5, 2.5, 3.5, 4.5};
    short sv[4] = {-1, -2, -3, -4};
    shmem_barrier_all();
    shmem_put(d, dv, 4, next);
    shmem_put(SHMEM_CTX_DEFAULT, s, sv, 4, next);
    shmem_p(&d[4], 9.25, next);
    shmem_p(SHMEM_CTX_DEFAULT, &s[4], (short)77, next);
    shmem_iput(&d[5], dv, 1, 2, 2, next);
    shmem_put_nbi(&s[5], sv, 2, next);
    shmem_quiet();
    shmem_barrier_all();
    CHECK(d[3] == 4.5 && d[4] == 9.25 && d[5] == 1.5 && d[6] == 3.5, "generic double");
    CHECK(s[3] == -4 && s[4] == 77 && s[5] == -1 && s[6] == -2, "generic short");
    double dg[4];
    shmem_get(dg, d, 4, next);
    CHECK(dg[0] == 1.5 && shmem_g(&d[4], next) == 9.25, "generic get/g");
    CHECK(shmem_g(SHMEM_CTX_DEFAULT, &s[4], prev) == 77, "generic ctx g");
    short sg[4];
    shmem_iget(sg, s, 2, 1, 2, prev);
    shmem_get_nbi(SHMEM_CTX_DEFAULT, &sg[1], s, 1, prev);
    shmem_quiet();
    CHECK(sg[0] == -1 && sg[2] == -2 && sg[1] == -1, "generic iget/get_nbi");
    shmem_barrier_all();
    shmem_free(d);
    shmem_free(s);
}

/* putmem/getmem and the sized routines, including 128-bit elements. */
static void test_sized(void)
{
    enum { BYTES = 4096 };
    unsigned char *dst = shmem_calloc(BYTES, 1);
    unsigned char src[BYTES], got[BYTES];
    for (int i = 0; i < BYTES; i++)
        src[i] = (unsigned char)(me * 13 + i);
    shmem_barrier_all();
    shmem_putmem(dst, src, 1000, next);
    shmem_put8(dst + 1000, src + 1000, 100, next);
    shmem_put16(dst + 1100, src + 1100, 50, next);
    shmem_put32(dst + 1200, src + 1200, 26, next);
    shmem_put64(dst + 1304, src + 1304, 13, next);
    shmem_put128(dst + 1408, src + 1408, 6, next);
    shmem_putmem_nbi(dst + 1504, src + 1504, 96, next);
    shmem_put64_nbi(dst + 1600, src + 1600, 8, next);
    shmem_ctx_putmem(SHMEM_CTX_DEFAULT, dst + 1664, src + 1664, 64, next);
    shmem_iput32(dst + 2048, src + 2048, 2, 1, 16, next);
    shmem_quiet();
    shmem_barrier_all();
    for (int i = 0; i < 1728; i++)
        CHECK(dst[i] == (unsigned char)(prev * 13 + i), "sized put byte %d", i);
    for (int i = 0; i < 16; i++)
        for (int k = 0; k < 4; k++)
            CHECK(dst[2048 + 8 * i + k] == (unsigned char)(prev * 13 + 2048 + 4 * i + k) &&
                      dst[2048 + 8 * i + 4 + k] == 0,
                  "iput32 element %d byte %d", i, k);
    shmem_getmem(got, dst, 1000, next);
    shmem_get128(got + 1008, dst + 1008, 4, next);
    shmem_getmem_nbi(got + 1100, dst + 1100, 100, next);
    shmem_iget64(got + 2000, dst, 2, 1, 4, next);
    shmem_quiet();
    for (int i = 0; i < 1000; i++)
        CHECK(got[i] == (unsigned char)(me * 13 + i), "getmem byte %d", i);
    for (int i = 1008; i < 1072; i++)
        CHECK(got[i] == (unsigned char)(me * 13 + i), "get128 byte %d", i);
    for (int i = 1100; i < 1200; i++)
        CHECK(got[i] == (unsigned char)(me * 13 + i), "getmem_nbi byte %d", i);
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < 8; k++)
            CHECK(got[2000 + 16 * i + k] == (unsigned char)(me * 13 + 8 * i + k),
                  "iget64 element %d byte %d", i, k);
    shmem_barrier_all();
    shmem_free(dst);
}

/* A zero-length transfer touches nothing, even at the end of the heap. */
static void test_zero_length(void)
{
    long *x = shmem_malloc(sizeof(long));
    shmem_long_put(x, NULL, 0, next);
    shmem_getmem(NULL, x, 0, next);
    shmem_long_iput(x, NULL, 1, 1, 0, next);
    shmem_barrier_all();
    shmem_free(x);
}

int main(void)
{
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    next = (me + 1) % npes;
    prev = (me + npes - 1) % npes;
    SHMEM_RMA_TYPE_TABLE(CALL_TEST)
    test_generic();
    test_sized();
    test_zero_length();
    shmem_finalize();
    if (me == 0)
        printf("rma: %d PEs passed\n", npes);
    return 0;
}
