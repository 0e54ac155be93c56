/*
 * NVSHMEM names on this library: a kernel written for NVSHMEM's device API
 * ports by replacing its includes (<nvshmem.h>, <nvshmemx.h>,
 * <cuda_runtime.h>) with this one header. Every nvshmem_* / nvshmemx_* name
 * is a static inline wrapper (or a macro, where the peer's name is one) of a
 * shmemd_* routine; docs/device.md has the table, and the names with no
 * equivalent.
 *
 * What a port still changes, because C is not CUDA C++:
 *  - a kernel is `__global__ void k(void *args)`: one argument block, and it
 *    is launched with nvshmemx_collective_launch or cudaLaunchKernel
 *    (args[0] points at the block; it is read when the kernel runs, so keep
 *    it alive until the stream is synchronized), not with <<<...>>>;
 *  - dim3 is a struct: `dim3 grid = {4, 1, 1}`; only x is used (1-D grids);
 *  - NVSHMEM's thread-level barrier_all and sync_all are called by one thread;
 *    here every thread of every block of the launch calls them (as the
 *    _block forms with a one-block grid).
 * No name collides with the host OpenSHMEM API, so host code of the same
 * file keeps calling shmem_* freely.
 */
#ifndef SHMEM_COMPAT_NVSHMEM_H
#define SHMEM_COMPAT_NVSHMEM_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <shmem.h>
#include <shmemx.h>
#include <shmem/device.h>
#include <shmem/compat/amo_wrappers.h>

/* ---- CUDA C qualifiers, built-ins and runtime calls kernels' programs use ---- */
#ifndef __global__
#define __global__
#endif
#ifndef __device__
#define __device__
#endif
#ifndef __host__
#define __host__
#endif
#ifndef __forceinline__
#define __forceinline__ inline
#endif

typedef struct oshm_dim3 {
    unsigned x, y, z;
} dim3;
#define threadIdx ((dim3){shmemd_thread_idx(), 0, 0})
#define blockIdx ((dim3){shmemd_block_idx(), 0, 0})
#define blockDim ((dim3){shmemd_thread_num(), 1, 1})
#define gridDim ((dim3){shmemd_block_num(), 1, 1})
#define warpSize SHMEMD_WARP_SIZE
#define __syncthreads() shmemd_block_sync()
#define __syncwarp(...) shmemd_warp_sync()
/* CUDA's atomics on local memory: the compiler's, returning the old value. */
#define atomicAdd(p, v) __atomic_fetch_add((p), (v), __ATOMIC_RELAXED)

typedef shmemd_half_t half;
typedef shmemd_half_t __half;
typedef shmemd_bfloat16_t __nv_bfloat16;
#define __float2half(f) shmemd_float_to_half(f)
#define __half2float(h) shmemd_half_to_float(h)
#define __float2bfloat16(f) shmemd_float_to_bfloat16(f)
#define __bfloat162float(b) shmemd_bfloat16_to_float(b)

typedef int cudaError_t;
#define cudaSuccess 0
typedef shmemx_stream_t cudaStream_t;
enum cudaMemcpyKind {
    cudaMemcpyHostToHost,
    cudaMemcpyHostToDevice,
    cudaMemcpyDeviceToHost,
    cudaMemcpyDeviceToDevice,
    cudaMemcpyDefault
};

/* The simulation gives each PE a device of its own (shmemd_device_id). */
static inline cudaError_t cudaSetDevice(int device) { (void)device; return 0; }
static inline cudaError_t cudaStreamCreate(cudaStream_t *s) { return shmemx_stream_create(s) ? 1 : 0; }
static inline cudaError_t cudaStreamDestroy(cudaStream_t s) { shmemx_stream_destroy(s); return 0; }
static inline cudaError_t cudaStreamSynchronize(cudaStream_t s) { shmemx_stream_synchronize(s); return 0; }
static inline cudaError_t cudaDeviceSynchronize(void) { shmemx_device_synchronize(); return 0; }
/* Between host memory and this PE's device memory, after the default
 * stream's earlier work; device to device and host to host copy directly
 * (device memory is host-addressable in the simulation). */
static inline cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind)
{
    if (kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToHost)
        return shmemd_memcpy(dst, src, n, shmemd_my_pe()) ? 1 : 0;
    shmemx_stream_synchronize(NULL);
    memmove(dst, src, n);
    return 0;
}
static inline cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n,
                                          enum cudaMemcpyKind kind, cudaStream_t s)
{
    (void)kind;
    return shmemd_memcpy_async(dst, src, n, shmemd_my_pe(), s) ? 1 : 0;
}
static inline cudaError_t cudaMemset(void *dst, int value, size_t n)
{
    shmemx_stream_synchronize(NULL);
    memset(dst, value, n);
    return 0;
}

/* A launch runs FUNC(args[0]) in every thread of GRID.x blocks of BLOCK.x. */
typedef void (*oshm_nv_kernel_t)(void *);
struct oshm_nv_launch {
    oshm_nv_kernel_t func;
    void *args;
};
static inline void oshm_nv_trampoline(void *p)
{
    const struct oshm_nv_launch *l = p;
    l->func(l->args);
}
static inline cudaError_t oshm_nv_launch(oshm_nv_kernel_t func, dim3 grid, dim3 block, void **args,
                                         cudaStream_t stream)
{
    struct oshm_nv_launch l = {func, args ? args[0] : NULL};
    return shmemx_launch(oshm_nv_trampoline, grid.x, block.x, &l, sizeof l, stream) ? 1 : 0;
}
#define cudaLaunchKernel(func, grid, block, args, shmem, stream)                               \
    oshm_nv_launch((oshm_nv_kernel_t)(func), grid, block, args, stream)
#define nvshmemx_collective_launch(func, grid, block, args, shmem, stream)                     \
    oshm_nv_launch((oshm_nv_kernel_t)(func), grid, block, args, stream)

/* ---- Types and constants ---- */
typedef shmemd_team_t nvshmem_team_t;
#define NVSHMEM_TEAM_WORLD SHMEMD_TEAM_WORLD
#define NVSHMEM_TEAM_SHARED SHMEMD_TEAM_SHARED
#define NVSHMEMX_TEAM_NODE SHMEMD_TEAM_SHARED
#define NVSHMEM_TEAM_INVALID SHMEMD_TEAM_INVALID
#define NVSHMEM_CMP_EQ SHMEM_CMP_EQ
#define NVSHMEM_CMP_NE SHMEM_CMP_NE
#define NVSHMEM_CMP_GT SHMEM_CMP_GT
#define NVSHMEM_CMP_GE SHMEM_CMP_GE
#define NVSHMEM_CMP_LT SHMEM_CMP_LT
#define NVSHMEM_CMP_LE SHMEM_CMP_LE
#define NVSHMEM_SIGNAL_SET SHMEM_SIGNAL_SET
#define NVSHMEM_SIGNAL_ADD SHMEM_SIGNAL_ADD

/* ---- Host: start-up, memory, stream-ordered operations ---- */
typedef shmemd_init_attr_t nvshmemx_init_attr_t;
typedef shmemd_uniqueid_t nvshmemx_uniqueid_t;
#define NVSHMEMX_INIT_ATTR_INITIALIZER SHMEMD_INIT_ATTR_INITIALIZER
#define NVSHMEMX_UNIQUEID_INITIALIZER SHMEMD_UNIQUEID_INITIALIZER
#define NVSHMEMX_INIT_WITH_UNIQUEID SHMEMD_INIT_WITH_UNIQUEID
#define NVSHMEMX_INIT_THREADS SHMEMD_INIT_THREAD_MULTIPLE
static inline void nvshmem_init(void) { shmem_init(); }
static inline void nvshmem_finalize(void) { shmem_finalize(); }
static inline int nvshmemx_init_attr(unsigned flags, nvshmemx_init_attr_t *attr) { return shmemd_init_attr(flags, attr); }
static inline int nvshmemx_get_uniqueid(nvshmemx_uniqueid_t *uid) { return shmemd_get_uniqueid(uid); }
static inline int nvshmemx_set_attr_uniqueid_args(int rank, int nranks, const nvshmemx_uniqueid_t *uid,
                                                  nvshmemx_init_attr_t *attr)
{
    return shmemd_set_attr_uniqueid_args(rank, nranks, uid, attr);
}
static inline void *nvshmem_malloc(size_t size) { return shmemd_malloc(size); }
static inline void *nvshmem_calloc(size_t count, size_t size) { return shmemd_calloc(count, size); }
static inline void nvshmem_free(void *ptr) { shmemd_free(ptr); }
static inline void nvshmemx_putmem_on_stream(void *dest, const void *source, size_t nbytes, int pe, cudaStream_t s) { shmemd_putmem_on_stream(dest, source, nbytes, pe, s); }
static inline void nvshmemx_getmem_on_stream(void *dest, const void *source, size_t nbytes, int pe, cudaStream_t s) { shmemd_getmem_on_stream(dest, source, nbytes, pe, s); }
static inline void nvshmemx_putmem_signal_on_stream(void *dest, const void *source, size_t nbytes, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe, cudaStream_t s) { shmemd_putmem_signal_on_stream(dest, source, nbytes, sig_addr, signal, sig_op, pe, s); }
static inline void nvshmemx_signal_op_on_stream(uint64_t *sig_addr, uint64_t signal, int sig_op, int pe, cudaStream_t s) { shmemd_signal_op_on_stream(sig_addr, signal, sig_op, pe, s); }
static inline void nvshmemx_signal_wait_until_on_stream(uint64_t *sig_addr, int cmp, uint64_t value, cudaStream_t s) { shmemd_signal_wait_until_on_stream(sig_addr, cmp, value, s); }
static inline void nvshmemx_quiet_on_stream(cudaStream_t s) { shmemd_quiet_on_stream(s); }
static inline void nvshmemx_barrier_all_on_stream(cudaStream_t s) { shmemd_barrier_all_on_stream(s); }
static inline void nvshmemx_barrier_on_stream(nvshmem_team_t team, cudaStream_t s) { shmemd_team_barrier_on_stream(team, s); }
static inline void nvshmemx_team_barrier_on_stream(nvshmem_team_t team, cudaStream_t s) { shmemd_team_barrier_on_stream(team, s); }

/* ---- Device: PE queries, ordering, synchronization ---- */
static inline int nvshmem_my_pe(void) { return shmemd_my_pe(); }
static inline int nvshmem_n_pes(void) { return shmemd_n_pes(); }
static inline void *nvshmem_ptr(const void *dest, int pe) { return shmemd_ptr(dest, pe); }
static inline void nvshmem_fence(void) { shmemd_fence(); }
static inline void nvshmem_quiet(void) { shmemd_quiet(); }
static inline void nvshmem_barrier_all(void) { if (shmemd_in_kernel()) shmemd_barrier_all(); else shmem_barrier_all(); }
static inline void nvshmemx_barrier_all_block(void) { shmemd_barrier_all(); }
static inline void nvshmem_barrier(nvshmem_team_t team) { shmemd_team_barrier(team); }
static inline void nvshmemx_barrier_block(nvshmem_team_t team) { shmemd_team_barrier(team); }
static inline void nvshmem_sync_all(void) { shmemd_sync_all(); }
static inline void nvshmemx_sync_all_block(void) { shmemd_sync_all(); }
static inline void nvshmem_team_sync(nvshmem_team_t team) { shmemd_team_sync(team); }
static inline void nvshmemx_team_sync_block(nvshmem_team_t team) { shmemd_team_sync(team); }
/* Host and kernels both call these (shmemd_in_kernel picks the side). */
static inline int nvshmem_team_my_pe(nvshmem_team_t team) { return shmemd_in_kernel() ? shmemd_team_my_pe(team) : shmem_team_my_pe(team); }
static inline int nvshmem_team_n_pes(nvshmem_team_t team) { return shmemd_in_kernel() ? shmemd_team_n_pes(team) : shmem_team_n_pes(team); }
static inline int nvshmem_team_translate_pe(nvshmem_team_t src, int pe, nvshmem_team_t dest) { return shmemd_in_kernel() ? shmemd_team_translate_pe(src, pe, dest) : shmem_team_translate_pe(src, pe, dest); }

/* ---- Device: signals ---- */
static inline void nvshmem_putmem_signal(void *dest, const void *source, size_t nbytes, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmemd_putmem_signal(dest, source, nbytes, sig_addr, signal, sig_op, pe); }
static inline void nvshmem_putmem_signal_nbi(void *dest, const void *source, size_t nbytes, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmemd_putmem_signal_nbi(dest, source, nbytes, sig_addr, signal, sig_op, pe); }
static inline void nvshmemx_signal_op(uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmemd_signal_op(sig_addr, signal, sig_op, pe); }
static inline uint64_t nvshmem_signal_wait_until(uint64_t *sig_addr, int cmp, uint64_t value) { return shmemd_signal_wait_until(sig_addr, cmp, value); }
static inline uint64_t nvshmem_signal_fetch(uint64_t *sig_addr) { return shmemd_signal_fetch(sig_addr); }

/* The group (block, warp) put-with-signal: the group's put, then the
 * group's first thread adds the signal once the data is complete. */
#define OSHM_NV_PUTMEM_SIGNAL_GROUP_(G, LEADER, SYNC)                                           \
    static inline void nvshmemx_putmem_signal_##G(void *dest, const void *source, size_t nbytes, \
                                                  uint64_t *sig_addr, uint64_t signal,          \
                                                  int sig_op, int pe)                           \
    {                                                                                           \
        shmemd_putmem_##G(dest, source, nbytes, pe);                                            \
        if (LEADER)                                                                             \
            shmemd_signal_op(sig_addr, signal, sig_op, pe);                                     \
        SYNC;                                                                                   \
    }                                                                                           \
    static inline void nvshmemx_putmem_signal_nbi_##G(void *dest, const void *source,           \
                                                      size_t nbytes, uint64_t *sig_addr,        \
                                                      uint64_t signal, int sig_op, int pe)      \
    {                                                                                           \
        nvshmemx_putmem_signal_##G(dest, source, nbytes, sig_addr, signal, sig_op, pe);         \
    }
OSHM_NV_PUTMEM_SIGNAL_GROUP_(block, shmemd_thread_idx() == 0, shmemd_block_sync())
OSHM_NV_PUTMEM_SIGNAL_GROUP_(warp, shmemd_thread_idx() % SHMEMD_WARP_SIZE == 0, shmemd_warp_sync())
#undef OSHM_NV_PUTMEM_SIGNAL_GROUP_

/* ---- Device: RMA (contiguous, groups, sized, typed) ---- */
#define OSHM_NV_MEM_(NV, OURS)                                                                  \
    static inline void NV(void *dest, const void *source, size_t nbytes, int pe)                \
    {                                                                                           \
        OURS(dest, source, nbytes, pe);                                                         \
    }
OSHM_NV_MEM_(nvshmem_putmem, shmemd_putmem)
OSHM_NV_MEM_(nvshmem_getmem, shmemd_getmem)
OSHM_NV_MEM_(nvshmem_putmem_nbi, shmemd_putmem_nbi)
OSHM_NV_MEM_(nvshmem_getmem_nbi, shmemd_getmem_nbi)
OSHM_NV_MEM_(nvshmemx_putmem_block, shmemd_putmem_block)
OSHM_NV_MEM_(nvshmemx_getmem_block, shmemd_getmem_block)
OSHM_NV_MEM_(nvshmemx_putmem_nbi_block, shmemd_putmem_nbi_block)
OSHM_NV_MEM_(nvshmemx_getmem_nbi_block, shmemd_getmem_nbi_block)
OSHM_NV_MEM_(nvshmemx_putmem_warp, shmemd_putmem_warp)
OSHM_NV_MEM_(nvshmemx_getmem_warp, shmemd_getmem_warp)
OSHM_NV_MEM_(nvshmemx_putmem_nbi_warp, shmemd_putmem_nbi_warp)
OSHM_NV_MEM_(nvshmemx_getmem_nbi_warp, shmemd_getmem_nbi_warp)
#undef OSHM_NV_MEM_

#define OSHM_NV_SIZED_(BITS, UNIT)                                                              \
    static inline void nvshmem_put##BITS(void *d, const void *s, size_t n, int pe) { shmemd_put##BITS(d, s, n, pe); } \
    static inline void nvshmem_get##BITS(void *d, const void *s, size_t n, int pe) { shmemd_get##BITS(d, s, n, pe); } \
    static inline void nvshmem_put##BITS##_nbi(void *d, const void *s, size_t n, int pe) { shmemd_put##BITS##_nbi(d, s, n, pe); } \
    static inline void nvshmem_get##BITS##_nbi(void *d, const void *s, size_t n, int pe) { shmemd_get##BITS##_nbi(d, s, n, pe); } \
    static inline void nvshmem_iput##BITS(void *d, const void *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) { shmemd_iput##BITS(d, s, dst, sst, n, pe); } \
    static inline void nvshmem_iget##BITS(void *d, const void *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) { shmemd_iget##BITS(d, s, dst, sst, n, pe); } \
    static inline void nvshmem_put##BITS##_signal(void *d, const void *s, size_t n, uint64_t *sig, uint64_t v, int op, int pe) { shmemd_put##BITS##_signal(d, s, n, sig, v, op, pe); } \
    static inline void nvshmem_put##BITS##_signal_nbi(void *d, const void *s, size_t n, uint64_t *sig, uint64_t v, int op, int pe) { shmemd_put##BITS##_signal_nbi(d, s, n, sig, v, op, pe); }
SHMEM_SIZED_TABLE(OSHM_NV_SIZED_)
#undef OSHM_NV_SIZED_

#define OSHM_NV_RMA_ARGS_(T) (T *dest, const T *source, size_t nelems, int pe)
#define OSHM_NV_RMA_ONE_(T, NV, OURS)                                                           \
    static inline void NV OSHM_NV_RMA_ARGS_(T) { OURS(dest, source, nelems, pe); }
#define OSHM_NV_RMA_(T, N)                                                                      \
    OSHM_NV_RMA_ONE_(T, nvshmem_##N##_put, shmemd_##N##_put)                                    \
    OSHM_NV_RMA_ONE_(T, nvshmem_##N##_get, shmemd_##N##_get)                                    \
    OSHM_NV_RMA_ONE_(T, nvshmem_##N##_put_nbi, shmemd_##N##_put_nbi)                            \
    OSHM_NV_RMA_ONE_(T, nvshmem_##N##_get_nbi, shmemd_##N##_get_nbi)                            \
    OSHM_NV_RMA_ONE_(T, nvshmemx_##N##_put_block, shmemd_##N##_put_block)                       \
    OSHM_NV_RMA_ONE_(T, nvshmemx_##N##_get_block, shmemd_##N##_get_block)                       \
    OSHM_NV_RMA_ONE_(T, nvshmemx_##N##_put_nbi_block, shmemd_##N##_put_nbi_block)               \
    OSHM_NV_RMA_ONE_(T, nvshmemx_##N##_get_nbi_block, shmemd_##N##_get_nbi_block)               \
    OSHM_NV_RMA_ONE_(T, nvshmemx_##N##_put_warp, shmemd_##N##_put_warp)                         \
    OSHM_NV_RMA_ONE_(T, nvshmemx_##N##_get_warp, shmemd_##N##_get_warp)                         \
    OSHM_NV_RMA_ONE_(T, nvshmemx_##N##_put_nbi_warp, shmemd_##N##_put_nbi_warp)                 \
    OSHM_NV_RMA_ONE_(T, nvshmemx_##N##_get_nbi_warp, shmemd_##N##_get_nbi_warp)                 \
    static inline void nvshmem_##N##_p(T *dest, T value, int pe) { shmemd_##N##_p(dest, value, pe); } \
    static inline T nvshmem_##N##_g(const T *source, int pe) { return shmemd_##N##_g(source, pe); } \
    static inline void nvshmem_##N##_iput(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmemd_##N##_iput(dest, source, dst, sst, nelems, pe); } \
    static inline void nvshmem_##N##_iget(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmemd_##N##_iget(dest, source, dst, sst, nelems, pe); } \
    static inline void nvshmem_##N##_put_signal(T *dest, const T *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmemd_##N##_put_signal(dest, source, nelems, sig_addr, signal, sig_op, pe); } \
    static inline void nvshmem_##N##_put_signal_nbi(T *dest, const T *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmemd_##N##_put_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, pe); } \
    static inline void nvshmemx_##N##_put_signal_block(T *dest, const T *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { nvshmemx_putmem_signal_block(dest, source, nelems * sizeof(T), sig_addr, signal, sig_op, pe); } \
    static inline void nvshmemx_##N##_put_signal_warp(T *dest, const T *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { nvshmemx_putmem_signal_warp(dest, source, nelems * sizeof(T), sig_addr, signal, sig_op, pe); } \
    static inline int nvshmem_##N##_broadcast(nvshmem_team_t team, T *dest, const T *source, size_t nelems, int root) { return shmemd_##N##_broadcast(team, dest, source, nelems, root); } \
    static inline int nvshmemx_##N##_broadcast_block(nvshmem_team_t team, T *dest, const T *source, size_t nelems, int root) { return shmemd_##N##_broadcast_block(team, dest, source, nelems, root); } \
    static inline int nvshmem_##N##_fcollect(nvshmem_team_t team, T *dest, const T *source, size_t nelems) { return shmemd_##N##_fcollect(team, dest, source, nelems); } \
    static inline int nvshmemx_##N##_fcollect_block(nvshmem_team_t team, T *dest, const T *source, size_t nelems) { return shmemd_##N##_fcollect_block(team, dest, source, nelems); } \
    static inline int nvshmem_##N##_alltoall(nvshmem_team_t team, T *dest, const T *source, size_t nelems) { return shmemd_##N##_alltoall(team, dest, source, nelems); } \
    static inline int nvshmemx_##N##_alltoall_block(nvshmem_team_t team, T *dest, const T *source, size_t nelems) { return shmemd_##N##_alltoall_block(team, dest, source, nelems); } \
    static inline void nvshmemx_##N##_put_on_stream(T *dest, const T *source, size_t nelems, int pe, cudaStream_t s) { shmemd_##N##_put_on_stream(dest, source, nelems, pe, s); } \
    static inline void nvshmemx_##N##_get_on_stream(T *dest, const T *source, size_t nelems, int pe, cudaStream_t s) { shmemd_##N##_get_on_stream(dest, source, nelems, pe, s); }
SHMEMD_RMA_TYPE_TABLE(OSHM_NV_RMA_)
#undef OSHM_NV_RMA_
#undef OSHM_NV_RMA_ONE_
#undef OSHM_NV_RMA_ARGS_

/* ---- Device: AMOs ---- */
#define OSHM_NV_AMO_STD_(T, N, U) OSHM_COMPAT_AMO_STD(nvshmem, int, T, N)
#define OSHM_NV_AMO_EXT_(T, N, U) OSHM_COMPAT_AMO_EXT(nvshmem, int, T, N)
#define OSHM_NV_AMO_BIT_(T, N, U) OSHM_COMPAT_AMO_BIT(nvshmem, int, T, N)
SHMEM_AMO_STANDARD_TABLE(OSHM_NV_AMO_STD_)
SHMEM_AMO_EXTENDED_TABLE(OSHM_NV_AMO_EXT_)
SHMEM_AMO_BITWISE_TABLE(OSHM_NV_AMO_BIT_)
#undef OSHM_NV_AMO_STD_
#undef OSHM_NV_AMO_EXT_
#undef OSHM_NV_AMO_BIT_

/* ---- Device: point-to-point ---- */
#define OSHM_NV_P2P_(T, N)                                                                      \
    static inline void nvshmem_##N##_wait_until(T *ivar, int cmp, T value) { shmemd_##N##_wait_until(ivar, cmp, value); } \
    static inline void nvshmem_##N##_wait_until_all(T *ivars, size_t n, const int *status, int cmp, T value) { shmemd_##N##_wait_until_all(ivars, n, status, cmp, value); } \
    static inline size_t nvshmem_##N##_wait_until_any(T *ivars, size_t n, const int *status, int cmp, T value) { return shmemd_##N##_wait_until_any(ivars, n, status, cmp, value); } \
    static inline size_t nvshmem_##N##_wait_until_some(T *ivars, size_t n, size_t *idx, const int *status, int cmp, T value) { return shmemd_##N##_wait_until_some(ivars, n, idx, status, cmp, value); } \
    static inline void nvshmem_##N##_wait_until_all_vector(T *ivars, size_t n, const int *status, int cmp, const T *values) { shmemd_##N##_wait_until_all_vector(ivars, n, status, cmp, values); } \
    static inline size_t nvshmem_##N##_wait_until_any_vector(T *ivars, size_t n, const int *status, int cmp, const T *values) { return shmemd_##N##_wait_until_any_vector(ivars, n, status, cmp, values); } \
    static inline size_t nvshmem_##N##_wait_until_some_vector(T *ivars, size_t n, size_t *idx, const int *status, int cmp, const T *values) { return shmemd_##N##_wait_until_some_vector(ivars, n, idx, status, cmp, values); } \
    static inline int nvshmem_##N##_test(T *ivar, int cmp, T value) { return shmemd_##N##_test(ivar, cmp, value); } \
    static inline int nvshmem_##N##_test_all(T *ivars, size_t n, const int *status, int cmp, T value) { return shmemd_##N##_test_all(ivars, n, status, cmp, value); } \
    static inline size_t nvshmem_##N##_test_any(T *ivars, size_t n, const int *status, int cmp, T value) { return shmemd_##N##_test_any(ivars, n, status, cmp, value); } \
    static inline size_t nvshmem_##N##_test_some(T *ivars, size_t n, size_t *idx, const int *status, int cmp, T value) { return shmemd_##N##_test_some(ivars, n, idx, status, cmp, value); } \
    static inline int nvshmem_##N##_test_all_vector(T *ivars, size_t n, const int *status, int cmp, const T *values) { return shmemd_##N##_test_all_vector(ivars, n, status, cmp, values); } \
    static inline size_t nvshmem_##N##_test_any_vector(T *ivars, size_t n, const int *status, int cmp, const T *values) { return shmemd_##N##_test_any_vector(ivars, n, status, cmp, values); } \
    static inline size_t nvshmem_##N##_test_some_vector(T *ivars, size_t n, size_t *idx, const int *status, int cmp, const T *values) { return shmemd_##N##_test_some_vector(ivars, n, idx, status, cmp, values); }
SHMEM_P2P_TABLE(OSHM_NV_P2P_)
#undef OSHM_NV_P2P_

/* ---- Reductions: device (thread, block) and in stream order ----
 * nvshmemx_TYPE_OP_reduce_on_stream queues a one-thread kernel that runs
 * the device reduction, so it is ordered with the stream's kernels. */
#define OSHM_NV_REDUCE_(T, N, OP)                                                               \
    static inline int nvshmem_##N##_##OP##_reduce(nvshmem_team_t team, T *dest, const T *source, size_t n) { return shmemd_##N##_##OP##_reduce(team, dest, source, n); } \
    static inline int nvshmemx_##N##_##OP##_reduce_block(nvshmem_team_t team, T *dest, const T *source, size_t n) { return shmemd_##N##_##OP##_reduce_block(team, dest, source, n); } \
    struct oshm_nv_reduce_##N##_##OP { nvshmem_team_t team; T *dest; const T *source; size_t n; }; \
    static inline void oshm_nv_reduce_##N##_##OP##_kernel(void *p)                              \
    {                                                                                           \
        const struct oshm_nv_reduce_##N##_##OP *a = p;                                          \
        shmemd_##N##_##OP##_reduce(a->team, a->dest, a->source, a->n);                          \
    }                                                                                           \
    static inline int nvshmemx_##N##_##OP##_reduce_on_stream(nvshmem_team_t team, T *dest, const T *source, size_t n, cudaStream_t s) \
    {                                                                                           \
        struct oshm_nv_reduce_##N##_##OP a = {team, dest, source, n};                           \
        return shmemx_launch(oshm_nv_reduce_##N##_##OP##_kernel, 1, 1, &a, sizeof a, s);        \
    }
#define OSHM_NV_REDUCE_BITWISE_(T, N) OSHM_NV_REDUCE_(T, N, and) OSHM_NV_REDUCE_(T, N, or) OSHM_NV_REDUCE_(T, N, xor)
#define OSHM_NV_REDUCE_MINMAX_(T, N) OSHM_NV_REDUCE_(T, N, min) OSHM_NV_REDUCE_(T, N, max)
#define OSHM_NV_REDUCE_ARITH_(T, N) OSHM_NV_REDUCE_(T, N, sum) OSHM_NV_REDUCE_(T, N, prod)
SHMEMD_REDUCE_BITWISE_TABLE(OSHM_NV_REDUCE_BITWISE_)
SHMEMD_REDUCE_MINMAX_TABLE(OSHM_NV_REDUCE_MINMAX_)
SHMEMD_REDUCE_ARITH_TABLE(OSHM_NV_REDUCE_ARITH_)
#undef OSHM_NV_REDUCE_
#undef OSHM_NV_REDUCE_BITWISE_
#undef OSHM_NV_REDUCE_MINMAX_
#undef OSHM_NV_REDUCE_ARITH_

/* ---- Host: the rest of the OpenSHMEM host names under NVSHMEM's prefix ---- */
typedef shmem_team_config_t nvshmem_team_config_t;
static inline int nvshmem_init_thread(int requested, int *provided) { return shmem_init_thread(requested, provided); }
static inline void nvshmem_query_thread(int *provided) { shmem_query_thread(provided); }
static inline void nvshmem_global_exit(int status) { shmem_global_exit(status); }
static inline void nvshmem_info_get_version(int *major, int *minor) { shmem_info_get_version(major, minor); }
static inline void nvshmem_info_get_name(char *name) { shmem_info_get_name(name); }
static inline int nvshmem_team_split_strided(nvshmem_team_t parent, int start, int stride, int size, const nvshmem_team_config_t *config, long mask, nvshmem_team_t *team) { return shmem_team_split_strided(parent, start, stride, size, config, mask, team); }
static inline int nvshmem_team_split_2d(nvshmem_team_t parent, int xrange, const nvshmem_team_config_t *xconf, long xmask, nvshmem_team_t *xteam, const nvshmem_team_config_t *yconf, long ymask, nvshmem_team_t *yteam) { return shmem_team_split_2d(parent, xrange, xconf, xmask, xteam, yconf, ymask, yteam); }
static inline void nvshmem_team_destroy(nvshmem_team_t team) { shmem_team_destroy(team); }
static inline int nvshmem_team_get_config(nvshmem_team_t team, long mask, nvshmem_team_config_t *config) { return shmem_team_get_config(team, mask, config); }

/* ---- Group forms the device API has no routine of its own for ----
 * Strided and sized group transfers: the group's first thread moves the
 * data, then the group meets, so every thread returns after the transfer
 * (for _nbi: after it is posted) as the group forms promise. */
#define OSHM_NV_LEADER_block (shmemd_thread_idx() == 0)
#define OSHM_NV_LEADER_warp (shmemd_thread_idx() % SHMEMD_WARP_SIZE == 0)
#define OSHM_NV_SYNC_block shmemd_block_sync()
#define OSHM_NV_SYNC_warp shmemd_warp_sync()
#define OSHM_NV_GROUP_STRIDED_(T, N, G)                                                          \
    static inline void nvshmemx_##N##_iput_##G(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) \
    {                                                                                           \
        if (OSHM_NV_LEADER_##G)                                                                 \
            shmemd_##N##_iput(dest, source, dst, sst, nelems, pe);                              \
        OSHM_NV_SYNC_##G;                                                                       \
    }                                                                                           \
    static inline void nvshmemx_##N##_iget_##G(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) \
    {                                                                                           \
        if (OSHM_NV_LEADER_##G)                                                                 \
            shmemd_##N##_iget(dest, source, dst, sst, nelems, pe);                              \
        OSHM_NV_SYNC_##G;                                                                       \
    }
#define OSHM_NV_GROUP_STRIDED_BOTH_(T, N) OSHM_NV_GROUP_STRIDED_(T, N, block) OSHM_NV_GROUP_STRIDED_(T, N, warp)
SHMEMD_RMA_TYPE_TABLE(OSHM_NV_GROUP_STRIDED_BOTH_)
#undef OSHM_NV_GROUP_STRIDED_BOTH_
#undef OSHM_NV_GROUP_STRIDED_
#define OSHM_NV_GROUP_SIZED_(BITS, G)                                                           \
    static inline void nvshmemx_put##BITS##_##G(void *d, const void *s, size_t n, int pe) { shmemd_putmem_##G(d, s, n * (BITS / 8), pe); } \
    static inline void nvshmemx_get##BITS##_##G(void *d, const void *s, size_t n, int pe) { shmemd_getmem_##G(d, s, n * (BITS / 8), pe); } \
    static inline void nvshmemx_put##BITS##_nbi_##G(void *d, const void *s, size_t n, int pe) { shmemd_putmem_nbi_##G(d, s, n * (BITS / 8), pe); } \
    static inline void nvshmemx_get##BITS##_nbi_##G(void *d, const void *s, size_t n, int pe) { shmemd_getmem_nbi_##G(d, s, n * (BITS / 8), pe); } \
    static inline void nvshmemx_put##BITS##_signal_##G(void *d, const void *s, size_t n, uint64_t *sig, uint64_t v, int op, int pe) { nvshmemx_putmem_signal_##G(d, s, n * (BITS / 8), sig, v, op, pe); } \
    static inline void nvshmemx_put##BITS##_signal_nbi_##G(void *d, const void *s, size_t n, uint64_t *sig, uint64_t v, int op, int pe) { nvshmemx_putmem_signal_##G(d, s, n * (BITS / 8), sig, v, op, pe); } \
    static inline void nvshmemx_iput##BITS##_##G(void *d, const void *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) \
    {                                                                                           \
        if (OSHM_NV_LEADER_##G)                                                                 \
            shmemd_iput##BITS(d, s, dst, sst, n, pe);                                           \
        OSHM_NV_SYNC_##G;                                                                       \
    }                                                                                           \
    static inline void nvshmemx_iget##BITS##_##G(void *d, const void *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) \
    {                                                                                           \
        if (OSHM_NV_LEADER_##G)                                                                 \
            shmemd_iget##BITS(d, s, dst, sst, n, pe);                                           \
        OSHM_NV_SYNC_##G;                                                                       \
    }
#define OSHM_NV_GROUP_SIZED_BOTH_(BITS, UNIT) OSHM_NV_GROUP_SIZED_(BITS, block) OSHM_NV_GROUP_SIZED_(BITS, warp)
SHMEM_SIZED_TABLE(OSHM_NV_GROUP_SIZED_BOTH_)
#undef OSHM_NV_GROUP_SIZED_BOTH_
#undef OSHM_NV_GROUP_SIZED_
static inline int nvshmemx_broadcastmem_block(nvshmem_team_t team, void *dest, const void *source, size_t nbytes, int root) { return shmemd_broadcastmem_block(team, dest, source, nbytes, root); }
static inline int nvshmemx_fcollectmem_block(nvshmem_team_t team, void *dest, const void *source, size_t nbytes) { return shmemd_fcollectmem_block(team, dest, source, nbytes); }
static inline int nvshmemx_alltoallmem_block(nvshmem_team_t team, void *dest, const void *source, size_t nbytes) { return shmemd_alltoallmem_block(team, dest, source, nbytes); }
static inline int nvshmem_broadcastmem(nvshmem_team_t team, void *dest, const void *source, size_t nbytes, int root) { return shmemd_broadcastmem(team, dest, source, nbytes, root); }
static inline int nvshmem_fcollectmem(nvshmem_team_t team, void *dest, const void *source, size_t nbytes) { return shmemd_fcollectmem(team, dest, source, nbytes); }
static inline int nvshmem_alltoallmem(nvshmem_team_t team, void *dest, const void *source, size_t nbytes) { return shmemd_alltoallmem(team, dest, source, nbytes); }

/* ---- Stream-ordered forms with no host routine of their own ----
 * Each queues a one-thread kernel that runs the device routine, so it is
 * ordered with the stream's kernels and meets their collectives. */
struct oshm_nv_team_arg {
    nvshmem_team_t team;
};
static inline void oshm_nv_sync_all_kernel(void *p) { (void)p; shmemd_sync_all(); }
static inline void oshm_nv_team_sync_kernel(void *p) { shmemd_team_sync(((const struct oshm_nv_team_arg *)p)->team); }
static inline void nvshmemx_sync_all_on_stream(cudaStream_t s) { shmemx_launch(oshm_nv_sync_all_kernel, 1, 1, NULL, 0, s); }
static inline void nvshmemx_team_sync_on_stream(nvshmem_team_t team, cudaStream_t s)
{
    struct oshm_nv_team_arg a = {team};
    shmemx_launch(oshm_nv_team_sync_kernel, 1, 1, &a, sizeof a, s);
}
struct oshm_nv_coll_arg {
    nvshmem_team_t team;
    void *dest;
    const void *source;
    size_t nbytes;
    int root;
};
static inline void oshm_nv_broadcastmem_kernel(void *p) { const struct oshm_nv_coll_arg *a = p; shmemd_broadcastmem(a->team, a->dest, a->source, a->nbytes, a->root); }
static inline void oshm_nv_fcollectmem_kernel(void *p) { const struct oshm_nv_coll_arg *a = p; shmemd_fcollectmem(a->team, a->dest, a->source, a->nbytes); }
static inline void oshm_nv_alltoallmem_kernel(void *p) { const struct oshm_nv_coll_arg *a = p; shmemd_alltoallmem(a->team, a->dest, a->source, a->nbytes); }
static inline int nvshmemx_broadcastmem_on_stream(nvshmem_team_t team, void *dest, const void *source, size_t nbytes, int root, cudaStream_t s)
{
    struct oshm_nv_coll_arg a = {team, dest, source, nbytes, root};
    return shmemx_launch(oshm_nv_broadcastmem_kernel, 1, 1, &a, sizeof a, s);
}
static inline int nvshmemx_fcollectmem_on_stream(nvshmem_team_t team, void *dest, const void *source, size_t nbytes, cudaStream_t s)
{
    struct oshm_nv_coll_arg a = {team, dest, source, nbytes, 0};
    return shmemx_launch(oshm_nv_fcollectmem_kernel, 1, 1, &a, sizeof a, s);
}
static inline int nvshmemx_alltoallmem_on_stream(nvshmem_team_t team, void *dest, const void *source, size_t nbytes, cudaStream_t s)
{
    struct oshm_nv_coll_arg a = {team, dest, source, nbytes, 0};
    return shmemx_launch(oshm_nv_alltoallmem_kernel, 1, 1, &a, sizeof a, s);
}
static inline void nvshmemx_putmem_nbi_on_stream(void *dest, const void *source, size_t nbytes, int pe, cudaStream_t s) { shmemd_putmem_on_stream(dest, source, nbytes, pe, s); }
static inline void nvshmemx_getmem_nbi_on_stream(void *dest, const void *source, size_t nbytes, int pe, cudaStream_t s) { shmemd_getmem_on_stream(dest, source, nbytes, pe, s); }
static inline void nvshmemx_putmem_signal_nbi_on_stream(void *dest, const void *source, size_t nbytes, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe, cudaStream_t s) { shmemd_putmem_signal_on_stream(dest, source, nbytes, sig_addr, signal, sig_op, pe, s); }
#define OSHM_NV_TYPED_ON_STREAM_(T, N)                                                          \
    static inline void nvshmemx_##N##_put_nbi_on_stream(T *dest, const T *source, size_t nelems, int pe, cudaStream_t s) { shmemd_##N##_put_on_stream(dest, source, nelems, pe, s); } \
    static inline void nvshmemx_##N##_get_nbi_on_stream(T *dest, const T *source, size_t nelems, int pe, cudaStream_t s) { shmemd_##N##_get_on_stream(dest, source, nelems, pe, s); } \
    static inline void nvshmemx_##N##_put_signal_on_stream(T *dest, const T *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe, cudaStream_t s) { shmemd_putmem_signal_on_stream(dest, source, nelems * sizeof(T), sig_addr, signal, sig_op, pe, s); } \
    static inline void nvshmemx_##N##_put_signal_nbi_on_stream(T *dest, const T *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe, cudaStream_t s) { shmemd_putmem_signal_on_stream(dest, source, nelems * sizeof(T), sig_addr, signal, sig_op, pe, s); } \
    struct oshm_nv_p_##N { T *dest; T value; int pe; };                                          \
    static inline void oshm_nv_p_##N##_kernel(void *p) { const struct oshm_nv_p_##N *a = p; shmemd_##N##_p(a->dest, a->value, a->pe); } \
    static inline void nvshmemx_##N##_p_on_stream(T *dest, T value, int pe, cudaStream_t s)    \
    {                                                                                           \
        struct oshm_nv_p_##N a = {dest, value, pe};                                             \
        shmemx_launch(oshm_nv_p_##N##_kernel, 1, 1, &a, sizeof a, s);                           \
    }                                                                                           \
    static inline int nvshmemx_##N##_broadcast_on_stream(nvshmem_team_t team, T *dest, const T *source, size_t nelems, int root, cudaStream_t s) { return nvshmemx_broadcastmem_on_stream(team, dest, source, nelems * sizeof(T), root, s); } \
    static inline int nvshmemx_##N##_fcollect_on_stream(nvshmem_team_t team, T *dest, const T *source, size_t nelems, cudaStream_t s) { return nvshmemx_fcollectmem_on_stream(team, dest, source, nelems * sizeof(T), s); } \
    static inline int nvshmemx_##N##_alltoall_on_stream(nvshmem_team_t team, T *dest, const T *source, size_t nelems, cudaStream_t s) { return nvshmemx_alltoallmem_on_stream(team, dest, source, nelems * sizeof(T), s); }
SHMEMD_RMA_TYPE_TABLE(OSHM_NV_TYPED_ON_STREAM_)
#undef OSHM_NV_TYPED_ON_STREAM_
#define OSHM_NV_WAIT_ON_STREAM_(T, N)                                                           \
    struct oshm_nv_wait_##N { T *ivar; int cmp; T value; };                                     \
    static inline void oshm_nv_wait_##N##_kernel(void *p) { const struct oshm_nv_wait_##N *a = p; shmemd_##N##_wait_until(a->ivar, a->cmp, a->value); } \
    static inline void nvshmemx_##N##_wait_until_on_stream(T *ivar, int cmp, T value, cudaStream_t s) \
    {                                                                                           \
        struct oshm_nv_wait_##N a = {ivar, cmp, value};                                         \
        shmemx_launch(oshm_nv_wait_##N##_kernel, 1, 1, &a, sizeof a, s);                        \
    }
SHMEM_P2P_TABLE(OSHM_NV_WAIT_ON_STREAM_)
#undef OSHM_NV_WAIT_ON_STREAM_

#endif
