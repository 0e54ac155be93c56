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

#ifdef __cplusplus
}
#endif

#include <shmem/device_rma.h>
#include <shmem/device_sync.h>
#include <shmem/device_coll.h>

#endif
