/*
 * Typed and sized device RMA, generated from the type tables: contiguous,
 * strided, 2-D, block and warp groups, and the engine-choice forms; also
 * the byte (mem) forms these add to device/rma.c's.
 */
#include <shmem/device.h>

#include "device/transfer.h"
#include "util/log.h"

#define COPY(OP, ENGINE, D, S, BYTES, PE, WAIT, NAME)                                          \
    device_copy(&(struct device_copy){.op = OP, .engine = ENGINE, .pe = PE, .dst = (void *)(D), \
                                      .src = S, .width = BYTES, .rows = 1, .wait = WAIT,       \
                                      .routine = NAME})

/* Byte counts and strides that do not fit are the caller's error, not a
 * wrapped-around transfer. */
static size_t bytes_of(size_t nelems, size_t elem, const char *routine)
{
    if (elem && nelems > SIZE_MAX / elem)
        oshm_fatal("%s: %zu elements of %zu bytes overflow size_t", routine, nelems, elem);
    return nelems * elem;
}

static void strided(enum engine_op op, void *dest, const void *source, ptrdiff_t dst_stride,
                    ptrdiff_t src_stride, size_t nelems, size_t elem, int pe, const char *routine)
{
    if (nelems > 1 && dst_stride == 0)
        oshm_fatal("%s: a destination stride of 0 writes %zu elements to one place", routine,
                   nelems);
    if (nelems > 1 && (dst_stride > PTRDIFF_MAX / (ptrdiff_t)elem ||
                       dst_stride < -PTRDIFF_MAX / (ptrdiff_t)elem ||
                       src_stride > PTRDIFF_MAX / (ptrdiff_t)elem ||
                       src_stride < -PTRDIFF_MAX / (ptrdiff_t)elem))
        oshm_fatal("%s: strides %td and %td of %zu-byte elements overflow", routine, dst_stride,
                   src_stride, elem);
    /* Blocking, as shmem_iput is: returns once complete. */
    device_copy(&(struct device_copy){.op = op, .pe = pe, .dst = dest, .src = source,
                                      .width = elem, .rows = nelems,
                                      .dst_pitch = dst_stride * (ptrdiff_t)elem,
                                      .src_pitch = src_stride * (ptrdiff_t)elem, .wait = true,
                                      .routine = routine});
}

static void copy_2d(enum engine_op op, void *dest, const void *source, size_t dst_stride,
                    size_t src_stride, size_t width, size_t height, size_t elem, int pe,
                    bool wait, const char *routine)
{
    if (height > 1 && (dst_stride > (size_t)PTRDIFF_MAX / elem ||
                       src_stride > (size_t)PTRDIFF_MAX / elem))
        oshm_fatal("%s: strides %zu and %zu of %zu-byte elements overflow", routine, dst_stride,
                   src_stride, elem);
    device_copy(&(struct device_copy){.op = op, .pe = pe, .dst = dest, .src = source,
                                      .width = bytes_of(width, elem, routine), .rows = height,
                                      .dst_pitch = (ptrdiff_t)(dst_stride * elem),
                                      .src_pitch = (ptrdiff_t)(src_stride * elem), .wait = wait,
                                      .routine = routine});
}

#define GROUP(G, OP, D, S, BYTES, PE, WAIT, ELEM, NAME)                                        \
    device_copy_group(G, &(struct device_copy){.op = OP, .pe = PE, .dst = (void *)(D), .src = S, \
                                               .width = BYTES, .rows = 1, .wait = WAIT,        \
                                               .routine = NAME},                               \
                      ELEM)

/* ---- bytes ---- */
#define DEFINE_MEM_2D(NAME, OP, WAIT)                                                          \
    void shmemd_##NAME(void *dest, const void *source, size_t dst_stride, size_t src_stride,   \
                       size_t width, size_t height, int pe)                                    \
    {                                                                                          \
        copy_2d(OP, dest, source, dst_stride, src_stride, width, height, 1, pe, WAIT,          \
                "shmemd_" #NAME);                                                              \
    }
DEFINE_MEM_2D(putmem_2d, ENGINE_PUT, true)
DEFINE_MEM_2D(getmem_2d, ENGINE_GET, true)
DEFINE_MEM_2D(putmem_2d_nbi, ENGINE_PUT, false)
DEFINE_MEM_2D(getmem_2d_nbi, ENGINE_GET, false)

#define DEFINE_MEM_WARP(NAME, OP, WAIT)                                                        \
    void shmemd_##NAME(void *dest, const void *source, size_t nbytes, int pe)                  \
    {                                                                                          \
        GROUP(DEVICE_WARP, OP, dest, source, nbytes, pe, WAIT, 1, "shmemd_" #NAME);            \
    }
DEFINE_MEM_WARP(putmem_warp, ENGINE_PUT, true)
DEFINE_MEM_WARP(getmem_warp, ENGINE_GET, true)
DEFINE_MEM_WARP(putmem_nbi_warp, ENGINE_PUT, false)
DEFINE_MEM_WARP(getmem_nbi_warp, ENGINE_GET, false)

#define DEFINE_MEM_ENGINE_ONE(NAME, OP, WAIT, KIND)                                            \
    void shmemd_##NAME(void *dest, const void *source, size_t nbytes, int pe)                  \
    {                                                                                          \
        COPY(OP, KIND, dest, source, nbytes, pe, WAIT, "shmemd_" #NAME);                       \
    }
#define DEFINE_MEM_ENGINE(E, KIND)                                                             \
    DEFINE_MEM_ENGINE_ONE(putmem_##E, ENGINE_PUT, true, KIND)                                  \
    DEFINE_MEM_ENGINE_ONE(getmem_##E, ENGINE_GET, true, KIND)                                  \
    DEFINE_MEM_ENGINE_ONE(putmem_nbi_##E, ENGINE_PUT, false, KIND)                             \
    DEFINE_MEM_ENGINE_ONE(getmem_nbi_##E, ENGINE_GET, false, KIND)
DEFINE_MEM_ENGINE(mte, ENGINE_MTE)
DEFINE_MEM_ENGINE(sdma, ENGINE_SDMA)
DEFINE_MEM_ENGINE(udma, ENGINE_UDMA)
DEFINE_MEM_ENGINE(rdma, ENGINE_RDMA)

/* ---- typed ---- */
#define TNAME(N, OP) "shmemd_" #N "_" OP
#define DEFINE_TYPED_ONE(T, N, NAME, OP, KIND, WAIT)                                           \
    void shmemd_##N##_##NAME(T *dest, const T *source, size_t nelems, int pe)                  \
    {                                                                                          \
        COPY(OP, KIND, dest, source, bytes_of(nelems, sizeof(T), TNAME(N, #NAME)), pe, WAIT,   \
             TNAME(N, #NAME));                                                                 \
    }
#define DEFINE_TYPED_GROUP(T, N, NAME, G, OP, WAIT)                                            \
    void shmemd_##N##_##NAME(T *dest, const T *source, size_t nelems, int pe)                  \
    {                                                                                          \
        GROUP(G, OP, dest, source, bytes_of(nelems, sizeof(T), TNAME(N, #NAME)), pe, WAIT,     \
              sizeof(T), TNAME(N, #NAME));                                                     \
    }
#define DEFINE_TYPED_2D(T, N, NAME, OP, WAIT)                                                  \
    void shmemd_##N##_##NAME(T *dest, const T *source, size_t dst_stride, size_t src_stride,   \
                             size_t width, size_t height, int pe)                              \
    {                                                                                          \
        copy_2d(OP, dest, source, dst_stride, src_stride, width, height, sizeof(T), pe, WAIT,  \
                TNAME(N, #NAME));                                                              \
    }
#define DEFINE_TYPED_ENGINE(T, N, E, KIND)                                                     \
    DEFINE_TYPED_ONE(T, N, put_nbi_##E, ENGINE_PUT, KIND, false)                               \
    DEFINE_TYPED_ONE(T, N, get_nbi_##E, ENGINE_GET, KIND, false)

#define DEFINE_TYPED(T, N)                                                                     \
    DEFINE_TYPED_ONE(T, N, put, ENGINE_PUT, ENGINE_AUTO, true)                                 \
    DEFINE_TYPED_ONE(T, N, get, ENGINE_GET, ENGINE_AUTO, true)                                 \
    DEFINE_TYPED_ONE(T, N, put_nbi, ENGINE_PUT, ENGINE_AUTO, false)                            \
    DEFINE_TYPED_ONE(T, N, get_nbi, ENGINE_GET, ENGINE_AUTO, false)                            \
    void shmemd_##N##_p(T *dest, T value, int pe)                                              \
    {                                                                                          \
        device_put_value(dest, &value, sizeof value, pe, TNAME(N, "p"));                       \
    }                                                                                          \
    T shmemd_##N##_g(const T *source, int pe)                                                  \
    {                                                                                          \
        T v;                                                                                   \
        COPY(ENGINE_GET, ENGINE_AUTO, &v, source, sizeof v, pe, true, TNAME(N, "g"));          \
        return v;                                                                              \
    }                                                                                          \
    void shmemd_##N##_iput(T *dest, const T *source, ptrdiff_t dst_stride,                     \
                           ptrdiff_t src_stride, size_t nelems, int pe)                        \
    {                                                                                          \
        strided(ENGINE_PUT, dest, source, dst_stride, src_stride, nelems, sizeof(T), pe,       \
                TNAME(N, "iput"));                                                             \
    }                                                                                          \
    void shmemd_##N##_iget(T *dest, const T *source, ptrdiff_t dst_stride,                     \
                           ptrdiff_t src_stride, size_t nelems, int pe)                        \
    {                                                                                          \
        strided(ENGINE_GET, dest, source, dst_stride, src_stride, nelems, sizeof(T), pe,       \
                TNAME(N, "iget"));                                                             \
    }                                                                                          \
    DEFINE_TYPED_2D(T, N, put_2d, ENGINE_PUT, true)                                            \
    DEFINE_TYPED_2D(T, N, get_2d, ENGINE_GET, true)                                            \
    DEFINE_TYPED_2D(T, N, put_2d_nbi, ENGINE_PUT, false)                                       \
    DEFINE_TYPED_2D(T, N, get_2d_nbi, ENGINE_GET, false)                                       \
    DEFINE_TYPED_GROUP(T, N, put_block, DEVICE_BLOCK, ENGINE_PUT, true)                        \
    DEFINE_TYPED_GROUP(T, N, get_block, DEVICE_BLOCK, ENGINE_GET, true)                        \
    DEFINE_TYPED_GROUP(T, N, put_nbi_block, DEVICE_BLOCK, ENGINE_PUT, false)                   \
    DEFINE_TYPED_GROUP(T, N, get_nbi_block, DEVICE_BLOCK, ENGINE_GET, false)                   \
    DEFINE_TYPED_GROUP(T, N, put_warp, DEVICE_WARP, ENGINE_PUT, true)                          \
    DEFINE_TYPED_GROUP(T, N, get_warp, DEVICE_WARP, ENGINE_GET, true)                          \
    DEFINE_TYPED_GROUP(T, N, put_nbi_warp, DEVICE_WARP, ENGINE_PUT, false)                     \
    DEFINE_TYPED_GROUP(T, N, get_nbi_warp, DEVICE_WARP, ENGINE_GET, false)                     \
    DEFINE_TYPED_ENGINE(T, N, mte, ENGINE_MTE)                                                 \
    DEFINE_TYPED_ENGINE(T, N, sdma, ENGINE_SDMA)                                               \
    DEFINE_TYPED_ENGINE(T, N, udma, ENGINE_UDMA)                                               \
    DEFINE_TYPED_ENGINE(T, N, rdma, ENGINE_RDMA)
SHMEMD_RMA_TYPE_TABLE(DEFINE_TYPED)

/* ---- sized: units of BITS bits ---- */
#define SNAME(BITS, OP) "shmemd_" OP #BITS
#define DEFINE_SIZED(BITS, UNIT)                                                                     \
    void shmemd_put##BITS(void *dest, const void *source, size_t nelems, int pe)               \
    {                                                                                          \
        COPY(ENGINE_PUT, ENGINE_AUTO, dest, source,                                            \
             bytes_of(nelems, BITS / 8, SNAME(BITS, "put")), pe, true, SNAME(BITS, "put"));    \
    }                                                                                          \
    void shmemd_get##BITS(void *dest, const void *source, size_t nelems, int pe)               \
    {                                                                                          \
        COPY(ENGINE_GET, ENGINE_AUTO, dest, source,                                            \
             bytes_of(nelems, BITS / 8, SNAME(BITS, "get")), pe, true, SNAME(BITS, "get"));    \
    }                                                                                          \
    void shmemd_put##BITS##_nbi(void *dest, const void *source, size_t nelems, int pe)         \
    {                                                                                          \
        COPY(ENGINE_PUT, ENGINE_AUTO, dest, source,                                            \
             bytes_of(nelems, BITS / 8, "shmemd_put" #BITS "_nbi"), pe, false,                 \
             "shmemd_put" #BITS "_nbi");                                                       \
    }                                                                                          \
    void shmemd_get##BITS##_nbi(void *dest, const void *source, size_t nelems, int pe)         \
    {                                                                                          \
        COPY(ENGINE_GET, ENGINE_AUTO, dest, source,                                            \
             bytes_of(nelems, BITS / 8, "shmemd_get" #BITS "_nbi"), pe, false,                 \
             "shmemd_get" #BITS "_nbi");                                                       \
    }                                                                                          \
    void shmemd_iput##BITS(void *dest, const void *source, ptrdiff_t dst_stride,               \
                           ptrdiff_t src_stride, size_t nelems, int pe)                        \
    {                                                                                          \
        strided(ENGINE_PUT, dest, source, dst_stride, src_stride, nelems, BITS / 8, pe,        \
                SNAME(BITS, "iput"));                                                          \
    }                                                                                          \
    void shmemd_iget##BITS(void *dest, const void *source, ptrdiff_t dst_stride,               \
                           ptrdiff_t src_stride, size_t nelems, int pe)                        \
    {                                                                                          \
        strided(ENGINE_GET, dest, source, dst_stride, src_stride, nelems, BITS / 8, pe,        \
                SNAME(BITS, "iget"));                                                          \
    }
SHMEM_SIZED_TABLE(DEFINE_SIZED)
