/*
 * CANN SHMEM (hicann/shmem) names on this library: a kernel written for
 * CANN SHMEM's C interface ports by replacing its include of "shmem.h" /
 * "aclshmem.h" with this header. aclshmem_* (device and host) and
 * aclshmemx_* (per-engine, extensions) names are static inline wrappers or
 * macros over shmemd_*; docs/device.md has the table and the names with no
 * equivalent.
 *
 * The older shmem_* device names of CANN kernels (shmem_putmem,
 * shmem_put_float_mem_nbi, shmem_float_p, shmem_barrier_all, ...) collide
 * with the host OpenSHMEM API, so they are mapped only where a file asks:
 * define OSHM_CANN_SHMEM_NAMES before including this header, and in that
 * file the colliding names (OSHM_CANN_DEVICE_ALIASES below) are the device
 * routines. Host code of the same file then reaches a host routine of such a
 * name by parenthesising it, `(shmem_barrier_all)()`, which a function-like
 * macro does not expand; called from the host by mistake, the device routine
 * stops the job with an error that names it. Names that do not collide
 * (shmem_put_float_mem, shmem_mte_put_mem_nbi, ...) are always there.
 *
 * What a port still changes, because C is not Ascend C++: the kernel is
 * `void k(void *args)` launched with shmemx_launch instead of <<<...>>>;
 * AscendC tensors and SetFlag/WaitFlag pipe events have no C form (the
 * simulation has no pipes to order). CANN signals are 32-bit words
 * (int32_t), ours 64-bit: aclshmem_*_signal and aclshmemx_signal_op are
 * here a put, a fence and a 32-bit atomic, which keeps "the signal lands
 * after the data".
 */
#ifndef SHMEM_COMPAT_ACLSHMEM_H
#define SHMEM_COMPAT_ACLSHMEM_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <shmem.h>
#include <shmemx.h>
#include <shmem/device.h>
#include <shmem/compat/amo_wrappers.h>

/* ---- Ascend C qualifiers and the runtime calls kernels' programs use ---- */
#if !defined(__CCE_AICORE__) && !defined(__CCE_KT_TEST__)
#define __gm__
#define __aicore__
#define __ubuf__
#define __global__
#endif
#define ACLSHMEM_DEVICE OSHM_AICORE
#define ACLSHMEM_GLOBAL OSHM_AICORE
#define ACLSHMEM_HOST_API
#ifndef GM_ADDR
#define GM_ADDR uint8_t *
#endif
#define GetBlockIdx() ((int64_t)shmemd_block_idx())
#define GetBlockNum() ((int64_t)shmemd_block_num())

typedef shmemd_half_t half;
typedef shmemd_bfloat16_t bfloat16_t;

typedef shmemx_stream_t aclrtStream;
typedef int aclError;
#define ACL_SUCCESS 0
typedef enum aclrtMemcpyKind {
    ACL_MEMCPY_HOST_TO_HOST,
    ACL_MEMCPY_HOST_TO_DEVICE,
    ACL_MEMCPY_DEVICE_TO_HOST,
    ACL_MEMCPY_DEVICE_TO_DEVICE,
} aclrtMemcpyKind;
static inline aclError aclInit(const char *config) { (void)config; return 0; }
static inline aclError aclFinalize(void) { return 0; }
/* The simulation gives each PE a device of its own (shmemd_device_id). */
static inline aclError aclrtSetDevice(int32_t device) { (void)device; return 0; }
static inline aclError aclrtResetDevice(int32_t device) { (void)device; return 0; }
static inline aclError aclrtCreateStream(aclrtStream *s) { return shmemx_stream_create(s) ? 1 : 0; }
static inline aclError aclrtDestroyStream(aclrtStream s) { shmemx_stream_destroy(s); return 0; }
static inline aclError aclrtSynchronizeStream(aclrtStream s) { shmemx_stream_synchronize(s); return 0; }
static inline aclError aclrtSynchronizeDevice(void) { shmemx_device_synchronize(); return 0; }
/* Host <-> this PE's device memory after the default stream's earlier
 * work; COUNT must fit DEST_MAX, as aclrtMemcpy requires. */
static inline aclError aclrtMemcpy(void *dst, size_t dest_max, const void *src, size_t count,
                                   aclrtMemcpyKind kind)
{
    if (count > dest_max)
        return 1;
    if (kind == ACL_MEMCPY_HOST_TO_DEVICE || kind == ACL_MEMCPY_DEVICE_TO_HOST)
        return shmemd_memcpy(dst, src, count, shmemd_my_pe()) ? 1 : 0;
    shmemx_stream_synchronize(NULL);
    memmove(dst, src, count);
    return 0;
}

/* ---- Types and constants ---- */
typedef int aclshmem_team_t;
#define ACLSHMEM_TEAM_INVALID (-1)
#define ACLSHMEM_TEAM_WORLD 0
#define ACLSHMEM_SIGNAL_SET SHMEM_SIGNAL_SET
#define ACLSHMEM_SIGNAL_ADD SHMEM_SIGNAL_ADD
#define ACLSHMEM_CMP_EQ SHMEM_CMP_EQ
#define ACLSHMEM_CMP_NE SHMEM_CMP_NE
#define ACLSHMEM_CMP_GT SHMEM_CMP_GT
#define ACLSHMEM_CMP_GE SHMEM_CMP_GE
#define ACLSHMEM_CMP_LT SHMEM_CMP_LT
#define ACLSHMEM_CMP_LE SHMEM_CMP_LE
typedef shmemd_init_attr_t aclshmemx_init_attr_t;
typedef shmemd_uniqueid_t aclshmemx_uniqueid_t;
#define ACLSHMEMX_UNIQUEID_INITIALIZER SHMEMD_UNIQUEID_INITIALIZER
#define ACLSHMEMX_INIT_WITH_DEFAULT 0u
#define ACLSHMEMX_INIT_WITH_UNIQUEID SHMEMD_INIT_WITH_UNIQUEID

/* CANN teams are small integers; team 0 is the world. Other CANN team ids
 * come from CANN's host team routines, which have no equivalent here. */
static inline shmemd_team_t oshm_acl_team(aclshmem_team_t team)
{
    return team == ACLSHMEM_TEAM_WORLD ? SHMEMD_TEAM_WORLD : SHMEMD_TEAM_INVALID;
}

/* ---- Host: start-up, memory, stream-ordered operations ---- */
static inline int aclshmemx_init_attr(unsigned flags, aclshmemx_init_attr_t *attr) { return shmemd_init_attr(flags, attr); }
static inline int aclshmemx_get_uniqueid(aclshmemx_uniqueid_t *uid) { return shmemd_get_uniqueid(uid); }
/* LOCAL_MEM_SIZE is the device heap (CANN's symmetric memory is device memory). */
static inline int aclshmemx_set_attr_uniqueid_args(int my_pe, int n_pes, int64_t local_mem_size,
                                                   aclshmemx_uniqueid_t *uid,
                                                   aclshmemx_init_attr_t *attr)
{
    int rc = shmemd_set_attr_uniqueid_args(my_pe, n_pes, uid, attr);
    if (rc == 0 && local_mem_size > 0)
        attr->device_heap_size = (size_t)local_mem_size;
    return rc;
}
static inline int aclshmem_finalize(void) { shmem_finalize(); return 0; }
static inline int aclshmemx_finalize(void) { shmem_finalize(); return 0; }
static inline void aclshmem_global_exit(int status) { shmem_global_exit(status); }
static inline void aclshmem_info_get_version(int *major, int *minor) { shmem_info_get_version(major, minor); }
static inline void aclshmem_info_get_name(char *name) { shmem_info_get_name(name); }
static inline void *aclshmem_malloc(size_t size) { return shmemd_malloc(size); }
static inline void *aclshmem_calloc(size_t count, size_t size) { return shmemd_calloc(count, size); }
static inline void aclshmem_free(void *ptr) { shmemd_free(ptr); }
static inline void aclshmemx_putmem_on_stream(void *dst, void *src, size_t nbytes, int32_t pe, aclrtStream s) { shmemd_putmem_on_stream(dst, src, nbytes, pe, s); }
static inline void aclshmemx_getmem_on_stream(void *dst, void *src, size_t nbytes, int32_t pe, aclrtStream s) { shmemd_getmem_on_stream(dst, src, nbytes, pe, s); }
static inline void aclshmemx_quiet_on_stream(aclrtStream s) { shmemd_quiet_on_stream(s); }
static inline void aclshmemx_barrier_all_on_stream(aclrtStream s) { shmemd_barrier_all_on_stream(s); }
static inline void aclshmemx_barrier_on_stream(aclshmem_team_t team, aclrtStream s) { shmemd_team_barrier_on_stream(oshm_acl_team(team), s); }

/* ---- Device: PE queries, ordering, synchronization ----
 * my_pe, n_pes, ptr, barrier_all and the team queries serve host code too,
 * as CANN's names of both sides do. */
static inline int aclshmem_my_pe(void) { return shmemd_my_pe(); }
static inline int aclshmem_n_pes(void) { return shmemd_n_pes(); }
static inline void *aclshmem_ptr(void *ptr, int pe) { return shmemd_ptr(ptr, pe); }
static inline void aclshmem_quiet(void) { shmemd_quiet(); }
static inline void aclshmem_fence(void) { shmemd_fence(); }
static inline void aclshmem_barrier_all(void) { if (shmemd_in_kernel()) shmemd_barrier_all(); else shmem_barrier_all(); }
static inline void aclshmem_barrier(aclshmem_team_t team) { shmemd_team_barrier(oshm_acl_team(team)); }
static inline void aclshmemx_barrier_all_vec(void) { shmemd_barrier_all(); }
static inline void aclshmemx_barrier_vec(aclshmem_team_t team) { shmemd_team_barrier(oshm_acl_team(team)); }
static inline void aclshmem_sync_all(void) { shmemd_sync_all(); }
static inline void aclshmem_sync(aclshmem_team_t team) { shmemd_team_sync(oshm_acl_team(team)); }
static inline int aclshmem_team_my_pe(aclshmem_team_t team) { return shmemd_in_kernel() ? shmemd_team_my_pe(oshm_acl_team(team)) : shmem_team_my_pe(oshm_acl_team(team)); }
static inline int aclshmem_team_n_pes(aclshmem_team_t team) { return shmemd_in_kernel() ? shmemd_team_n_pes(oshm_acl_team(team)) : shmem_team_n_pes(oshm_acl_team(team)); }
static inline int aclshmem_team_translate_pe(aclshmem_team_t src, int pe, aclshmem_team_t dest)
{
    shmemd_team_t s = oshm_acl_team(src), d = oshm_acl_team(dest);
    return shmemd_in_kernel() ? shmemd_team_translate_pe(s, pe, d) : shmem_team_translate_pe(s, pe, d);
}
static inline int aclshmem_team_pe_mapping(aclshmem_team_t team, int pe) { return aclshmem_team_translate_pe(team, pe, ACLSHMEM_TEAM_WORLD); }

/* ---- Device: 32-bit signals ---- */
static inline void aclshmemx_signal_op(int32_t *sig_addr, int32_t signal, int sig_op, int pe)
{
    if (sig_op == ACLSHMEM_SIGNAL_ADD)
        shmemd_int32_atomic_add(sig_addr, signal, pe);
    else
        shmemd_int32_atomic_set(sig_addr, signal, pe);
}
static inline int32_t aclshmem_signal_wait_until(int32_t *sig_addr, int cmp, int32_t value)
{
    shmemd_int32_wait_until(sig_addr, cmp, value);
    return __atomic_load_n(sig_addr, __ATOMIC_ACQUIRE);
}
static inline void aclshmem_putmem_signal(void *dst, void *src, size_t nbytes, int32_t *sig_addr,
                                          int32_t signal, int sig_op, int pe)
{
    shmemd_putmem(dst, src, nbytes, pe);
    aclshmemx_signal_op(sig_addr, signal, sig_op, pe);
}
static inline void aclshmem_putmem_signal_nbi(void *dst, void *src, size_t nbytes, int32_t *sig_addr,
                                              int32_t signal, int sig_op, int pe)
{
    shmemd_putmem_nbi(dst, src, nbytes, pe);
    shmemd_fence();
    aclshmemx_signal_op(sig_addr, signal, sig_op, pe);
}
/* CANN's newer spellings of the same two. */
#define aclshmemx_putmem_signal aclshmem_putmem_signal
#define aclshmemx_putmem_signal_nbi aclshmem_putmem_signal_nbi

/* Stream-ordered 32-bit signal operations: a one-thread kernel on S. */
struct oshm_acl_sig {
    int32_t *sig_addr;
    int32_t value;
    int op, pe;
};
static inline void oshm_acl_signal_op_kernel(void *p)
{
    const struct oshm_acl_sig *a = p;
    aclshmemx_signal_op(a->sig_addr, a->value, a->op, a->pe);
    shmemd_quiet();
}
static inline void oshm_acl_signal_wait_kernel(void *p)
{
    const struct oshm_acl_sig *a = p;
    shmemd_int32_wait_until(a->sig_addr, a->op, a->value);
}
static inline void aclshmemx_signal_op_on_stream(int32_t *sig_addr, int32_t signal, int sig_op, int pe, aclrtStream s)
{
    struct oshm_acl_sig a = {sig_addr, signal, sig_op, pe};
    shmemx_launch(oshm_acl_signal_op_kernel, 1, 1, &a, sizeof a, s);
}
static inline void aclshmemx_signal_wait_until_on_stream(int32_t *sig_addr, int cmp, int32_t value, aclrtStream s)
{
    struct oshm_acl_sig a = {sig_addr, value, cmp, 0};
    shmemx_launch(oshm_acl_signal_wait_kernel, 1, 1, &a, sizeof a, s);
}

/* ---- Device: RMA ----
 * CANN overloads its typed put_nbi/get_nbi for a local side in global
 * memory (gm2gm) or in the unified buffer (ub2gm); C has one name, so the
 * wrapper looks where the local side lies. */
static inline int oshm_acl_in_ub(const void *p)
{
    const char *base = (const char *)shmemd_ub_base(), *q = (const char *)p;
    return q >= base && q < base + shmemd_ub_size();
}
#define OSHM_ACL_MEM_(ACL, OURS)                                                                \
    static inline void ACL(void *dst, void *src, uint32_t nbytes, int32_t pe) { OURS(dst, src, nbytes, pe); }
OSHM_ACL_MEM_(aclshmem_putmem, shmemd_putmem)
OSHM_ACL_MEM_(aclshmem_getmem, shmemd_getmem)
OSHM_ACL_MEM_(aclshmem_putmem_nbi, shmemd_putmem_nbi)
OSHM_ACL_MEM_(aclshmem_getmem_nbi, shmemd_getmem_nbi)
#undef OSHM_ACL_MEM_

#define OSHM_ACL_SIZED_(BITS, UNIT)                                                             \
    static inline void aclshmem_put##BITS(void *d, void *s, uint32_t n, int32_t pe) { shmemd_put##BITS(d, s, n, pe); } \
    static inline void aclshmem_get##BITS(void *d, void *s, uint32_t n, int32_t pe) { shmemd_get##BITS(d, s, n, pe); } \
    static inline void aclshmem_put##BITS##_nbi(void *d, void *s, uint32_t n, int32_t pe) { shmemd_put##BITS##_nbi(d, s, n, pe); } \
    static inline void aclshmem_get##BITS##_nbi(void *d, void *s, uint32_t n, int32_t pe) { shmemd_get##BITS##_nbi(d, s, n, pe); } \
    static inline void aclshmem_iput##BITS(void *d, void *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) { shmemd_iput##BITS(d, s, dst, sst, n, pe); } \
    static inline void aclshmem_iget##BITS(void *d, void *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) { shmemd_iget##BITS(d, s, dst, sst, n, pe); } \
    static inline void aclshmem_put##BITS##_signal(void *d, void *s, size_t n, int32_t *sig, int32_t v, int op, int pe) { aclshmem_putmem_signal(d, s, n * (BITS / 8), sig, v, op, pe); } \
    static inline void aclshmem_put##BITS##_signal_nbi(void *d, void *s, size_t n, int32_t *sig, int32_t v, int op, int pe) { aclshmem_putmem_signal_nbi(d, s, n * (BITS / 8), sig, v, op, pe); }
SHMEM_SIZED_TABLE(OSHM_ACL_SIZED_)
#undef OSHM_ACL_SIZED_

/* Typed: aclshmem_TYPE_* and the older shmem_put_TYPE_mem* spellings. */
#define OSHM_ACL_RMA_(T, N)                                                                     \
    static inline void aclshmem_##N##_put(T *dst, T *src, uint32_t n, int32_t pe) { shmemd_##N##_put(dst, src, n, pe); } \
    static inline void aclshmem_##N##_get(T *dst, T *src, uint32_t n, int32_t pe) { shmemd_##N##_get(dst, src, n, pe); } \
    static inline void aclshmem_##N##_put_nbi(T *dst, T *src, uint32_t n, int32_t pe)          \
    {                                                                                           \
        if (oshm_acl_in_ub(src))                                                                \
            shmemd_putmem_ub_nbi(dst, src, (size_t)n * sizeof(T), pe);                          \
        else                                                                                    \
            shmemd_##N##_put_nbi(dst, src, n, pe);                                              \
    }                                                                                           \
    static inline void aclshmem_##N##_get_nbi(T *dst, T *src, uint32_t n, int32_t pe)          \
    {                                                                                           \
        if (oshm_acl_in_ub(dst))                                                                \
            shmemd_getmem_ub_nbi(dst, src, (size_t)n * sizeof(T), pe);                          \
        else                                                                                    \
            shmemd_##N##_get_nbi(dst, src, n, pe);                                              \
    }                                                                                           \
    static inline void aclshmem_##N##_p(T *dst, const T value, int pe) { shmemd_##N##_p(dst, value, pe); } \
    static inline T aclshmem_##N##_g(T *src, int32_t pe) { return shmemd_##N##_g(src, pe); }   \
    static inline void aclshmem_##N##_iput(T *dest, T *source, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) { shmemd_##N##_iput(dest, source, dst, sst, n, pe); } \
    static inline void aclshmem_##N##_iget(T *dest, T *source, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) { shmemd_##N##_iget(dest, source, dst, sst, n, pe); } \
    static inline void aclshmem_##N##_put_signal(T *dst, T *src, size_t n, int32_t *sig, int32_t v, int op, int pe) { aclshmem_putmem_signal(dst, src, n * sizeof(T), sig, v, op, pe); } \
    static inline void aclshmem_##N##_put_signal_nbi(T *dst, T *src, size_t n, int32_t *sig, int32_t v, int op, int pe) { aclshmem_putmem_signal_nbi(dst, src, n * sizeof(T), sig, v, op, pe); } \
    static inline void shmem_put_##N##_mem(T *dst, T *src, uint32_t n, int32_t pe) { aclshmem_##N##_put(dst, src, n, pe); } \
    static inline void shmem_get_##N##_mem(T *dst, T *src, uint32_t n, int32_t pe) { aclshmem_##N##_get(dst, src, n, pe); } \
    static inline void shmem_put_##N##_mem_nbi(T *dst, T *src, uint32_t n, int32_t pe) { aclshmem_##N##_put_nbi(dst, src, n, pe); } \
    static inline void shmem_get_##N##_mem_nbi(T *dst, T *src, uint32_t n, int32_t pe) { aclshmem_##N##_get_nbi(dst, src, n, pe); } \
    static inline void shmem_put_##N##_mem_signal(T *dst, T *src, size_t n, int32_t *sig, int32_t v, int op, int pe) { aclshmem_##N##_put_signal(dst, src, n, sig, v, op, pe); } \
    static inline void shmem_put_##N##_mem_signal_nbi(T *dst, T *src, size_t n, int32_t *sig, int32_t v, int op, int pe) { aclshmem_##N##_put_signal_nbi(dst, src, n, sig, v, op, pe); }
SHMEMD_RMA_TYPE_TABLE(OSHM_ACL_RMA_)
#undef OSHM_ACL_RMA_

/* Per-engine transfers, typed by the pointer as CANN's templates are:
 * NELEMS elements of *DST. The staging buffer, its size and the pipe event
 * (sync_id) of the UB-staged engines are accepted and not needed: the
 * simulated engines move global memory directly. */
#define aclshmemx_mte_put_nbi(dst, src, buf, ub_size, nelems, pe, sync_id)                     \
    shmemd_putmem_nbi_mte((dst), (src), (size_t)(nelems) * sizeof *(dst), (pe))
#define aclshmemx_mte_get_nbi(dst, src, buf, ub_size, nelems, pe, sync_id)                     \
    shmemd_getmem_nbi_mte((dst), (src), (size_t)(nelems) * sizeof *(dst), (pe))
#define aclshmemx_sdma_put_nbi(dst, src, buf, ub_size, nelems, pe, sync_id)                    \
    shmemd_putmem_nbi_sdma((dst), (src), (size_t)(nelems) * sizeof *(dst), (pe))
#define aclshmemx_sdma_get_nbi(dst, src, buf, ub_size, nelems, pe, sync_id)                    \
    shmemd_getmem_nbi_sdma((dst), (src), (size_t)(nelems) * sizeof *(dst), (pe))
#define aclshmemx_udma_put_nbi(dst, src, buf, nelems, pe, ...)                                 \
    shmemd_putmem_nbi_udma((dst), (src), (size_t)(nelems) * sizeof *(dst), (pe))
#define aclshmemx_udma_get_nbi(dst, src, buf, nelems, pe, ...)                                 \
    shmemd_getmem_nbi_udma((dst), (src), (size_t)(nelems) * sizeof *(dst), (pe))
#define aclshmemx_roce_put_nbi(dst, src, buf, nelems, pe, ...)                                 \
    shmemd_putmem_nbi_rdma((dst), (src), (size_t)(nelems) * sizeof *(dst), (pe))
#define aclshmemx_roce_get_nbi(dst, src, buf, nelems, pe, ...)                                 \
    shmemd_getmem_nbi_rdma((dst), (src), (size_t)(nelems) * sizeof *(dst), (pe))
#define aclshmemx_udma_put_signal_nbi(dst, src, nelems, sig_addr, signal, pe, ...)             \
    shmemd_putmem_signal_nbi((dst), (src), (size_t)(nelems) * sizeof *(dst), (sig_addr),       \
                             (signal), SHMEM_SIGNAL_SET, (pe))
/* Each engine's quiet: this thread's descriptors on every engine. */
#define aclshmemx_mte_quiet() shmemd_quiet()
#define aclshmemx_sdma_quiet(...) shmemd_quiet()
#define aclshmemx_udma_quiet(pe) ((void)(pe), shmemd_quiet())
#define aclshmemx_roce_quiet(...) shmemd_quiet()
#define aclshmemx_roce_barrier_all(...) shmemd_barrier_all()
#define aclshmemx_roce_sync_all(...) shmemd_sync_all()
/* Engine AMOs, typed by the pointer (C11 _Generic forms of device_sync.h);
 * AMOs run on the engine the unsuffixed routine picks. */
#define aclshmemx_mte_atomic_fetch(src, pe) shmemd_atomic_fetch(src, pe)
#define aclshmemx_mte_atomic_set(dst, v, pe) shmemd_atomic_set(dst, v, pe)
#define aclshmemx_mte_atomic_swap(dst, v, pe) shmemd_atomic_swap(dst, v, pe)
#define aclshmemx_mte_atomic_compare_swap(dst, c, v, pe) shmemd_atomic_compare_swap(dst, c, v, pe)
#define aclshmemx_mte_atomic_inc(dst, pe) shmemd_atomic_inc(dst, pe)
#define aclshmemx_mte_atomic_fetch_inc(dst, pe) shmemd_atomic_fetch_inc(dst, pe)
#define aclshmemx_mte_atomic_add(dst, v, pe) shmemd_atomic_add(dst, v, pe)
#define aclshmemx_mte_atomic_fetch_add(dst, v, pe) shmemd_atomic_fetch_add(dst, v, pe)
#define aclshmemx_udma_atomic_fetch(src, pe) shmemd_atomic_fetch(src, pe)
#define aclshmemx_udma_atomic_set(dst, v, pe) shmemd_atomic_set(dst, v, pe)
#define aclshmemx_udma_atomic_swap(dst, v, pe) shmemd_atomic_swap(dst, v, pe)
#define aclshmemx_udma_atomic_compare_swap(dst, c, v, pe) shmemd_atomic_compare_swap(dst, c, v, pe)
#define aclshmemx_udma_atomic_inc(dst, pe) shmemd_atomic_inc(dst, pe)
#define aclshmemx_udma_atomic_fetch_inc(dst, pe) shmemd_atomic_fetch_inc(dst, pe)
#define aclshmemx_udma_atomic_add(dst, v, pe) shmemd_atomic_add(dst, v, pe)
#define aclshmemx_udma_atomic_fetch_add(dst, v, pe) shmemd_atomic_fetch_add(dst, v, pe)
#define aclshmemx_udma_atomic_and(dst, v, pe) shmemd_atomic_and(dst, v, pe)
#define aclshmemx_udma_atomic_fetch_and(dst, v, pe) shmemd_atomic_fetch_and(dst, v, pe)
#define aclshmemx_udma_atomic_or(dst, v, pe) shmemd_atomic_or(dst, v, pe)
#define aclshmemx_udma_atomic_fetch_or(dst, v, pe) shmemd_atomic_fetch_or(dst, v, pe)
#define aclshmemx_udma_atomic_xor(dst, v, pe) shmemd_atomic_xor(dst, v, pe)
#define aclshmemx_udma_atomic_fetch_xor(dst, v, pe) shmemd_atomic_fetch_xor(dst, v, pe)
#define aclshmemx_roce_atomic_fetch(src, pe) shmemd_atomic_fetch(src, pe)
#define aclshmemx_roce_atomic_set(dst, v, pe) shmemd_atomic_set(dst, v, pe)
#define aclshmemx_roce_atomic_swap(dst, v, pe) shmemd_atomic_swap(dst, v, pe)
#define aclshmemx_roce_atomic_compare_swap(dst, c, v, pe) shmemd_atomic_compare_swap(dst, c, v, pe)
#define aclshmemx_roce_atomic_inc(dst, pe) shmemd_atomic_inc(dst, pe)
#define aclshmemx_roce_atomic_fetch_inc(dst, pe) shmemd_atomic_fetch_inc(dst, pe)
#define aclshmemx_roce_atomic_add(dst, v, pe) shmemd_atomic_add(dst, v, pe)
#define aclshmemx_roce_atomic_fetch_add(dst, v, pe) shmemd_atomic_fetch_add(dst, v, pe)
#define aclshmemx_roce_atomic_and(dst, v, pe) shmemd_atomic_and(dst, v, pe)
#define aclshmemx_roce_atomic_fetch_and(dst, v, pe) shmemd_atomic_fetch_and(dst, v, pe)
#define aclshmemx_roce_atomic_or(dst, v, pe) shmemd_atomic_or(dst, v, pe)
#define aclshmemx_roce_atomic_fetch_or(dst, v, pe) shmemd_atomic_fetch_or(dst, v, pe)
#define aclshmemx_roce_atomic_xor(dst, v, pe) shmemd_atomic_xor(dst, v, pe)
#define aclshmemx_roce_atomic_fetch_xor(dst, v, pe) shmemd_atomic_fetch_xor(dst, v, pe)
/* The older spellings of the engine transfers. */
#define shmem_mte_put_mem_nbi aclshmemx_mte_put_nbi
#define shmem_mte_get_mem_nbi aclshmemx_mte_get_nbi
#define shmem_roce_put_mem_nbi aclshmemx_roce_put_nbi
#define shmem_roce_get_mem_nbi aclshmemx_roce_get_nbi
#define shmemx_signal_op aclshmemx_signal_op
#define shmemx_barrier_all_vec aclshmemx_barrier_all_vec
#define shmemx_barrier_vec aclshmemx_barrier_vec

/* ---- Device: AMOs over CANN's 32/64-bit types (and float fetch/set/swap) ---- */
#define OSHM_ACL_AMO_STD_(T, N, U) OSHM_COMPAT_AMO_STD(aclshmem, int32_t, T, N)
#define OSHM_ACL_AMO_EXT_(T, N, U) OSHM_COMPAT_AMO_EXT(aclshmem, int32_t, T, N)
#define OSHM_ACL_AMO_BIT_(T, N, U) OSHM_COMPAT_AMO_BIT(aclshmem, int32_t, T, N)
SHMEM_AMO_STANDARD_TABLE(OSHM_ACL_AMO_STD_)
SHMEM_AMO_EXTENDED_TABLE(OSHM_ACL_AMO_EXT_)
SHMEM_AMO_BITWISE_TABLE(OSHM_ACL_AMO_BIT_)
#undef OSHM_ACL_AMO_STD_
#undef OSHM_ACL_AMO_EXT_
#undef OSHM_ACL_AMO_BIT_

/* ---- Device: point-to-point ---- */
#define OSHM_ACL_P2P_(T, N)                                                                     \
    static inline void aclshmem_##N##_wait_until(T *ivar, int cmp, T value) { shmemd_##N##_wait_until(ivar, cmp, value); } \
    static inline void aclshmem_##N##_wait(T *ivar, T value) { shmemd_##N##_wait_until(ivar, SHMEM_CMP_NE, value); } \
    static inline void aclshmem_##N##_wait_until_all(T *ivars, size_t n, const int *status, int cmp, T value) { shmemd_##N##_wait_until_all(ivars, n, status, cmp, value); } \
    static inline size_t aclshmem_##N##_wait_until_any(T *ivars, size_t n, const int *status, int cmp, T value) { return shmemd_##N##_wait_until_any(ivars, n, status, cmp, value); } \
    static inline size_t aclshmem_##N##_wait_until_some(T *ivars, size_t n, size_t *idx, const int *status, int cmp, T value) { return shmemd_##N##_wait_until_some(ivars, n, idx, status, cmp, value); } \
    static inline void aclshmem_##N##_wait_until_all_vector(T *ivars, size_t n, const int *status, int cmp, T *values) { shmemd_##N##_wait_until_all_vector(ivars, n, status, cmp, values); } \
    static inline size_t aclshmem_##N##_wait_until_any_vector(T *ivars, size_t n, const int *status, int cmp, T *values) { return shmemd_##N##_wait_until_any_vector(ivars, n, status, cmp, values); } \
    static inline size_t aclshmem_##N##_wait_until_some_vector(T *ivars, size_t n, size_t *idx, const int *status, int cmp, T *values) { return shmemd_##N##_wait_until_some_vector(ivars, n, idx, status, cmp, values); } \
    static inline int aclshmem_##N##_test(T *ivar, int cmp, T value) { return shmemd_##N##_test(ivar, cmp, value); } \
    static inline size_t aclshmem_##N##_test_any(T *ivars, size_t n, const int *status, int cmp, T value) { return shmemd_##N##_test_any(ivars, n, status, cmp, value); } \
    static inline size_t aclshmem_##N##_test_some(T *ivars, size_t n, size_t *idx, const int *status, int cmp, T value) { return shmemd_##N##_test_some(ivars, n, idx, status, cmp, value); } \
    static inline int aclshmem_##N##_test_all_vector(T *ivars, size_t n, const int *status, int cmp, T *values) { return shmemd_##N##_test_all_vector(ivars, n, status, cmp, values); } \
    static inline size_t aclshmem_##N##_test_any_vector(T *ivars, size_t n, const int *status, int cmp, T *values) { return shmemd_##N##_test_any_vector(ivars, n, status, cmp, values); } \
    static inline size_t aclshmem_##N##_test_some_vector(T *ivars, size_t n, size_t *idx, const int *status, int cmp, T *values) { return shmemd_##N##_test_some_vector(ivars, n, idx, status, cmp, values); }
SHMEM_P2P_TABLE(OSHM_ACL_P2P_)
#undef OSHM_ACL_P2P_

/* ---- The older shmem_* device names that collide with the host API ----
 * Only in a file that defines OSHM_CANN_SHMEM_NAMES (see the top). Written
 * out: a macro cannot define macros. Host OpenSHMEM's generic selections
 * (shmem_p, shmem_put, ...) stay host routines: the names inside them are
 * not followed by '(' and so are not expanded. */
#ifdef OSHM_CANN_SHMEM_NAMES
#define OSHM_CANN_DEVICE_ALIASES 1
#define shmem_my_pe(...) aclshmem_my_pe(__VA_ARGS__)
#define shmem_n_pes(...) aclshmem_n_pes(__VA_ARGS__)
#define shmem_ptr(...) aclshmem_ptr(__VA_ARGS__)
#define shmem_quiet(...) aclshmem_quiet(__VA_ARGS__)
#define shmem_fence(...) aclshmem_fence(__VA_ARGS__)
#define shmem_barrier_all(...) aclshmem_barrier_all(__VA_ARGS__)
#define shmem_barrier(...) aclshmem_barrier(__VA_ARGS__)
#define shmem_sync_all(...) aclshmem_sync_all(__VA_ARGS__)
#define shmem_team_my_pe(...) aclshmem_team_my_pe(__VA_ARGS__)
#define shmem_team_n_pes(...) aclshmem_team_n_pes(__VA_ARGS__)
#define shmem_team_translate_pe(...) aclshmem_team_translate_pe(__VA_ARGS__)
#define shmem_signal_wait_until(...) aclshmem_signal_wait_until(__VA_ARGS__)
#define shmem_putmem(...) aclshmem_putmem(__VA_ARGS__)
#define shmem_getmem(...) aclshmem_getmem(__VA_ARGS__)
#define shmem_putmem_nbi(...) aclshmem_putmem_nbi(__VA_ARGS__)
#define shmem_getmem_nbi(...) aclshmem_getmem_nbi(__VA_ARGS__)
#define shmem_putmem_signal(...) aclshmem_putmem_signal(__VA_ARGS__)
#define shmem_putmem_signal_nbi(...) aclshmem_putmem_signal_nbi(__VA_ARGS__)
#define shmem_float_p(...) aclshmem_float_p(__VA_ARGS__)
#define shmem_double_p(...) aclshmem_double_p(__VA_ARGS__)
#define shmem_char_p(...) aclshmem_char_p(__VA_ARGS__)
#define shmem_int8_p(...) aclshmem_int8_p(__VA_ARGS__)
#define shmem_int16_p(...) aclshmem_int16_p(__VA_ARGS__)
#define shmem_int32_p(...) aclshmem_int32_p(__VA_ARGS__)
#define shmem_int64_p(...) aclshmem_int64_p(__VA_ARGS__)
#define shmem_uint8_p(...) aclshmem_uint8_p(__VA_ARGS__)
#define shmem_uint16_p(...) aclshmem_uint16_p(__VA_ARGS__)
#define shmem_uint32_p(...) aclshmem_uint32_p(__VA_ARGS__)
#define shmem_uint64_p(...) aclshmem_uint64_p(__VA_ARGS__)
#define shmem_half_p(...) aclshmem_half_p(__VA_ARGS__)
#define shmem_bfloat16_p(...) aclshmem_bfloat16_p(__VA_ARGS__)
#define shmem_float_g(...) aclshmem_float_g(__VA_ARGS__)
#define shmem_double_g(...) aclshmem_double_g(__VA_ARGS__)
#define shmem_char_g(...) aclshmem_char_g(__VA_ARGS__)
#define shmem_int8_g(...) aclshmem_int8_g(__VA_ARGS__)
#define shmem_int16_g(...) aclshmem_int16_g(__VA_ARGS__)
#define shmem_int32_g(...) aclshmem_int32_g(__VA_ARGS__)
#define shmem_int64_g(...) aclshmem_int64_g(__VA_ARGS__)
#define shmem_uint8_g(...) aclshmem_uint8_g(__VA_ARGS__)
#define shmem_uint16_g(...) aclshmem_uint16_g(__VA_ARGS__)
#define shmem_uint32_g(...) aclshmem_uint32_g(__VA_ARGS__)
#define shmem_uint64_g(...) aclshmem_uint64_g(__VA_ARGS__)
#define shmem_half_g(...) aclshmem_half_g(__VA_ARGS__)
#define shmem_bfloat16_g(...) aclshmem_bfloat16_g(__VA_ARGS__)
#define shmem_int32_atomic_add(...) aclshmem_int32_atomic_add(__VA_ARGS__)
#endif

#endif
