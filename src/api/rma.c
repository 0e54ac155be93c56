/*
 * Remote memory access routines, generated from the type tables. Each
 * routine is its context form; the plain form uses SHMEM_CTX_DEFAULT.
 */
#include <stdint.h>
#include <stdlib.h>

#include "api/api.h"
#include "api/ctx.h"
#include "util/log.h"

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

static inline enum oshm_prof_family rma_family(bool put, bool nbi)
{
    return put ? (nbi ? OSHM_PROF_put_nbi : OSHM_PROF_put) : (nbi ? OSHM_PROF_get_nbi : OSHM_PROF_get);
}

/* A put or get: the fast path's work, the counted path's (PROF, api/ctx.h)
 * and the slow path's (util/prof.h). */
OSHM_ALWAYS_INLINE void rma_body(struct oshm_prof_thread *prof, bool put, shmem_ctx_t ctx,
                                 void *dest, const void *src, size_t bytes, int pe, bool nbi,
                                 const char *routine)
{
    struct hcomm_channel *ch = oshm_enter_fast(ctx, routine);
    int world = oshm_ctx_pe(ctx, pe, routine);
    oshm_prof_body(prof, put ? OSHM_PROF_ROUTE_PUT : OSHM_PROF_ROUTE_GET, bytes, world);
    if (put)
        hcomm_put(ch, dest, src, bytes, world, nbi, routine);
    else
        hcomm_get(ch, dest, src, bytes, world, nbi, routine);
    oshm_leave();
}

static __attribute__((noinline, cold)) void rma_slow(bool put, shmem_ctx_t ctx, void *dest,
                                                     const void *src, size_t bytes, int pe,
                                                     bool nbi, const char *routine)
{
    OSHM_SLOW_PATH(rma_family(put, nbi), routine, bytes, oshm_ctx_world(ctx, pe, routine),
                   rma_body(NULL, put, ctx, dest, src, bytes, pe, nbi, routine));
}

/* What the contiguous routines call: its one test, oshm_fast, is the
 * running check it always made, and covers the profiler too. One function
 * per direction and blocking kind, out of line with hcomm's path inlined in
 * it (flatten): the shape gcc gave these routines before the profiler; left
 * to itself it inlines the transfer into each routine and calls hcomm_put,
 * 2 instructions more per put (callgrind; docs/performance.md, "The built-in
 * profiler's cost"). NBI a constant in each, so that the counted path's
 * family is one too. */
OSHM_ALWAYS_INLINE void rma_xfer(bool put, shmem_ctx_t ctx, void *dest, const void *src,
                                 size_t bytes, int pe, bool nbi, const char *routine)
{
    if (!oshm_fast()) {
        struct oshm_prof_thread *prof = oshm_prof_leaf(rma_family(put, nbi), bytes);
        if (!prof)
            rma_slow(put, ctx, dest, src, bytes, pe, nbi, routine);
        else
            rma_body(prof, put, ctx, dest, src, bytes, pe, nbi, routine);
        return;
    }
    rma_body(NULL, put, ctx, dest, src, bytes, pe, nbi, routine);
}

#define DEFINE_RMA_XFER(NAME, PUT, NBI)                                                       \
    static __attribute__((noinline, flatten)) void NAME(shmem_ctx_t ctx, void *dest,          \
                                                        const void *src, size_t bytes, int pe, \
                                                        const char *routine)                  \
    {                                                                                         \
        rma_xfer(PUT, ctx, dest, src, bytes, pe, NBI, routine);                               \
    }
DEFINE_RMA_XFER(rma_put_blocking, true, false)
DEFINE_RMA_XFER(rma_put_nbi, true, true)
DEFINE_RMA_XFER(rma_get_blocking, false, false)
DEFINE_RMA_XFER(rma_get_nbi, false, true)

/* NBI is a constant wherever these are called. */
OSHM_ALWAYS_INLINE void rma_put(shmem_ctx_t ctx, void *dest, const void *src, size_t bytes, int pe,
                                bool nbi, const char *routine)
{
    (nbi ? rma_put_nbi : rma_put_blocking)(ctx, dest, src, bytes, pe, routine);
}

OSHM_ALWAYS_INLINE void rma_get(shmem_ctx_t ctx, void *dest, const void *src, size_t bytes, int pe,
                                bool nbi, const char *routine)
{
    (nbi ? rma_get_nbi : rma_get_blocking)(ctx, dest, src, bytes, pe, routine);
}

/* Strided and blocked transfers: NBLOCKS blocks of BSIZE elements of ELEM
 * bytes (hcomm.h); BLOCKED: a blocked routine's, whose strides are checked
 * against the block (iput's blocks are single elements). */
OSHM_ALWAYS_INLINE void strided_body(bool put, bool blocked, shmem_ctx_t ctx, void *dest,
                                     const void *src, ptrdiff_t dst, ptrdiff_t sst, size_t elem,
                                     size_t bsize, size_t nblocks, int pe, const char *routine)
{
    struct hcomm_channel *ch = oshm_enter_fast(ctx, routine);
    int world = oshm_ctx_pe(ctx, pe, routine);
    if (blocked)
        check_blocks(dst, sst, elem, bsize, nblocks, routine);
    if (put)
        hcomm_ibput(ch, dest, src, dst, sst, elem, bsize * elem, nblocks, world, routine);
    else
        hcomm_ibget(ch, dest, src, dst, sst, elem, bsize * elem, nblocks, world, routine);
    oshm_leave();
}

static __attribute__((noinline, cold)) void
strided_slow(bool put, bool blocked, shmem_ctx_t ctx, void *dest, const void *src, ptrdiff_t dst,
             ptrdiff_t sst, size_t elem, size_t bsize, size_t nblocks, int pe,
             const char *routine)
{
    OSHM_SLOW_PATH(
        put ? OSHM_PROF_iput : OSHM_PROF_iget, routine, bsize * elem * nblocks,
        oshm_ctx_world(ctx, pe, routine),
        strided_body(put, blocked, ctx, dest, src, dst, sst, elem, bsize, nblocks, pe, routine));
}

/* Inline in each routine, as its transfer always was: PUT and BLOCKED are
 * constants there. */
OSHM_ALWAYS_INLINE void strided(bool put, bool blocked, shmem_ctx_t ctx, void *dest,
                                const void *src, ptrdiff_t dst, ptrdiff_t sst, size_t elem,
                                size_t bsize, size_t nblocks, int pe, const char *routine)
{
    if (!oshm_fast()) {
        strided_slow(put, blocked, ctx, dest, src, dst, sst, elem, bsize, nblocks, pe, routine);
        return;
    }
    strided_body(put, blocked, ctx, dest, src, dst, sst, elem, bsize, nblocks, pe, routine);
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

#define DEFINE_STRIDED(PUT, NAME, T, ELEM)                                                    \
    OSHM_FN(void, shmem_ctx_##NAME, (shmem_ctx_t ctx, T *dest, const T *source,               \
                                     ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe))    \
    {                                                                                         \
        strided(PUT, false, ctx, dest, source, dst, sst, ELEM, 1, nelems, pe, "shmem_" #NAME); \
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
    DEFINE_STRIDED(true, IPUTN, T, ELEM)                                                      \
    DEFINE_STRIDED(false, IGETN, T, ELEM)

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

#define DEFINE_BLOCKED(PUT, NAME, T, ELEM)                                                    \
    OSHM_FN(void, shmem_ctx_##NAME,                                                           \
            (shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,         \
             size_t bsize, size_t nblocks, int pe))                                           \
    {                                                                                         \
        strided(PUT, true, ctx, dest, source, dst, sst, ELEM, bsize, nblocks, pe,             \
                "shmem_" #NAME);                                                              \
    }                                                                                         \
    OSHM_PLAIN_VOID(NAME, (T * dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,           \
                           size_t bsize, size_t nblocks, int pe),                             \
                    (SHMEM_CTX_DEFAULT, dest, source, dst, sst, bsize, nblocks, pe))

#define DEFINE_TYPED_BLOCKED(T, N)                                                            \
    DEFINE_BLOCKED(true, N##_ibput, T, sizeof(T))                                             \
    DEFINE_BLOCKED(false, N##_ibget, T, sizeof(T))
SHMEM_RMA_TYPE_TABLE(DEFINE_TYPED_BLOCKED)
#define DEFINE_SIZED_BLOCKED(BITS, UNIT)                                                      \
    DEFINE_BLOCKED(true, ibput##BITS, void, BITS / 8)                                         \
    DEFINE_BLOCKED(false, ibget##BITS, void, BITS / 8)
SHMEM_SIZED_TABLE(DEFINE_SIZED_BLOCKED)

DEFINE_CONTIGUOUS(rma_put, putmem, false, void, 1)
DEFINE_CONTIGUOUS(rma_put, putmem_nbi, true, void, 1)
DEFINE_CONTIGUOUS(rma_get, getmem, false, void, 1)
DEFINE_CONTIGUOUS(rma_get, getmem_nbi, true, void, 1)

/* ---- ordering: SHMEM_CTX_INVALID is a no-op here, by the specification ---- */
static inline void order(bool quiet, struct hcomm_channel *ch)
{
    if (!ch)
        return;
    if (quiet)
        hcomm_quiet(ch);
    else
        hcomm_fence(ch);
}

static __attribute__((noinline, cold)) void order_slow(bool quiet, struct hcomm_channel *ch,
                                                       const char *routine)
{
    OSHM_SLOW_PATH(quiet ? OSHM_PROF_quiet : OSHM_PROF_fence, routine, 0, -1, order(quiet, ch));
}

/* CH NULL: SHMEM_CTX_INVALID's, nothing to do. */
static inline void ordering(bool quiet, struct hcomm_channel *ch, const char *routine)
{
    if (!oshm_fast()) {
        if (!oshm_prof_leaf(quiet ? OSHM_PROF_quiet : OSHM_PROF_fence, 0)) {
            order_slow(quiet, ch, routine);
            return;
        }
    }
    order(quiet, ch);
}

OSHM_FN(void, shmem_ctx_fence, (shmem_ctx_t ctx))
{
    ordering(false, ctx != SHMEM_CTX_INVALID ? ctx->channel : NULL, "shmem_ctx_fence");
}
OSHM_FN(void, shmem_ctx_quiet, (shmem_ctx_t ctx))
{
    ordering(true, ctx != SHMEM_CTX_INVALID ? ctx->channel : NULL, "shmem_ctx_quiet");
}
OSHM_FN(void, shmem_fence, (void)) { ordering(false, &hcomm.default_channel, "shmem_fence"); }
OSHM_FN(void, shmem_quiet, (void)) { ordering(true, &hcomm.default_channel, "shmem_quiet"); }

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
    OSHM_PROFILED_LOCAL(OSHM_PROF_quiet, "shmem_ctx_pe_quiet", 0,
                        hcomm_pe_quiet(ctx->channel, world, npes));
    if (world != small)
        free(world);
}
OSHM_FN(void, shmem_pe_quiet, (const int *target_pes, size_t npes))
{
    pshmem_ctx_pe_quiet(SHMEM_CTX_DEFAULT, target_pes, npes);
}
