/*
 * Remote memory access routines, generated from the type tables. Each
 * routine is its context form; the plain form uses SHMEM_CTX_DEFAULT.
 */
#include "api/api.h"
#include "api/ctx.h"

#define PUT(ctx, dest, src, bytes, pe, nbi, routine) \
    hcomm_put(oshm_channel(ctx, routine), dest, src, bytes, oshm_ctx_pe(ctx, pe, routine), nbi, routine)
#define GET(ctx, dest, src, bytes, pe, nbi, routine) \
    hcomm_get(oshm_channel(ctx, routine), dest, src, bytes, oshm_ctx_pe(ctx, pe, routine), nbi, routine)

/* One blocking or non-blocking contiguous routine (ctx and plain form).
 * OP is PUT or GET, NAME the routine name after "shmem_[ctx_]". */
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
        HOP(oshm_channel(ctx, "shmem_" #NAME), dest, source, dst, sst, ELEM, nelems,          \
            oshm_ctx_pe(ctx, pe, "shmem_" #NAME), "shmem_" #NAME);                            \
    }                                                                                         \
    OSHM_PLAIN_VOID(NAME, (T * dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,           \
                           size_t nelems, int pe),                                            \
                    (SHMEM_CTX_DEFAULT, dest, source, dst, sst, nelems, pe))

/* The eight routines of one element size; the names differ between the
 * typed (int_put) and sized (put32) families. */
#define DEFINE_RMA_FAMILY(PUTN, PUTN_NBI, GETN, GETN_NBI, IPUTN, IGETN, T, ELEM)            \
    DEFINE_CONTIGUOUS(PUT, PUTN, false, T, ELEM)                                              \
    DEFINE_CONTIGUOUS(PUT, PUTN_NBI, true, T, ELEM)                                           \
    DEFINE_CONTIGUOUS(GET, GETN, false, T, ELEM)                                              \
    DEFINE_CONTIGUOUS(GET, GETN_NBI, true, T, ELEM)                                           \
    DEFINE_STRIDED(hcomm_iput, IPUTN, T, ELEM)                                                \
    DEFINE_STRIDED(hcomm_iget, IGETN, T, ELEM)

#define DEFINE_TYPED_RMA(T, N)                                                                \
    DEFINE_RMA_FAMILY(N##_put, N##_put_nbi, N##_get, N##_get_nbi, N##_iput, N##_iget, T,      \
                      sizeof(T))                                                              \
    OSHM_FN(void, shmem_ctx_##N##_p, (shmem_ctx_t ctx, T *dest, T value, int pe))             \
    {                                                                                         \
        PUT(ctx, dest, &value, sizeof(T), pe, false, "shmem_" #N "_p");                       \
    }                                                                                         \
    OSHM_FN(T, shmem_ctx_##N##_g, (shmem_ctx_t ctx, const T *source, int pe))                 \
    {                                                                                         \
        T value;                                                                              \
        GET(ctx, &value, source, sizeof(T), pe, false, "shmem_" #N "_g");                     \
        return value;                                                                         \
    }                                                                                         \
    OSHM_PLAIN_VOID(N##_p, (T * dest, T value, int pe), (SHMEM_CTX_DEFAULT, dest, value, pe)) \
    OSHM_PLAIN_RET(T, N##_g, (const T *source, int pe), (SHMEM_CTX_DEFAULT, source, pe))
SHMEM_RMA_TYPE_TABLE(DEFINE_TYPED_RMA)

#define DEFINE_SIZED_RMA(BITS, UNIT)                                                          \
    DEFINE_RMA_FAMILY(put##BITS, put##BITS##_nbi, get##BITS, get##BITS##_nbi, iput##BITS,     \
                      iget##BITS, void, BITS / 8)
SHMEM_SIZED_TABLE(DEFINE_SIZED_RMA)

DEFINE_CONTIGUOUS(PUT, putmem, false, void, 1)
DEFINE_CONTIGUOUS(PUT, putmem_nbi, true, void, 1)
DEFINE_CONTIGUOUS(GET, getmem, false, void, 1)
DEFINE_CONTIGUOUS(GET, getmem_nbi, true, void, 1)

/* ---- ordering: SHMEM_CTX_INVALID is a no-op here, by the specification ---- */
OSHM_FN(void, shmem_ctx_fence, (shmem_ctx_t ctx))
{
    if (ctx != SHMEM_CTX_INVALID)
        hcomm_fence(ctx->channel);
}
OSHM_FN(void, shmem_ctx_quiet, (shmem_ctx_t ctx))
{
    if (ctx != SHMEM_CTX_INVALID)
        hcomm_quiet(ctx->channel);
}
OSHM_FN(void, shmem_fence, (void)) { hcomm_fence(&hcomm.default_channel); }
OSHM_FN(void, shmem_quiet, (void)) { hcomm_quiet(&hcomm.default_channel); }
