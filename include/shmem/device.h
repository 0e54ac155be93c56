/*
 * The device-side OpenSHMEM API: what a kernel running on the accelerator
 * calls (CANN SHMEM and NVSHMEM give their kernels the same model).
 *
 * Kernels are launched from the host with shmemx_launch (<shmemx.h>): NBLOCKS
 * blocks of NTHREADS threads each. Device routines are named shmemd_* (C has
 * no overloading, and a kernel file may share a program with host code that
 * calls shmem_*); the C11 generic forms (shmemd_put, shmemd_get, ...) select
 * the typed routine from the pointer type, as shmem_put does on the host.
 *
 * RMA and AMOs from a kernel are descriptors posted to the device's data
 * movement engines (MTE within a node, UDMA across nodes): the _nbi forms
 * return before the data moves, and only shmemd_quiet (or fence, a blocking
 * form, a signal, the kernel's end) says it did. Blocking forms wait for
 * their own descriptor.
 *
 * With the real Ascend toolchain the qualifiers below mark kernel code and
 * global memory; in the host simulation they expand to nothing and each
 * block is a host thread.
 */
#ifndef SHMEM_DEVICE_H
#define SHMEM_DEVICE_H

#include <stddef.h>
#include <stdint.h>

#include <shmem/device_types.h>
#include <shmem/device_host.h>

#if defined(__CCE_AICORE__) || defined(__CCE_KT_TEST__)
#define OSHM_AICORE __aicore__
#define OSHM_GM __gm__
#else
#define OSHM_AICORE
#define OSHM_GM
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* A host team handle (shmem_team_t), as a kernel receives it. */
struct shmem_team_impl;
typedef struct shmem_team_impl *shmemd_team_t;

/* Where this thread is. */
OSHM_AICORE int shmemd_my_pe(void);
OSHM_AICORE int shmemd_n_pes(void);
OSHM_AICORE unsigned shmemd_block_idx(void);
OSHM_AICORE unsigned shmemd_block_num(void);
OSHM_AICORE unsigned shmemd_thread_idx(void);
OSHM_AICORE unsigned shmemd_thread_num(void);
/* Every thread of this block waits for the others. */
OSHM_AICORE void shmemd_block_sync(void);

/* A pointer for direct load/store of PE's copy of DEST, or NULL. */
OSHM_AICORE void *shmemd_ptr(OSHM_GM const void *dest, int pe);

/* Contiguous RMA on symmetric (device or host heap, global) memory. */
OSHM_AICORE void shmemd_putmem(OSHM_GM void *dest, OSHM_GM const void *source, size_t nbytes, int pe);
OSHM_AICORE void shmemd_getmem(OSHM_GM void *dest, OSHM_GM const void *source, size_t nbytes, int pe);
OSHM_AICORE void shmemd_putmem_nbi(OSHM_GM void *dest, OSHM_GM const void *source, size_t nbytes, int pe);
OSHM_AICORE void shmemd_getmem_nbi(OSHM_GM void *dest, OSHM_GM const void *source, size_t nbytes, int pe);

/* Block-cooperative: every thread of the block calls with the same
 * arguments; each moves its share, and the call returns in every thread
 * once the whole block's transfer is (for _nbi: posted) done. */
OSHM_AICORE void shmemd_putmem_block(OSHM_GM void *dest, OSHM_GM const void *source, size_t nbytes, int pe);
OSHM_AICORE void shmemd_getmem_block(OSHM_GM void *dest, OSHM_GM const void *source, size_t nbytes, int pe);
OSHM_AICORE void shmemd_putmem_nbi_block(OSHM_GM void *dest, OSHM_GM const void *source, size_t nbytes, int pe);
OSHM_AICORE void shmemd_getmem_nbi_block(OSHM_GM void *dest, OSHM_GM const void *source, size_t nbytes, int pe);

/* Put with signal: the signal lands after the data. SIG_OP is
 * SHMEM_SIGNAL_SET (0) or SHMEM_SIGNAL_ADD (1). */
OSHM_AICORE void shmemd_putmem_signal(OSHM_GM void *dest, OSHM_GM const void *source, size_t nbytes,
                                      OSHM_GM uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);
OSHM_AICORE void shmemd_putmem_signal_nbi(OSHM_GM void *dest, OSHM_GM const void *source, size_t nbytes,
                                          OSHM_GM uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);
OSHM_AICORE void shmemd_signal_op(OSHM_GM uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);
/* Waits until the local SIG_ADDR compares to VALUE as CMP says (SHMEM_CMP_*);
 * returns the value seen. */
OSHM_AICORE uint64_t shmemd_signal_wait_until(OSHM_GM uint64_t *sig_addr, int cmp, uint64_t value);
OSHM_AICORE uint64_t shmemd_signal_fetch(OSHM_GM const uint64_t *sig_addr);

/* Ordering and completion of this thread's operations. */
OSHM_AICORE void shmemd_fence(void);
OSHM_AICORE void shmemd_quiet(void);
/* Every thread of every block on every PE: all operations complete, then
 * all meet. TEAM: the same over the PEs of a team (not used by the host
 * while the kernel runs). */
OSHM_AICORE void shmemd_barrier_all(void);
OSHM_AICORE void shmemd_team_barrier(shmemd_team_t team);

/* Typed RMA, one set per type of the specification's RMA table. */
#define SHMEMD_DECL_RMA_(T, N)                                                                 \
    OSHM_AICORE void shmemd_##N##_put(OSHM_GM T *dest, OSHM_GM const T *source, size_t nelems, int pe); \
    OSHM_AICORE void shmemd_##N##_get(OSHM_GM T *dest, OSHM_GM const T *source, size_t nelems, int pe); \
    OSHM_AICORE void shmemd_##N##_put_nbi(OSHM_GM T *dest, OSHM_GM const T *source, size_t nelems, int pe); \
    OSHM_AICORE void shmemd_##N##_get_nbi(OSHM_GM T *dest, OSHM_GM const T *source, size_t nelems, int pe); \
    OSHM_AICORE void shmemd_##N##_p(OSHM_GM T *dest, T value, int pe);                        \
    OSHM_AICORE T shmemd_##N##_g(OSHM_GM const T *source, int pe);
SHMEM_RMA_TYPE_TABLE(SHMEMD_DECL_RMA_)
#undef SHMEMD_DECL_RMA_

/* AMOs, per the specification's AMO tables. */
#define SHMEMD_DECL_AMO_STD_(T, N, U)                                                          \
    OSHM_AICORE T shmemd_##N##_atomic_fetch_add(OSHM_GM T *dest, T value, int pe);             \
    OSHM_AICORE void shmemd_##N##_atomic_add(OSHM_GM T *dest, T value, int pe);                \
    OSHM_AICORE T shmemd_##N##_atomic_fetch_inc(OSHM_GM T *dest, int pe);                      \
    OSHM_AICORE void shmemd_##N##_atomic_inc(OSHM_GM T *dest, int pe);                         \
    OSHM_AICORE T shmemd_##N##_atomic_compare_swap(OSHM_GM T *dest, T cond, T value, int pe);
#define SHMEMD_DECL_AMO_EXT_(T, N, U)                                                          \
    OSHM_AICORE T shmemd_##N##_atomic_fetch(OSHM_GM const T *source, int pe);                  \
    OSHM_AICORE void shmemd_##N##_atomic_set(OSHM_GM T *dest, T value, int pe);                \
    OSHM_AICORE T shmemd_##N##_atomic_swap(OSHM_GM T *dest, T value, int pe);
SHMEM_AMO_STANDARD_TABLE(SHMEMD_DECL_AMO_STD_)
SHMEM_AMO_EXTENDED_TABLE(SHMEMD_DECL_AMO_EXT_)
#undef SHMEMD_DECL_AMO_STD_
#undef SHMEMD_DECL_AMO_EXT_

#ifdef __cplusplus
}
#endif

/* C11: the routine for the pointer's type. */
#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L && !defined(OSHM_NO_GENERIC)
#define SHMEMD_G_RMA_(T, N, OP) , T: shmemd_##N##_##OP
#define SHMEMD_G_RMA_put_(T, N) SHMEMD_G_RMA_(T, N, put)
#define SHMEMD_G_RMA_get_(T, N) SHMEMD_G_RMA_(T, N, get)
#define SHMEMD_G_RMA_put_nbi_(T, N) SHMEMD_G_RMA_(T, N, put_nbi)
#define SHMEMD_G_RMA_get_nbi_(T, N) SHMEMD_G_RMA_(T, N, get_nbi)
#define SHMEMD_G_RMA_p_(T, N) SHMEMD_G_RMA_(T, N, p)
#define SHMEMD_G_RMA_g_(T, N) SHMEMD_G_RMA_(T, N, g)
#define SHMEMD_G_AMO_fadd_(T, N, U) , T: shmemd_##N##_atomic_fetch_add
#define SHMEMD_G_AMO_add_(T, N, U) , T: shmemd_##N##_atomic_add
#define SHMEMD_G_AMO_cswap_(T, N, U) , T: shmemd_##N##_atomic_compare_swap
#define SHMEMD_G_AMO_fetch_(T, N, U) , T: shmemd_##N##_atomic_fetch
#define SHMEMD_G_AMO_swap_(T, N, U) , T: shmemd_##N##_atomic_swap
#define SHMEMD_G_SEL_(TABLE, OP, PTR) _Generic(*(PTR) TABLE(OP))
#define shmemd_put(dest, ...) SHMEMD_G_SEL_(SHMEM_RMA_GENERIC_TYPE_TABLE, SHMEMD_G_RMA_put_, dest)(dest, __VA_ARGS__)
#define shmemd_get(dest, ...) SHMEMD_G_SEL_(SHMEM_RMA_GENERIC_TYPE_TABLE, SHMEMD_G_RMA_get_, dest)(dest, __VA_ARGS__)
#define shmemd_put_nbi(dest, ...) SHMEMD_G_SEL_(SHMEM_RMA_GENERIC_TYPE_TABLE, SHMEMD_G_RMA_put_nbi_, dest)(dest, __VA_ARGS__)
#define shmemd_get_nbi(dest, ...) SHMEMD_G_SEL_(SHMEM_RMA_GENERIC_TYPE_TABLE, SHMEMD_G_RMA_get_nbi_, dest)(dest, __VA_ARGS__)
#define shmemd_p(dest, ...) SHMEMD_G_SEL_(SHMEM_RMA_GENERIC_TYPE_TABLE, SHMEMD_G_RMA_p_, dest)(dest, __VA_ARGS__)
#define shmemd_g(src, ...) SHMEMD_G_SEL_(SHMEM_RMA_GENERIC_TYPE_TABLE, SHMEMD_G_RMA_g_, src)(src, __VA_ARGS__)
#define shmemd_atomic_fetch_add(dest, ...) SHMEMD_G_SEL_(SHMEM_AMO_STANDARD_GENERIC_TABLE, SHMEMD_G_AMO_fadd_, dest)(dest, __VA_ARGS__)
#define shmemd_atomic_add(dest, ...) SHMEMD_G_SEL_(SHMEM_AMO_STANDARD_GENERIC_TABLE, SHMEMD_G_AMO_add_, dest)(dest, __VA_ARGS__)
#define shmemd_atomic_compare_swap(dest, ...) SHMEMD_G_SEL_(SHMEM_AMO_STANDARD_GENERIC_TABLE, SHMEMD_G_AMO_cswap_, dest)(dest, __VA_ARGS__)
#define shmemd_atomic_fetch(src, ...) SHMEMD_G_SEL_(SHMEM_AMO_EXTENDED_GENERIC_TABLE, SHMEMD_G_AMO_fetch_, src)(src, __VA_ARGS__)
#define shmemd_atomic_swap(dest, ...) SHMEMD_G_SEL_(SHMEM_AMO_EXTENDED_GENERIC_TABLE, SHMEMD_G_AMO_swap_, dest)(dest, __VA_ARGS__)
#endif

#endif
