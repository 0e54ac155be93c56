/* Device RMA families (include/shmem/device_rma.h), checked by value:
 *   device_rma [all]           every typed family for every type of the device RMA table
 *                              (half and bfloat16 too), sized, generic, block and warp
 *                              groups, chosen engines, the unified buffer
 *   device_rma order MODE [expect-stale]
 *                              a producer publishes data then a flag, MODE none, fence or
 *                              quiet between them; the consumer checks the data once it
 *                              sees the flag. Fails on stale data, unless expect-stale, when
 *                              it fails unless some round saw stale data (the weak memory
 *                              model's negative test)
 *   device_rma unreachable     an MTE put to a PE of another node: must stop with an error
 *   device_rma ub_outside      shmemd_putmem_ub from memory outside the buffer: same */
#include <shmem/device.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define NE 64     /* elements per type region */
#define WIDE 256  /* room for strided and 2-D destinations */

static int me_, n_;

/* ---- per-type values ---- */
#define MAKE_STD(T, N) \
    static T mk_##N(int x) { return (T)x; } \
    static int eq_##N(T a, T b) { return a == b; }
SHMEM_RMA_TYPE_TABLE(MAKE_STD)
static shmemd_half_t mk_half(int x) { return shmemd_float_to_half((float)x); }
static int eq_half(shmemd_half_t a, shmemd_half_t b) { return a.bits == b.bits; }
static shmemd_bfloat16_t mk_bfloat16(int x) { return shmemd_float_to_bfloat16((float)x); }
static int eq_bfloat16(shmemd_bfloat16_t a, shmemd_bfloat16_t b) { return a.bits == b.bits; }

/* Source element i of PE pe: small integers, exact in every type. */
static int pattern(int pe, int i) { return (pe * 13 + i * 3 + 1) % 120; }

struct typed_args {
    void *src, *dst, *got; /* NE, WIDE, WIDE elements */
};

/* Source indices the destination index D of each family reads, or -1. */
static int put_source(int d)
{
    if (d < 16) /* put [0,8), put_nbi [8,16) */
        return d;
    if (d >= 20 && d < 32 && (d - 20) % 2 == 0) /* iput: dst stride 2, src stride 1 */
        return (d - 20) / 2;
    if (d >= 40 && d < 40 + 3 * 6 && (d - 40) % 6 < 4) /* put_2d: rows of 4, dst 6, src 5 */
        return 30 + (d - 40) / 6 * 5 + (d - 40) % 6;
    if (d >= 60 && d < 64) /* put_nbi_udma */
        return d;
    return -1;
}

static int get_source(int d)
{
    if (d < 16) /* get, get_nbi */
        return d;
    if (d >= 20 && d < 32 && (d - 20) % 2 == 0) /* iget: dst stride 2, src stride 3 */
        return (d - 20) / 2 * 3;
    if (d >= 40 && d < 58 && (d - 40) % 6 < 4) /* get_2d_nbi */
        return 30 + (d - 40) / 6 * 5 + (d - 40) % 6;
    if (d >= 60 && d < 64) /* get_nbi_rdma */
        return d;
    if (d >= 64 && d < 68) /* get_nbi_sdma from self */
        return d - 4;
    return -1;
}

#define TYPED_KERNEL(T, N)                                                                     \
    static void typed_kernel_##N(void *p)                                                      \
    {                                                                                          \
        const struct typed_args *a = p;                                                        \
        T *src = a->src, *dst = a->dst, *got = a->got;                                         \
        int me = shmemd_my_pe(), n = shmemd_n_pes(), next = (me + 1) % n,                       \
            prev = (me + n - 1) % n;                                                           \
        shmemd_##N##_put(dst, src, 8, next);                                                   \
        shmemd_##N##_put_nbi(dst + 8, src + 8, 8, next);                                       \
        shmemd_##N##_p(dst + 16, mk_##N(me + 100), next);                                      \
        shmemd_##N##_iput(dst + 20, src, 2, 1, 6, next);                                       \
        shmemd_##N##_put_2d(dst + 40, src + 30, 6, 5, 4, 3, next);                             \
        shmemd_##N##_put_nbi_udma(dst + 60, src + 60, 4, next);                                \
        shmemd_##N##_put_nbi_mte(dst + 100, src + 60, 4, me);                                  \
        shmemd_quiet();                                                                        \
        shmemd_barrier_all();                                                                  \
        shmemd_##N##_get(got, src, 8, prev);                                                   \
        shmemd_##N##_get_nbi(got + 8, src + 8, 8, prev);                                       \
        got[16] = shmemd_##N##_g(src + 16, prev);                                              \
        shmemd_##N##_iget(got + 20, src, 2, 3, 6, prev);                                       \
        shmemd_##N##_get_2d_nbi(got + 40, src + 30, 6, 5, 4, 3, prev);                         \
        shmemd_##N##_get_nbi_rdma(got + 60, src + 60, 4, prev);                                \
        shmemd_##N##_get_nbi_sdma(got + 64, dst + 100, 4, me);                                 \
        shmemd_quiet();                                                                        \
        /* put_2d_nbi, get_2d, put_nbi_sdma/rdma, get_nbi_mte/udma: a second round trip */     \
        shmemd_##N##_put_2d_nbi(dst + 120, src, 3, 2, 1, 5, next);                             \
        shmemd_##N##_put_nbi_sdma(dst + 140, src + 4, 2, me);                                  \
        shmemd_##N##_put_nbi_rdma(dst + 142, src + 6, 2, next);                                \
        shmemd_quiet();                                                                        \
        shmemd_barrier_all();                                                                  \
        shmemd_##N##_get_2d(got + 120, src, 3, 2, 1, 5, prev);                                 \
        shmemd_##N##_get_nbi_mte(got + 140, dst + 140, 2, me);                                 \
        shmemd_##N##_get_nbi_udma(got + 142, src + 6, 2, prev);                                \
        shmemd_quiet();                                                                        \
    }                                                                                          \
    static void test_typed_##N(void)                                                           \
    {                                                                                          \
        T *src = shmemx_device_malloc(NE * sizeof(T));                                         \
        T *dst = shmemx_device_calloc(WIDE, sizeof(T));                                        \
        T *got = shmemx_device_calloc(WIDE, sizeof(T));                                        \
        int prev = (me_ + n_ - 1) % n_;                                                        \
        for (int i = 0; i < NE; i++)                                                           \
            src[i] = mk_##N(pattern(me_, i));                                                  \
        shmem_barrier_all();                                                                   \
        struct typed_args a = {src, dst, got};                                                 \
        CHECK(shmemx_launch(typed_kernel_##N, 1, 1, &a, sizeof a, NULL) == 0, "launch");       \
        shmemx_stream_synchronize(NULL);                                                       \
        shmem_barrier_all();                                                                   \
        for (int d = 0; d < 68; d++) {                                                         \
            int s = put_source(d), g = get_source(d);                                          \
            if (d == 16) {                                                                     \
                CHECK(eq_##N(dst[d], mk_##N(prev + 100)), #N "_p: wrong value");               \
                CHECK(eq_##N(got[d], mk_##N(pattern(prev, 16))), #N "_g: wrong value");        \
                continue;                                                                      \
            }                                                                                  \
            if (s >= 0)                                                                        \
                CHECK(eq_##N(dst[d], mk_##N(pattern(prev, s))), #N " put family: dst[%d]", d); \
            else                                                                  \
                CHECK(eq_##N(dst[d], mk_##N(0)), #N " put family wrote dst[%d]", d);           \
            if (g >= 0 && d < 64)                                                              \
                CHECK(eq_##N(got[d], mk_##N(pattern(prev, g))), #N " get family: got[%d]", d); \
            else if (g >= 0)                                                                   \
                CHECK(eq_##N(got[d], mk_##N(pattern(me_, g))), #N " engine to self: got[%d]", d); \
            else                                                                               \
                CHECK(eq_##N(got[d], mk_##N(0)), #N " get family wrote got[%d]", d);           \
        }                                                                                      \
        for (int i = 0; i < 4; i++)                                                            \
            CHECK(eq_##N(dst[100 + i], mk_##N(pattern(me_, 60 + i))), #N "_put_nbi_mte");      \
        for (int r = 0; r < 5; r++) {                                                          \
            CHECK(eq_##N(dst[120 + 3 * r], mk_##N(pattern(prev, 2 * r))), #N "_put_2d_nbi %d", r); \
            CHECK(eq_##N(dst[121 + 3 * r], mk_##N(0)), #N "_put_2d_nbi row gap %d", r);        \
            CHECK(eq_##N(got[120 + 3 * r], mk_##N(pattern(prev, 2 * r))), #N "_get_2d %d", r); \
        }                                                                                      \
        for (int i = 0; i < 2; i++) {                                                          \
            CHECK(eq_##N(dst[140 + i], mk_##N(pattern(me_, 4 + i))), #N "_put_nbi_sdma");     \
            CHECK(eq_##N(dst[142 + i], mk_##N(pattern(prev, 6 + i))), #N "_put_nbi_rdma");     \
            CHECK(eq_##N(got[140 + i], mk_##N(pattern(me_, 4 + i))), #N "_get_nbi_mte");       \
            CHECK(eq_##N(got[142 + i], mk_##N(pattern(prev, 6 + i))), #N "_get_nbi_udma");     \
        }                                                                                      \
        shmem_barrier_all();                                                                   \
        shmemx_device_free(got);                                                               \
        shmemx_device_free(dst);                                                               \
        shmemx_device_free(src);                                                               \
    }
SHMEMD_RMA_TYPE_TABLE(TYPED_KERNEL)

/* ---- sized ---- */
struct bytes_args {
    unsigned char *src, *dst, *got;
};

#define SIZED_BYTES 1024
static void sized_kernel(void *p)
{
    const struct bytes_args *a = p;
    int me = shmemd_my_pe(), n = shmemd_n_pes(), next = (me + 1) % n, prev = (me + n - 1) % n;
    /* Each size in its own 192-byte window: 3 units contiguous at +0 (blocking)
     * and +48 (nbi), 3 units strided (dst 2, src 1) at +96. */
#define SIZED_PUT(BITS, U)                                                                     \
    {                                                                                          \
        size_t w = (size_t)(__builtin_ctz(BITS) - 3) * 192, u = BITS / 8;                      \
        shmemd_put##BITS(a->dst + w, a->src + w, 3, next);                                     \
        shmemd_put##BITS##_nbi(a->dst + w + 48, a->src + w + 48, 3, next);                     \
        shmemd_iput##BITS(a->dst + w + 96, a->src + w + 96, 2, 1, 3, next);                    \
        (void)u;                                                                               \
    }
    SHMEM_SIZED_TABLE(SIZED_PUT)
    shmemd_quiet();
    shmemd_barrier_all();
#define SIZED_GET(BITS, U)                                                                     \
    {                                                                                          \
        size_t w = (size_t)(__builtin_ctz(BITS) - 3) * 192;                                    \
        shmemd_get##BITS(a->got + w, a->src + w, 3, prev);                                     \
        shmemd_get##BITS##_nbi(a->got + w + 48, a->src + w + 48, 3, prev);                     \
        shmemd_iget##BITS(a->got + w + 96, a->src + w + 96, 1, 2, 3, prev);                    \
    }
    SHMEM_SIZED_TABLE(SIZED_GET)
    shmemd_quiet();
}

static unsigned char byte_of(int pe, size_t i) { return (unsigned char)(pe * 31 + i * 7 + 1); }

static void test_sized(void)
{
    unsigned char *src = shmemx_device_malloc(SIZED_BYTES);
    unsigned char *dst = shmemx_device_calloc(SIZED_BYTES, 1);
    unsigned char *got = shmemx_device_calloc(SIZED_BYTES, 1);
    for (size_t i = 0; i < SIZED_BYTES; i++)
        src[i] = byte_of(me_, i);
    shmem_barrier_all();
    struct bytes_args a = {src, dst, got};
    shmemx_launch(sized_kernel, 1, 1, &a, sizeof a, NULL);
    shmemx_stream_synchronize(NULL);
    shmem_barrier_all();
    int prev = (me_ + n_ - 1) % n_;
    for (int bits = 8; bits <= 128; bits *= 2) {
        size_t w = (size_t)(__builtin_ctz((unsigned)bits) - 3) * 192, u = (size_t)bits / 8;
        for (size_t i = 0; i < 3 * u; i++) {
            CHECK(dst[w + i] == byte_of(prev, w + i), "put%d byte %zu", bits, i);
            CHECK(dst[w + 48 + i] == byte_of(prev, w + 48 + i), "put%d_nbi byte %zu", bits, i);
            CHECK(got[w + i] == byte_of(prev, w + i), "get%d byte %zu", bits, i);
            CHECK(got[w + 48 + i] == byte_of(prev, w + 48 + i), "get%d_nbi byte %zu", bits, i);
        }
        for (size_t e = 0; e < 3; e++)
            for (size_t b = 0; b < u; b++) {
                /* iput: dst unit 2e <- src unit e; iget: got unit e <- src unit 2e */
                CHECK(dst[w + 96 + 2 * e * u + b] == byte_of(prev, w + 96 + e * u + b),
                      "iput%d unit %zu", bits, e);
                CHECK(dst[w + 96 + (2 * e + 1) * u + b] == 0, "iput%d wrote a gap", bits);
                CHECK(got[w + 96 + e * u + b] == byte_of(prev, w + 96 + 2 * e * u + b),
                      "iget%d unit %zu", bits, e);
            }
    }
    shmem_barrier_all();
    shmemx_device_free(got);
    shmemx_device_free(dst);
    shmemx_device_free(src);
}

/* ---- generic forms, mem 2-D and engines ---- */
struct generic_args {
    long *l;
    shmemd_half_t *h;
    shmemd_bfloat16_t *b;
    unsigned char *bytes;
};

static void generic_kernel(void *p)
{
    const struct generic_args *a = p;
    int me = shmemd_my_pe(), n = shmemd_n_pes(), next = (me + 1) % n;
    shmemd_put(a->l + 8, a->l, 4, next);
    shmemd_p(a->h + 8, shmemd_float_to_half(0.5f), next);
    shmemd_put_nbi(a->b + 8, a->b, 2, next);
    shmemd_iput(a->h + 10, a->h, 2, 1, 2, next);
    shmemd_quiet();
    shmemd_barrier_all();
    shmemd_get(a->l + 16, a->l, 2, next);
    a->h[16] = shmemd_g(a->h + 1, next);
    shmemd_iget(a->b + 16, a->b, 1, 2, 2, next);
    /* bytes: a 2-D put of 3 rows of 5 bytes, dst pitch 8, src pitch 5 */
    shmemd_putmem_2d(a->bytes + 64, a->bytes, 8, 5, 5, 3, next);
    shmemd_getmem_2d_nbi(a->bytes + 128, a->bytes, 8, 5, 5, 3, next);
    shmemd_putmem_nbi_mte(a->bytes + 192, a->bytes, 4, me);
    shmemd_putmem_sdma(a->bytes + 196, a->bytes, 4, me);
    shmemd_putmem_udma(a->bytes + 200, a->bytes, 4, next);
    shmemd_putmem_nbi_rdma(a->bytes + 204, a->bytes, 4, next);
    shmemd_getmem_mte(a->bytes + 208, a->bytes, 4, me);
    shmemd_getmem_nbi_sdma(a->bytes + 212, a->bytes, 4, me);
    shmemd_getmem_nbi_udma(a->bytes + 216, a->bytes, 4, next);
    shmemd_getmem_rdma(a->bytes + 220, a->bytes, 4, next);
    shmemd_quiet();
}

static void test_generic(void)
{
    long *l = shmemx_device_calloc(32, sizeof(long));
    shmemd_half_t *h = shmemx_device_calloc(32, sizeof *h);
    shmemd_bfloat16_t *b = shmemx_device_calloc(32, sizeof *b);
    unsigned char *bytes = shmemx_device_calloc(256, 1);
    for (int i = 0; i < 8; i++) {
        l[i] = me_ * 100 + i;
        h[i] = shmemd_float_to_half((float)(me_ + i) + 0.25f);
        b[i] = shmemd_float_to_bfloat16((float)(me_ * 2 + i) - 0.5f);
    }
    for (int i = 0; i < 64; i++)
        bytes[i] = byte_of(me_, (size_t)i);
    shmem_barrier_all();
    struct generic_args a = {l, h, b, bytes};
    shmemx_launch(generic_kernel, 1, 1, &a, sizeof a, NULL);
    shmemx_stream_synchronize(NULL);
    shmem_barrier_all();
    int prev = (me_ + n_ - 1) % n_, next = (me_ + 1) % n_;
    for (int i = 0; i < 4; i++)
        CHECK(l[8 + i] == prev * 100 + i, "shmemd_put (long) %d: %ld", i, l[8 + i]);
    CHECK(shmemd_half_to_float(h[8]) == 0.5f, "shmemd_p (half)");
    for (int i = 0; i < 2; i++) {
        CHECK(shmemd_bfloat16_to_float(b[8 + i]) == (float)(prev * 2 + i) - 0.5f, "put_nbi bf16");
        CHECK(shmemd_half_to_float(h[10 + 2 * i]) == (float)(prev + i) + 0.25f, "iput half %d", i);
        CHECK(l[16 + i] == next * 100 + i, "shmemd_get (long)");
        CHECK(shmemd_bfloat16_to_float(b[16 + i]) == (float)(next * 2 + 2 * i) - 0.5f,
              "iget bf16 %d", i);
    }
    CHECK(shmemd_half_to_float(h[16]) == (float)(next + 1) + 0.25f, "shmemd_g (half)");
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 8; c++) {
            unsigned char want_put = c < 5 ? byte_of(prev, (size_t)(r * 5 + c)) : 0;
            unsigned char want_get = c < 5 ? byte_of(next, (size_t)(r * 5 + c)) : 0;
            CHECK(bytes[64 + r * 8 + c] == want_put, "putmem_2d row %d col %d", r, c);
            CHECK(bytes[128 + r * 8 + c] == want_get, "getmem_2d_nbi row %d col %d", r, c);
        }
    for (int i = 0; i < 4; i++) {
        CHECK(bytes[192 + i] == byte_of(me_, (size_t)i), "putmem_nbi_mte");
        CHECK(bytes[196 + i] == byte_of(me_, (size_t)i), "putmem_sdma");
        CHECK(bytes[200 + i] == byte_of(prev, (size_t)i), "putmem_udma");
        CHECK(bytes[204 + i] == byte_of(prev, (size_t)i), "putmem_nbi_rdma");
        CHECK(bytes[208 + i] == byte_of(me_, (size_t)i), "getmem_mte");
        CHECK(bytes[212 + i] == byte_of(me_, (size_t)i), "getmem_nbi_sdma");
        CHECK(bytes[216 + i] == byte_of(next, (size_t)i), "getmem_nbi_udma");
        CHECK(bytes[220 + i] == byte_of(next, (size_t)i), "getmem_rdma");
    }
    shmem_barrier_all();
    shmemx_device_free(bytes);
    shmemx_device_free(b);
    shmemx_device_free(h);
    shmemx_device_free(l);
}

/* ---- block and warp groups ---- */
#define GBLOCKS 2
#define GTHREADS 40 /* a full warp and a partial one of 8 */
#define GLEN 1003   /* elements per block: not a multiple of anything */
struct group_args {
    long *src, *dst, *got;
    shmemd_half_t *hsrc, *hdst;
    unsigned char *bsrc, *bdst;
};

static void group_kernel(void *p)
{
    const struct group_args *a = p;
    int me = shmemd_my_pe(), n = shmemd_n_pes(), next = (me + 1) % n, prev = (me + n - 1) % n;
    size_t b = shmemd_block_idx() * GLEN;
    unsigned t = shmemd_thread_idx(), w = t / SHMEMD_WARP_SIZE, wb = b + w * (GLEN / 2);
    size_t wlen = w == 0 ? GLEN / 2 : GLEN - GLEN / 2;
    shmemd_long_put_block(a->dst + b, a->src + b, GLEN, next);
    /* Each warp moves its half of the block's half-floats and bytes. */
    shmemd_half_put_nbi_warp(a->hdst + wb, a->hsrc + wb, wlen, next);
    shmemd_putmem_warp(a->bdst + wb, a->bsrc + wb, wlen, next);
    shmemd_warp_sync();
    shmemd_quiet();
    shmemd_barrier_all();
    shmemd_long_get_nbi_block(a->got + b, a->src + b, GLEN / 2, prev);
    shmemd_long_get_warp(a->got + b + GLEN / 2 + w * 100, a->src + b + GLEN / 2 + w * 100,
                         w == 0 ? 100 : GLEN - GLEN / 2 - 100, prev);
    shmemd_quiet();
    shmemd_barrier_all();
    shmemd_getmem_nbi_warp(a->bdst + GBLOCKS * GLEN + wb, a->bsrc + wb, wlen, me);
    shmemd_putmem_nbi_block(a->bdst + 2 * GLEN * GBLOCKS + b, a->bsrc + b, GLEN, me);
    shmemd_long_put_warp(a->dst + GBLOCKS * GLEN + b + w * 10, a->src + b, 10, next);
    shmemd_half_get_block(a->hdst + GBLOCKS * GLEN + b, a->hsrc + b, 7, prev);
    shmemd_quiet();
}

static void test_groups(void)
{
    size_t total = GBLOCKS * GLEN;
    long *src = shmemx_device_malloc(total * sizeof(long));
    long *dst = shmemx_device_calloc(2 * total, sizeof(long));
    long *got = shmemx_device_calloc(total, sizeof(long));
    shmemd_half_t *hsrc = shmemx_device_malloc(total * sizeof *hsrc);
    shmemd_half_t *hdst = shmemx_device_calloc(2 * total, sizeof *hdst);
    unsigned char *bsrc = shmemx_device_malloc(total);
    unsigned char *bdst = shmemx_device_calloc(3 * total, 1);
    for (size_t i = 0; i < total; i++) {
        src[i] = me_ * 100000L + (long)i;
        hsrc[i] = shmemd_float_to_half((float)((me_ * 7 + (int)i) % 2000));
        bsrc[i] = byte_of(me_, i);
    }
    shmem_barrier_all();
    struct group_args a = {src, dst, got, hsrc, hdst, bsrc, bdst};
    shmemx_launch(group_kernel, GBLOCKS, GTHREADS, &a, sizeof a, NULL);
    shmemx_stream_synchronize(NULL);
    shmem_barrier_all();
    int prev = (me_ + n_ - 1) % n_;
    for (size_t i = 0; i < total; i++) {
        CHECK(dst[i] == prev * 100000L + (long)i, "long_put_block [%zu] = %ld", i, dst[i]);
        CHECK(got[i] == prev * 100000L + (long)i, "long_get block/warp [%zu] = %ld", i, got[i]);
        CHECK(shmemd_half_to_float(hdst[i]) == (float)((prev * 7 + (int)i) % 2000),
              "half_put_nbi_warp [%zu]", i);
        CHECK(bdst[i] == byte_of(prev, i), "putmem_warp [%zu]", i);
        CHECK(bdst[total + i] == byte_of(me_, i), "getmem_nbi_warp [%zu]", i);
        CHECK(bdst[2 * total + i] == byte_of(me_, i), "putmem_nbi_block [%zu]", i);
    }
    for (size_t blk = 0; blk < GBLOCKS; blk++)
        for (size_t i = 0; i < 20; i++) {
            size_t base = blk * GLEN;
            CHECK(dst[total + base + i] == prev * 100000L + (long)(base + i % 10),
                  "long_put_warp block %zu [%zu]", blk, i);
            if (i < 7)
                CHECK(shmemd_half_to_float(hdst[total + base + i]) ==
                          (float)((prev * 7 + (int)(base + i)) % 2000), "half_get_block");
        }
    shmem_barrier_all();
    shmemx_device_free(bdst);
    shmemx_device_free(bsrc);
    shmemx_device_free(hdst);
    shmemx_device_free(hsrc);
    shmemx_device_free(got);
    shmemx_device_free(dst);
    shmemx_device_free(src);
}

/* ---- the unified buffer ---- */
#define UB_BLOCKS 3
#define UB_LEN 4096
struct ub_args {
    unsigned char *src, *dst, *seen;
    uintptr_t *bases;
    size_t *size;
};

static void ub_kernel(void *p)
{
    const struct ub_args *a = p;
    int me = shmemd_my_pe(), n = shmemd_n_pes(), next = (me + 1) % n, prev = (me + n - 1) % n;
    unsigned blk = shmemd_block_idx();
    unsigned char *ub = shmemd_ub_base();
    if (shmemd_thread_idx() == 0) {
        a->bases[blk] = (uintptr_t)ub;
        if (blk == 0)
            a->size[0] = shmemd_ub_size();
        /* Fill the block's buffer, move it out, bring the previous PE's in. */
        for (size_t i = 0; i < UB_LEN; i++)
            ub[i] = (unsigned char)(blk * 5 + i * 3 + (size_t)me);
        shmemd_putmem_ub(a->dst + blk * UB_LEN, ub, UB_LEN / 2, next);
        shmemd_putmem_ub_nbi(a->dst + blk * UB_LEN + UB_LEN / 2, ub + UB_LEN / 2, UB_LEN / 2,
                             next);
        shmemd_quiet();
    }
    shmemd_barrier_all();
    if (shmemd_thread_idx() == 0) {
        unsigned char *in = ub + shmemd_ub_size() - UB_LEN; /* its far end */
        shmemd_getmem_ub(in, a->src + blk * UB_LEN, UB_LEN / 2, prev);
        shmemd_getmem_ub_nbi(in + UB_LEN / 2, a->src + blk * UB_LEN + UB_LEN / 2, UB_LEN / 2,
                             prev);
        shmemd_quiet();
        memcpy(a->seen + blk * UB_LEN, in, UB_LEN);
    }
}

static void test_ub(void)
{
    unsigned char *src = shmemx_device_malloc(UB_BLOCKS * UB_LEN);
    unsigned char *dst = shmemx_device_calloc(UB_BLOCKS * UB_LEN, 1);
    unsigned char *seen = shmemx_device_calloc(UB_BLOCKS * UB_LEN, 1);
    uintptr_t *bases = shmemx_device_calloc(UB_BLOCKS, sizeof *bases);
    size_t *size = shmemx_device_calloc(1, sizeof *size);
    for (size_t i = 0; i < UB_BLOCKS * UB_LEN; i++)
        src[i] = byte_of(me_, i);
    shmem_barrier_all();
    struct ub_args a = {src, dst, seen, bases, size};
    shmemx_launch(ub_kernel, UB_BLOCKS, 2, &a, sizeof a, NULL);
    shmemx_stream_synchronize(NULL);
    shmem_barrier_all();
    const char *env = getenv("SHMEM_DEVICE_UB_SIZE");
    CHECK(*size == (env ? (size_t)atol(env) * 1024 : 192 * 1024), "ub size %zu", *size);
    for (int i = 0; i < UB_BLOCKS; i++)
        for (int j = 0; j < i; j++)
            CHECK(bases[i] && bases[i] != bases[j], "blocks %d and %d share a unified buffer", i, j);
    int prev = (me_ + n_ - 1) % n_;
    for (size_t blk = 0; blk < UB_BLOCKS; blk++)
        for (size_t i = 0; i < UB_LEN; i++) {
            CHECK(dst[blk * UB_LEN + i] == (unsigned char)(blk * 5 + i * 3 + (size_t)prev),
                  "putmem_ub block %zu byte %zu", blk, i);
            CHECK(seen[blk * UB_LEN + i] == byte_of(prev, blk * UB_LEN + i),
                  "getmem_ub block %zu byte %zu", blk, i);
        }
    shmem_barrier_all();
    shmemx_device_free(size);
    shmemx_device_free(bases);
    shmemx_device_free(seen);
    shmemx_device_free(dst);
    shmemx_device_free(src);
}

/* ---- ordering: publish data, then a flag ---- */
#define ROUNDS 40
#define ORDER_TRIES 8
#define DATA 16
enum order_mode { ORDER_NONE, ORDER_FENCE, ORDER_QUIET };
struct order_args {
    long *data, *src; /* DATA words */
    uint64_t *flag, *ack;
    long *stale;
    enum order_mode mode;
};

static void order_kernel(void *p)
{
    const struct order_args *a = p;
    int me = shmemd_my_pe(), n = shmemd_n_pes(), next = (me + 1) % n, prev = (me + n - 1) % n;
    if (shmemd_block_idx() == 0) { /* producer, to the next PE */
        for (int r = 1; r <= ROUNDS; r++) {
            for (int i = 0; i < DATA; i++)
                a->src[i] = r * 1000 + i;
            shmemd_long_put_nbi(a->data, a->src, DATA, next);
            if (a->mode == ORDER_FENCE)
                shmemd_fence();
            else if (a->mode == ORDER_QUIET)
                shmemd_quiet();
            shmemd_signal_op(a->flag, (uint64_t)r, SHMEM_SIGNAL_SET, next);
            /* The source may be rewritten once the consumer has read and
             * quiet says the engine has too. */
            shmemd_signal_wait_until(a->ack, SHMEM_CMP_GE, (uint64_t)r);
            shmemd_quiet();
        }
    } else { /* consumer, of the previous PE */
        for (int r = 1; r <= ROUNDS; r++) {
            shmemd_signal_wait_until(a->flag, SHMEM_CMP_GE, (uint64_t)r);
            int bad = 0;
            for (int i = 0; i < DATA; i++)
                bad |= __atomic_load_n(&a->data[i], __ATOMIC_ACQUIRE) != r * 1000 + i;
            *a->stale += bad;
            shmemd_signal_op(a->ack, (uint64_t)r, SHMEM_SIGNAL_SET, prev);
            shmemd_quiet();
        }
    }
}

static int test_order(const char *mode, int expect_stale)
{
    enum order_mode m = !strcmp(mode, "fence") ? ORDER_FENCE
                        : !strcmp(mode, "quiet") ? ORDER_QUIET : ORDER_NONE;
    long *data = shmemx_device_calloc(DATA, sizeof(long));
    long *src = shmemx_device_calloc(DATA, sizeof(long));
    uint64_t *flag = shmemx_device_calloc(1, sizeof(uint64_t));
    uint64_t *ack = shmemx_device_calloc(1, sizeof(uint64_t));
    long *stale = shmemx_device_calloc(1, sizeof(long));
    struct order_args a = {data, src, flag, ack, stale, m};
    long mine = 0;
    static long in, total;
    /* A machine loaded by other tests can run the engines' queues in order
     * for a whole launch: without a fence, up to ORDER_TRIES launches run
     * until some round sees stale data (which the negative test wants, and
     * its WILL_FAIL twin must see to fail). */
    for (int t = 0; t < (m == ORDER_NONE ? ORDER_TRIES : 1); t++) {
        *flag = *ack = 0;
        memset(data, 0, DATA * sizeof(long));
        shmem_barrier_all();
        shmemx_launch(order_kernel, 2, 1, &a, sizeof a, NULL);
        shmemx_stream_synchronize(NULL);
        shmem_barrier_all();
        mine += *stale;
        in = *stale;
        *stale = 0;
        shmem_barrier_all();
        shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &total, &in, 1);
        if (total > 0)
            break;
    }
    printf("PE %d: %ld rounds (of %d a launch) saw stale data (%s between data and flag)\n", me_,
           mine, ROUNDS, mode);
    if (expect_stale)
        CHECK(total > 0, "no round saw stale data without a fence: the simulator did not "
                         "reorder (SHMEM_DEVICE_ORDERING=%s)",
              getenv("SHMEM_DEVICE_ORDERING") ? getenv("SHMEM_DEVICE_ORDERING") : "unset");
    else
        CHECK(mine == 0, "%ld of %d rounds read stale data after the flag (%s)", mine, ROUNDS,
              mode);
    shmem_barrier_all();
    shmemx_device_free(stale);
    shmemx_device_free(ack);
    shmemx_device_free(flag);
    shmemx_device_free(src);
    shmemx_device_free(data);
    return 0;
}

/* ---- errors ---- */
static void unreachable_kernel(void *p)
{
    long *x = *(long **)p;
    int n = shmemd_n_pes();
    shmemd_long_put_nbi_mte(x, x + 1, 1, (shmemd_my_pe() + n / 2) % n);
    shmemd_quiet();
}

static void ub_outside_kernel(void *p)
{
    long *x = *(long **)p;
    shmemd_putmem_ub(x, x + 1, sizeof(long), shmemd_my_pe());
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "all";
    shmem_init();
    me_ = shmem_my_pe();
    n_ = shmem_n_pes();
    if (!strcmp(mode, "order")) {
        CHECK(argc > 2, "order none|fence|quiet [expect-stale]");
        test_order(argv[2], argc > 3 && !strcmp(argv[3], "expect-stale"));
    } else if (!strcmp(mode, "unreachable") || !strcmp(mode, "ub_outside")) {
        long *x = shmemx_device_calloc(2, sizeof(long));
        shmemx_launch(!strcmp(mode, "ub_outside") ? ub_outside_kernel : unreachable_kernel, 1,
                      1, &x, sizeof x, NULL);
        shmemx_stream_synchronize(NULL);
        shmem_barrier_all();
        CHECK(0, "%s: the kernel was not stopped", mode);
    } else {
#define RUN_TYPED(T, N) test_typed_##N();
        SHMEMD_RMA_TYPE_TABLE(RUN_TYPED)
        test_sized();
        test_generic();
        test_groups();
        test_ub();
    }
    shmem_finalize();
    if (me_ == 0)
        printf("device_rma %s: %d PEs passed\n", mode, n_);
    return 0;
}
