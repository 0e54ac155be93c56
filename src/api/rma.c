/*
 * Remote memory access routines, generated from the type tables. Each
 * routine is its context form; the plain form uses SHMEM_CTX_DEFAULT.
 */
#include <stdint.h>
#include <stdlib.h>

#include "api/api.h"
#include "api/ctx.h"
#include "util/log.h"

static inline void rma_put(shmem_ctx_t ctx, void *dest, const void *src, size_t bytes, int pe,
                           bool nbi, const char *routine)
{
    struct hcomm_channel *ch = oshm_enter(ctx, routine);
    hcomm_put(ch, dest, src, bytes, oshm_ctx_pe(ctx, pe, routine), nbi, routine);
    oshm_leave();
}

static inline void rma_get(shmem_ctx_t ctx, void *dest, const void *src, size_t bytes, int pe,
                           bool nbi, const char *routine)
{
    struct hcomm_channel *ch = oshm_enter(ctx, routine);
    hcomm_get(ch, dest, src, bytes, oshm_ctx_pe(ctx, pe, routine), nbi, routine);
    oshm_leave();
}

/* One blocking or non-blocking contiguous routine (ctx and plain form).
 * OP is rma_put or rma_get, NAME the routine name after "shmem_[ctx_]". */
#define DEFINE_CONTIGUOUS(OP, NAME, NBI, T, ELEM)                                             \
    OSHM_FN(void, shmem_ctx_##NAME, (shmem_ctx_t ctx, T *dest, const T *source,               \
                                     size_t nelems, int pe))                                  \
    {                                                                                         \
        OP(ctx, dest, source, nelems * (ELEM), pe, NBI, "shmem_" #NAME);                      \
    }                                                                                         \
    OSHM_PLAIN_VOID(NAME, (T * dest, const T *source, size_t nelems, int pe),                 \
                    (SHMEM_CTX_DEFAULT, dest, source, nelems, pe))

#define DEFINE_STRIDED(HOP, NAME, T, ELEM)                                                    \
    OSHM_FN(void, shmem_ctx_##NAME, (shmem_ctx_t ctx, T *dest, const T *source,               \
                                     ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe))    \
    {                                                                                         \
        struct hcomm_channel *ch = oshm_enter(ctx, "shmem_" #NAME);                           \
        HOP(ch, dest, source, dst, sst, ELEM, nelems, oshm_ctx_pe(ctx, pe, "shmem_" #NAME),   \
            "shmem_" #NAME);                                                                  \
        oshm_leave();                                                                         \
    }                                                                                         \
    OSHM_PLAIN_VOID(NAME, (T * dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,           \
                           size_t nelems, int pe),                                            \
                    (SHMEM_CTX_DEFAULT, dest, source, dst, sst, nelems, pe))

/* The eight routines of one element size; the names differ between the
 * typed (int_put) and sized (put32) families. */
#define DEFINE_RMA_FAMILY(PUTN, PUTN_NBI, GETN, GETN_NBI, IPUTN, IGETN, T, ELEM)              \
    DEFINE_CONTIGUOUS(rma_put, PUTN, false, T, ELEM)                                          \
    DEFINE_CONTIGUOUS(rma_put, PUTN_NBI, true, T, ELEM)                                       \
    DEFINE_CONTIGUOUS(rma_get, GETN, false, T, ELEM)                                          \
    DEFINE_CONTIGUOUS(rma_get, GETN_NBI, true, T, ELEM)                                       \
    DEFINE_STRIDED(hcomm_iput, IPUTN, T, ELEM)                                                \
    DEFINE_STRIDED(hcomm_iget, IGETN, T, ELEM)

#define DEFINE_TYPED_RMA(T, N)                                                                \
    DEFINE_RMA_FAMILY(N##_put, N##_put_nbi, N##_get, N##_get_nbi, N##_iput, N##_iget, T,      \
                      sizeof(T))                                                              \
    OSHM_FN(void, shmem_ctx_##N##_p, (shmem_ctx_t ctx, T *dest, T value, int pe))             \
    {                                                                                         \
        rma_put(ctx, dest, &value, sizeof(T), pe, false, "shmem_" #N "_p");                   \
    }                                                                                         \
    OSHM_FN(T, shmem_ctx_##N##_g, (shmem_ctx_t ctx, const T *source, int pe))                 \
    {                                                                                         \
        T value;                                                                              \
        rma_get(ctx, &value, source, sizeof(T), pe, false, "shmem_" #N "_g");                 \
        return value;                                                                         \
    }                                                                                         \
    OSHM_PLAIN_VOID(N##_p, (T * dest, T value, int pe), (SHMEM_CTX_DEFAULT, dest, value, pe)) \
    OSHM_PLAIN_RET(T, N##_g, (const T *source, int pe), (SHMEM_CTX_DEFAULT, source, pe))
SHMEM_RMA_TYPE_TABLE(DEFINE_TYPED_RMA)

#define DEFINE_SIZED_RMA(BITS, UNIT)                                                          \
    DEFINE_RMA_FAMILY(put##BITS, put##BITS##_nbi, get##BITS, get##BITS##_nbi, iput##BITS,     \
                      iget##BITS, void, BITS / 8)
SHMEM_SIZED_TABLE(DEFINE_SIZED_RMA)

/* ---- blocked strided RMA (OpenSHMEM 1.6) ---- */

/* The specification wants each stride at least the block size (blocks
 * never overlap), and the block's bytes must be a size_t. */
static void check_blocks(ptrdiff_t dst, ptrdiff_t sst, size_t elem, size_t bsize,
                         size_t nblocks, const char *routine)
{
    if (!nblocks || !bsize)
        return;
    if (bsize > (size_t)PTRDIFF_MAX / elem || dst < (ptrdiff_t)bsize || sst < (ptrdiff_t)bsize)
        oshm_fatal("%s: block size %zu with strides dst %td and sst %td: each stride must be "
                   "at least the block size",
                   routine, bsize, dst, sst);
}

#define DEFINE_BLOCKED(HOP, NAME, T, ELEM)                                                    \
    OSHM_FN(void, shmem_ctx_##NAME,                                                           \
            (shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,         \
             size_t bsize, size_t nblocks, int pe))                                           \
    {                                                                                         \
        struct hcomm_channel *ch = oshm_enter(ctx, "shmem_" #NAME);                           \
        int world = oshm_ctx_pe(ctx, pe, "shmem_" #NAME);                                     \
        check_blocks(dst, sst, ELEM, bsize, nblocks, "shmem_" #NAME);                         \
        HOP(ch, dest, source, dst, sst, ELEM, bsize * (ELEM), nblocks, world, "shmem_" #NAME); \
        oshm_leave();                                                                         \
    }                                                                                         \
    OSHM_PLAIN_VOID(NAME, (T * dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,           \
                           size_t bsize, size_t nblocks, int pe),                             \
                    (SHMEM_CTX_DEFAULT, dest, source, dst, sst, bsize, nblocks, pe))

#define DEFINE_TYPED_BLOCKED(T, N)                                                            \
    DEFINE_BLOCKED(hcomm_ibput, N##_ibput, T, sizeof(T))                                      \
    DEFINE_BLOCKED(hcomm_ibget, N##_ibget, T, sizeof(T))
SHMEM_RMA_TYPE_TABLE(DEFINE_TYPED_BLOCKED)
#define DEFINE_SIZED_BLOCKED(BITS, UNIT)                                                      \
    DEFINE_BLOCKED(hcomm_ibput, ibput##BITS, void, BITS / 8)                                  \
    DEFINE_BLOCKED(hcomm_ibget, ibget##BITS, void, BITS / 8)
SHMEM_SIZED_TABLE(DEFINE_SIZED_BLOCKED)

DEFINE_CONTIGUOUS(rma_put, putmem, false, void, 1)
DEFINE_CONTIGUOUS(rma_put, putmem_nbi, true, void, 1)
DEFINE_CONTIGUOUS(rma_get, getmem, false, void, 1)
DEFINE_CONTIGUOUS(rma_get, getmem_nbi, true, void, 1)

/* ---- ordering: SHMEM_CTX_INVALID is a no-op here, by the specification ---- */
OSHM_FN(void, shmem_ctx_fence, (shmem_ctx_t ctx))
{
    oshm_require_init("shmem_ctx_fence");
    if (ctx != SHMEM_CTX_INVALID)
        hcomm_fence(ctx->channel);
}
OSHM_FN(void, shmem_ctx_quiet, (shmem_ctx_t ctx))
{
    oshm_require_init("shmem_ctx_quiet");
    if (ctx != SHMEM_CTX_INVALID)
        hcomm_quiet(ctx->channel);
}
OSHM_FN(void, shmem_fence, (void))
{
    oshm_require_init("shmem_fence");
    hcomm_fence(&hcomm.default_channel);
}
OSHM_FN(void, shmem_quiet, (void))
{
    oshm_require_init("shmem_quiet");
    hcomm_quiet(&hcomm.default_channel);
}

/* Only the listed PEs' operations are completed where the backend can
 * single one out (UCX flushes one endpoint; shared memory has nothing in
 * flight). PE numbers are the context's team's, like every other
 * routine's. */
OSHM_FN(void, shmem_ctx_pe_quiet, (shmem_ctx_t ctx, const int *target_pes, size_t npes))
{
    oshm_require_init("shmem_ctx_pe_quiet");
    if (ctx == SHMEM_CTX_INVALID || npes == 0)
        return;
    if (!target_pes)
        oshm_fatal("shmem_ctx_pe_quiet: target_pes is NULL with npes %zu", npes);
    int small[16];
    int *world = npes <= 16 ? small : malloc(npes * sizeof *world);
    if (!world)
        oshm_fatal("shmem_ctx_pe_quiet: out of memory for %zu PE numbers", npes);
    for (size_t i = 0; i < npes; i++)
        world[i] = oshm_ctx_pe(ctx, target_pes[i], "shmem_ctx_pe_quiet");
    hcomm_pe_quiet(ctx->channel, world, npes);
    if (world != small)
        free(world);
}
OSHM_FN(void, shmem_pe_quiet, (const int *target_pes, size_t npes))
{
    pshmem_ctx_pe_quiet(SHMEM_CTX_DEFAULT, target_pes, npes);
}
