/*
 * Device RMA (included by <shmem/device.h>; include that one): contiguous,
 * typed, sized, strided and 2-D transfers, their block- and warp-cooperative
 * forms, the unified buffer, and the choice of data-movement engine.
 *
 * Memory model: every RMA is a descriptor on an engine. An _nbi routine
 * returns once it is queued; a blocking one once its transfer (and every
 * earlier one of the thread) is complete. Descriptors of one thread may
 * complete in any order, even to the same PE (SHMEM_DEVICE_ORDERING=weak
 * simulates that): shmemd_fence orders those posted before it ahead of
 * those posted after it, to every PE, without waiting; shmemd_quiet waits
 * until all of them are complete.
 */
#ifndef SHMEM_DEVICE_RMA_H
#define SHMEM_DEVICE_RMA_H

#include <stddef.h>
#include <stdint.h>

#include <shmem/device_types.h>

#ifndef SHMEM_DEVICE_H
#error "include <shmem/device.h>, which includes <shmem/device_rma.h>"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Threads of a warp: shmemd_*_warp routines share their work among the
 * SHMEMD_WARP_SIZE consecutive threads of the caller's block that hold the
 * caller (fewer in a block's last, partial warp). */
#define SHMEMD_WARP_SIZE 32
/* Every thread of the caller's warp waits for the others. */
OSHM_AICORE void shmemd_warp_sync(void);

/* The data-movement engines. MTE and SDMA reach the PEs of this node, UDMA
 * and RDMA every PE; AUTO takes MTE within the node and UDMA beyond it. */
enum shmemd_engine {
    SHMEMD_ENGINE_AUTO = 0,
    SHMEMD_ENGINE_MTE,
    SHMEMD_ENGINE_SDMA,
    SHMEMD_ENGINE_UDMA,
    SHMEMD_ENGINE_RDMA,
};

#define SHMEMD_RMA_ARGS_(T) (OSHM_GM T *dest, OSHM_GM const T *source, size_t nelems, int pe)
#define SHMEMD_RMA_STRIDED_ARGS_(T)                                                            \
    (OSHM_GM T *dest, OSHM_GM const T *source, ptrdiff_t dst_stride, ptrdiff_t src_stride,     \
     size_t nelems, int pe)
/* HEIGHT rows of WIDTH elements: row r from source + r * src_stride to
 * dest + r * dst_stride (strides in elements; bytes for the mem forms). */
#define SHMEMD_RMA_2D_ARGS_(T)                                                                 \
    (OSHM_GM T *dest, OSHM_GM const T *source, size_t dst_stride, size_t src_stride,           \
     size_t width, size_t height, int pe)

/* Contiguous RMA on symmetric (device or host heap, global) memory. */
OSHM_AICORE void shmemd_putmem SHMEMD_RMA_ARGS_(void);
OSHM_AICORE void shmemd_getmem SHMEMD_RMA_ARGS_(void);
OSHM_AICORE void shmemd_putmem_nbi SHMEMD_RMA_ARGS_(void);
OSHM_AICORE void shmemd_getmem_nbi SHMEMD_RMA_ARGS_(void);
OSHM_AICORE void shmemd_putmem_2d SHMEMD_RMA_2D_ARGS_(void);
OSHM_AICORE void shmemd_getmem_2d SHMEMD_RMA_2D_ARGS_(void);
OSHM_AICORE void shmemd_putmem_2d_nbi SHMEMD_RMA_2D_ARGS_(void);
OSHM_AICORE void shmemd_getmem_2d_nbi SHMEMD_RMA_2D_ARGS_(void);

/* Cooperative: every thread of the block (warp) calls with the same
 * arguments; each moves its share, and the call returns in every thread
 * once the whole group's transfer is (for _nbi: posted) done.
 * shmemd_putmem_block, shmemd_getmem_block, shmemd_putmem_nbi_block,
 * shmemd_getmem_nbi_block; shmemd_putmem_warp, shmemd_getmem_warp,
 * shmemd_putmem_nbi_warp, shmemd_getmem_nbi_warp. */
#define SHMEMD_DECL_MEM_GROUP_(G)                                                              \
    OSHM_AICORE void shmemd_putmem_##G SHMEMD_RMA_ARGS_(void);                                 \
    OSHM_AICORE void shmemd_getmem_##G SHMEMD_RMA_ARGS_(void);                                 \
    OSHM_AICORE void shmemd_putmem_nbi_##G SHMEMD_RMA_ARGS_(void);                             \
    OSHM_AICORE void shmemd_getmem_nbi_##G SHMEMD_RMA_ARGS_(void);
SHMEMD_DECL_MEM_GROUP_(block)
SHMEMD_DECL_MEM_GROUP_(warp)
#undef SHMEMD_DECL_MEM_GROUP_

/* On a chosen engine; a fatal error names the routine when the engine
 * cannot reach PE. */
#define SHMEMD_DECL_MEM_ENGINE_(E)                                                             \
    OSHM_AICORE void shmemd_putmem_##E SHMEMD_RMA_ARGS_(void);                                 \
    OSHM_AICORE void shmemd_getmem_##E SHMEMD_RMA_ARGS_(void);                                 \
    OSHM_AICORE void shmemd_putmem_nbi_##E SHMEMD_RMA_ARGS_(void);                             \
    OSHM_AICORE void shmemd_getmem_nbi_##E SHMEMD_RMA_ARGS_(void);
#define SHMEMD_ENGINE_TABLE(X) X(mte) X(sdma) X(udma) X(rdma)
SHMEMD_ENGINE_TABLE(SHMEMD_DECL_MEM_ENGINE_)
#undef SHMEMD_DECL_MEM_ENGINE_

/* The unified buffer: on-chip scratch of this block (one per block, the
 * simulated AI core), SHMEM_DEVICE_UB_SIZE bytes, private to the block and
 * gone when the kernel ends. putmem_ub moves from it to a PE's symmetric
 * memory (CANN's ub2gm), getmem_ub from a PE into it (gm2ub). */
OSHM_AICORE void *shmemd_ub_base(void);
OSHM_AICORE size_t shmemd_ub_size(void);
OSHM_AICORE void shmemd_putmem_ub(OSHM_GM void *dest, const void *ub_source, size_t nbytes, int pe);
OSHM_AICORE void shmemd_getmem_ub(void *ub_dest, OSHM_GM const void *source, size_t nbytes, int pe);
OSHM_AICORE void shmemd_putmem_ub_nbi(OSHM_GM void *dest, const void *ub_source, size_t nbytes, int pe);
OSHM_AICORE void shmemd_getmem_ub_nbi(void *ub_dest, OSHM_GM const void *source, size_t nbytes, int pe);

/* Typed RMA, one set per type of the device RMA table. */
#define SHMEMD_DECL_RMA_ENGINE_(T, N, E)                                                       \
    OSHM_AICORE void shmemd_##N##_put_nbi_##E SHMEMD_RMA_ARGS_(T);                             \
    OSHM_AICORE void shmemd_##N##_get_nbi_##E SHMEMD_RMA_ARGS_(T);
#define SHMEMD_DECL_RMA_(T, N)                                                                 \
    OSHM_AICORE void shmemd_##N##_put SHMEMD_RMA_ARGS_(T);                                     \
    OSHM_AICORE void shmemd_##N##_get SHMEMD_RMA_ARGS_(T);                                     \
    OSHM_AICORE void shmemd_##N##_put_nbi SHMEMD_RMA_ARGS_(T);                                 \
    OSHM_AICORE void shmemd_##N##_get_nbi SHMEMD_RMA_ARGS_(T);                                 \
    OSHM_AICORE void shmemd_##N##_p(OSHM_GM T *dest, T value, int pe);                         \
    OSHM_AICORE T shmemd_##N##_g(OSHM_GM const T *source, int pe);                             \
    OSHM_AICORE void shmemd_##N##_iput SHMEMD_RMA_STRIDED_ARGS_(T);                            \
    OSHM_AICORE void shmemd_##N##_iget SHMEMD_RMA_STRIDED_ARGS_(T);                            \
    OSHM_AICORE void shmemd_##N##_put_2d SHMEMD_RMA_2D_ARGS_(T);                               \
    OSHM_AICORE void shmemd_##N##_get_2d SHMEMD_RMA_2D_ARGS_(T);                               \
    OSHM_AICORE void shmemd_##N##_put_2d_nbi SHMEMD_RMA_2D_ARGS_(T);                           \
    OSHM_AICORE void shmemd_##N##_get_2d_nbi SHMEMD_RMA_2D_ARGS_(T);                           \
    OSHM_AICORE void shmemd_##N##_put_block SHMEMD_RMA_ARGS_(T);                               \
    OSHM_AICORE void shmemd_##N##_get_block SHMEMD_RMA_ARGS_(T);                               \
    OSHM_AICORE void shmemd_##N##_put_nbi_block SHMEMD_RMA_ARGS_(T);                           \
    OSHM_AICORE void shmemd_##N##_get_nbi_block SHMEMD_RMA_ARGS_(T);                           \
    OSHM_AICORE void shmemd_##N##_put_warp SHMEMD_RMA_ARGS_(T);                                \
    OSHM_AICORE void shmemd_##N##_get_warp SHMEMD_RMA_ARGS_(T);                                \
    OSHM_AICORE void shmemd_##N##_put_nbi_warp SHMEMD_RMA_ARGS_(T);                            \
    OSHM_AICORE void shmemd_##N##_get_nbi_warp SHMEMD_RMA_ARGS_(T);                            \
    SHMEMD_DECL_RMA_ENGINE_(T, N, mte)                                                         \
    SHMEMD_DECL_RMA_ENGINE_(T, N, sdma)                                                        \
    SHMEMD_DECL_RMA_ENGINE_(T, N, udma)                                                        \
    SHMEMD_DECL_RMA_ENGINE_(T, N, rdma)
SHMEMD_RMA_TYPE_TABLE(SHMEMD_DECL_RMA_)
#undef SHMEMD_DECL_RMA_
#undef SHMEMD_DECL_RMA_ENGINE_

/* Sized RMA: NELEMS units of BITS bits, for BITS in 8, 16, 32, 64, 128:
 * shmemd_put8 ... shmemd_put128, shmemd_get8 ... shmemd_get128, their _nbi
 * forms, shmemd_iput8 ... shmemd_iput128 and shmemd_iget8 ... shmemd_iget128. */
#define SHMEMD_DECL_SIZED_(BITS, UNIT)                                                               \
    OSHM_AICORE void shmemd_put##BITS SHMEMD_RMA_ARGS_(void);                                  \
    OSHM_AICORE void shmemd_get##BITS SHMEMD_RMA_ARGS_(void);                                  \
    OSHM_AICORE void shmemd_put##BITS##_nbi SHMEMD_RMA_ARGS_(void);                            \
    OSHM_AICORE void shmemd_get##BITS##_nbi SHMEMD_RMA_ARGS_(void);                            \
    OSHM_AICORE void shmemd_iput##BITS SHMEMD_RMA_STRIDED_ARGS_(void);                         \
    OSHM_AICORE void shmemd_iget##BITS SHMEMD_RMA_STRIDED_ARGS_(void);
SHMEM_SIZED_TABLE(SHMEMD_DECL_SIZED_)
#undef SHMEMD_DECL_SIZED_

#ifdef __cplusplus
}
#endif

/* C11: the routine for the pointer's type, half and bfloat16 included. */
#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L && !defined(OSHM_NO_GENERIC)
#define SHMEMD_G_RMA_(T, N, OP) , T: shmemd_##N##_##OP
#define SHMEMD_G_RMA_put_(T, N) SHMEMD_G_RMA_(T, N, put)
#define SHMEMD_G_RMA_get_(T, N) SHMEMD_G_RMA_(T, N, get)
#define SHMEMD_G_RMA_put_nbi_(T, N) SHMEMD_G_RMA_(T, N, put_nbi)
#define SHMEMD_G_RMA_get_nbi_(T, N) SHMEMD_G_RMA_(T, N, get_nbi)
#define SHMEMD_G_RMA_p_(T, N) SHMEMD_G_RMA_(T, N, p)
#define SHMEMD_G_RMA_g_(T, N) SHMEMD_G_RMA_(T, N, g)
#define SHMEMD_G_RMA_iput_(T, N) SHMEMD_G_RMA_(T, N, iput)
#define SHMEMD_G_RMA_iget_(T, N) SHMEMD_G_RMA_(T, N, iget)
#define SHMEMD_G_RMA_SEL_(OP, PTR) _Generic(*(PTR) SHMEMD_RMA_GENERIC_TYPE_TABLE(OP))
#define shmemd_put(dest, ...) SHMEMD_G_RMA_SEL_(SHMEMD_G_RMA_put_, dest)(dest, __VA_ARGS__)
#define shmemd_get(dest, ...) SHMEMD_G_RMA_SEL_(SHMEMD_G_RMA_get_, dest)(dest, __VA_ARGS__)
#define shmemd_put_nbi(dest, ...) SHMEMD_G_RMA_SEL_(SHMEMD_G_RMA_put_nbi_, dest)(dest, __VA_ARGS__)
#define shmemd_get_nbi(dest, ...) SHMEMD_G_RMA_SEL_(SHMEMD_G_RMA_get_nbi_, dest)(dest, __VA_ARGS__)
#define shmemd_p(dest, ...) SHMEMD_G_RMA_SEL_(SHMEMD_G_RMA_p_, dest)(dest, __VA_ARGS__)
#define shmemd_g(src, ...) SHMEMD_G_RMA_SEL_(SHMEMD_G_RMA_g_, src)(src, __VA_ARGS__)
#define shmemd_iput(dest, ...) SHMEMD_G_RMA_SEL_(SHMEMD_G_RMA_iput_, dest)(dest, __VA_ARGS__)
#define shmemd_iget(dest, ...) SHMEMD_G_RMA_SEL_(SHMEMD_G_RMA_iget_, dest)(dest, __VA_ARGS__)
#endif

#endif
