/*
 * Remote memory access routines, generated from the type tables.
 */
#include <shmem/shmem.h>

#include "api/ctx.h"

#define CH(ctx, routine) oshm_channel(ctx, routine)
#define DEFAULT_CH (&hcomm.default_channel)

/* ---- typed ---- */
#define DEFINE_TYPED_RMA(T, N)                                                                \
    void shmem_ctx_##N##_put(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems,        \
                             int pe)                                                          \
    {                                                                                         \
        hcomm_put(CH(ctx, "shmem_ctx_" #N "_put"), dest, source, nelems * sizeof(T), pe,      \
                  false, "shmem_ctx_" #N "_put");                                             \
    }                                                                                         \
    void shmem_##N##_put(T *dest, const T *source, size_t nelems, int pe)                     \
    {                                                                                         \
        hcomm_put(DEFAULT_CH, dest, source, nelems * sizeof(T), pe, false,                    \
                  "shmem_" #N "_put");                                                        \
    }                                                                                         \
    void shmem_ctx_##N##_put_nbi(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems,    \
                                 int pe)                                                      \
    {                                                                                         \
        hcomm_put(CH(ctx, "shmem_ctx_" #N "_put_nbi"), dest, source, nelems * sizeof(T), pe,  \
                  true, "shmem_ctx_" #N "_put_nbi");                                          \
    }                                                                                         \
    void shmem_##N##_put_nbi(T *dest, const T *source, size_t nelems, int pe)                 \
    {                                                                                         \
        hcomm_put(DEFAULT_CH, dest, source, nelems * sizeof(T), pe, true,                     \
                  "shmem_" #N "_put_nbi");                                                    \
    }                                                                                         \
    void shmem_ctx_##N##_get(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems,        \
                             int pe)                                                          \
    {                                                                                         \
        hcomm_get(CH(ctx, "shmem_ctx_" #N "_get"), dest, source, nelems * sizeof(T), pe,      \
                  false, "shmem_ctx_" #N "_get");                                             \
    }                                                                                         \
    void shmem_##N##_get(T *dest, const T *source, size_t nelems, int pe)                     \
    {                                                                                         \
        hcomm_get(DEFAULT_CH, dest, source, nelems * sizeof(T), pe, false,                    \
                  "shmem_" #N "_get");                                                        \
    }                                                                                         \
    void shmem_ctx_##N##_get_nbi(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems,    \
                                 int pe)                                                      \
    {                                                                                         \
        hcomm_get(CH(ctx, "shmem_ctx_" #N "_get_nbi"), dest, source, nelems * sizeof(T), pe,  \
                  true, "shmem_ctx_" #N "_get_nbi");                                          \
    }                                                                                         \
    void shmem_##N##_get_nbi(T *dest, const T *source, size_t nelems, int pe)                 \
    {                                                                                         \
        hcomm_get(DEFAULT_CH, dest, source, nelems * sizeof(T), pe, true,                     \
                  "shmem_" #N "_get_nbi");                                                    \
    }                                                                                         \
    void shmem_ctx_##N##_p(shmem_ctx_t ctx, T *dest, T value, int pe)                         \
    {                                                                                         \
        hcomm_put(CH(ctx, "shmem_ctx_" #N "_p"), dest, &value, sizeof(T), pe, false,          \
                  "shmem_ctx_" #N "_p");                                                      \
    }                                                                                         \
    void shmem_##N##_p(T *dest, T value, int pe)                                              \
    {                                                                                         \
        hcomm_put(DEFAULT_CH, dest, &value, sizeof(T), pe, false, "shmem_" #N "_p");          \
    }                                                                                         \
    T shmem_ctx_##N##_g(shmem_ctx_t ctx, const T *source, int pe)                             \
    {                                                                                         \
        T value;                                                                              \
        hcomm_get(CH(ctx, "shmem_ctx_" #N "_g"), &value, source, sizeof(T), pe, false,        \
                  "shmem_ctx_" #N "_g");                                                      \
        return value;                                                                         \
    }                                                                                         \
    T shmem_##N##_g(const T *source, int pe)                                                  \
    {                                                                                         \
        T value;                                                                              \
        hcomm_get(DEFAULT_CH, &value, source, sizeof(T), pe, false, "shmem_" #N "_g");        \
        return value;                                                                         \
    }                                                                                         \
    void shmem_ctx_##N##_iput(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst,       \
                              ptrdiff_t sst, size_t nelems, int pe)                           \
    {                                                                                         \
        hcomm_iput(CH(ctx, "shmem_ctx_" #N "_iput"), dest, source, dst, sst, sizeof(T),       \
                   nelems, pe, "shmem_ctx_" #N "_iput");                                      \
    }                                                                                         \
    void shmem_##N##_iput(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,             \
                          size_t nelems, int pe)                                              \
    {                                                                                         \
        hcomm_iput(DEFAULT_CH, dest, source, dst, sst, sizeof(T), nelems, pe,                 \
                   "shmem_" #N "_iput");                                                      \
    }                                                                                         \
    void shmem_ctx_##N##_iget(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst,       \
                              ptrdiff_t sst, size_t nelems, int pe)                           \
    {                                                                                         \
        hcomm_iget(CH(ctx, "shmem_ctx_" #N "_iget"), dest, source, dst, sst, sizeof(T),       \
                   nelems, pe, "shmem_ctx_" #N "_iget");                                      \
    }                                                                                         \
    void shmem_##N##_iget(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,             \
                          size_t nelems, int pe)                                              \
    {                                                                                         \
        hcomm_iget(DEFAULT_CH, dest, source, dst, sst, sizeof(T), nelems, pe,                 \
                   "shmem_" #N "_iget");                                                      \
    }
SHMEM_RMA_TYPE_TABLE(DEFINE_TYPED_RMA)

/* ---- sized and bytewise: element size in bytes, NAME as in the API ---- */
#define DEFINE_UNTYPED_RMA(SIZE, PUT, GET)                                                    \
    void shmem_ctx_##PUT(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,      \
                         int pe)                                                              \
    {                                                                                         \
        hcomm_put(CH(ctx, "shmem_ctx_" #PUT), dest, source, nelems * (SIZE), pe, false,       \
                  "shmem_ctx_" #PUT);                                                         \
    }                                                                                         \
    void shmem_##PUT(void *dest, const void *source, size_t nelems, int pe)                   \
    {                                                                                         \
        hcomm_put(DEFAULT_CH, dest, source, nelems * (SIZE), pe, false, "shmem_" #PUT);       \
    }                                                                                         \
    void shmem_ctx_##PUT##_nbi(shmem_ctx_t ctx, void *dest, const void *source,               \
                               size_t nelems, int pe)                                         \
    {                                                                                         \
        hcomm_put(CH(ctx, "shmem_ctx_" #PUT "_nbi"), dest, source, nelems * (SIZE), pe, true, \
                  "shmem_ctx_" #PUT "_nbi");                                                  \
    }                                                                                         \
    void shmem_##PUT##_nbi(void *dest, const void *source, size_t nelems, int pe)             \
    {                                                                                         \
        hcomm_put(DEFAULT_CH, dest, source, nelems * (SIZE), pe, true, "shmem_" #PUT "_nbi"); \
    }                                                                                         \
    void shmem_ctx_##GET(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,      \
                         int pe)                                                              \
    {                                                                                         \
        hcomm_get(CH(ctx, "shmem_ctx_" #GET), dest, source, nelems * (SIZE), pe, false,       \
                  "shmem_ctx_" #GET);                                                         \
    }                                                                                         \
    void shmem_##GET(void *dest, const void *source, size_t nelems, int pe)                   \
    {                                                                                         \
        hcomm_get(DEFAULT_CH, dest, source, nelems * (SIZE), pe, false, "shmem_" #GET);       \
    }                                                                                         \
    void shmem_ctx_##GET##_nbi(shmem_ctx_t ctx, void *dest, const void *source,               \
                               size_t nelems, int pe)                                         \
    {                                                                                         \
        hcomm_get(CH(ctx, "shmem_ctx_" #GET "_nbi"), dest, source, nelems * (SIZE), pe, true, \
                  "shmem_ctx_" #GET "_nbi");                                                  \
    }                                                                                         \
    void shmem_##GET##_nbi(void *dest, const void *source, size_t nelems, int pe)             \
    {                                                                                         \
        hcomm_get(DEFAULT_CH, dest, source, nelems * (SIZE), pe, true, "shmem_" #GET "_nbi"); \
    }

#define DEFINE_SIZED_RMA(BITS, UNIT)                                                          \
    DEFINE_UNTYPED_RMA(BITS / 8, put##BITS, get##BITS)                                        \
    void shmem_ctx_iput##BITS(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, \
                              ptrdiff_t sst, size_t nelems, int pe)                           \
    {                                                                                         \
        hcomm_iput(CH(ctx, "shmem_ctx_iput" #BITS), dest, source, dst, sst, BITS / 8, nelems, \
                   pe, "shmem_ctx_iput" #BITS);                                               \
    }                                                                                         \
    void shmem_iput##BITS(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,       \
                          size_t nelems, int pe)                                              \
    {                                                                                         \
        hcomm_iput(DEFAULT_CH, dest, source, dst, sst, BITS / 8, nelems, pe,                  \
                   "shmem_iput" #BITS);                                                       \
    }                                                                                         \
    void shmem_ctx_iget##BITS(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, \
                              ptrdiff_t sst, size_t nelems, int pe)                           \
    {                                                                                         \
        hcomm_iget(CH(ctx, "shmem_ctx_iget" #BITS), dest, source, dst, sst, BITS / 8, nelems, \
                   pe, "shmem_ctx_iget" #BITS);                                               \
    }                                                                                         \
    void shmem_iget##BITS(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,       \
                          size_t nelems, int pe)                                              \
    {                                                                                         \
        hcomm_iget(DEFAULT_CH, dest, source, dst, sst, BITS / 8, nelems, pe,                  \
                   "shmem_iget" #BITS);                                                       \
    }
SHMEM_SIZED_TABLE(DEFINE_SIZED_RMA)

DEFINE_UNTYPED_RMA(1, putmem, getmem)

/* ---- ordering ---- */
void shmem_ctx_fence(shmem_ctx_t ctx) { hcomm_fence(CH(ctx, "shmem_ctx_fence")); }
void shmem_fence(void) { hcomm_fence(DEFAULT_CH); }
void shmem_ctx_quiet(shmem_ctx_t ctx) { hcomm_quiet(CH(ctx, "shmem_ctx_quiet")); }
void shmem_quiet(void) { hcomm_quiet(DEFAULT_CH); }
