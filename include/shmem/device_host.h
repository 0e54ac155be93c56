/*
 * The host side of the device library: what a host program calls around
 * its kernels (NVSHMEM's nvshmem_malloc, nvshmemx_*_on_stream and
 * nvshmemx_init_attr; CANN SHMEM's aclshmem_* host routines). The names
 * share the shmemd_ prefix of the kernels' routines: one library, one
 * prefix. Included by <shmem/device.h>.
 *
 * Stream-ordered (*_on_stream, shmemd_memcpy_async): the call queues the
 * operation on STREAM (NULL: the default stream) and returns; it runs after
 * everything queued before it on that stream (kernels included) and before
 * everything queued after it. Buffers are read and written when the
 * operation runs, not when it is queued: keep them valid until then.
 * Each queued RMA is complete (visible at the target) before the next
 * entry of the stream starts.
 */
#ifndef SHMEM_DEVICE_HOST_H
#define SHMEM_DEVICE_HOST_H

#include <stddef.h>
#include <stdint.h>

#include <shmem/device_types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The stream type of <shmemx.h> (a repeated typedef of the same type). */
typedef struct shmemx_stream_impl *shmemx_stream_t;
struct shmem_team_impl;

/* ---- Start-up with attributes ---- */

/* Identifies one job whose processes were not started by oshrun (or a PMIx
 * launcher): the process of rank 0 creates it with shmemd_get_uniqueid and
 * hands it to the others by any means (MPI_Bcast, a file, a pipe). It holds
 * rank 0's address and a random secret: anyone holding it can join the
 * job, so pass it only to the job's own processes. */
typedef struct {
    unsigned char internal[128];
} shmemd_uniqueid_t;
#define SHMEMD_UNIQUEID_INITIALIZER {{0}}

typedef struct {
    /* Bytes of the symmetric (host) heap and of the device heap; 0 keeps
     * SHMEM_SYMMETRIC_SIZE / SHMEM_DEVICE_HEAP_SIZE. */
    size_t heap_size;
    size_t device_heap_size;
    /* The device this PE drives (0 .. devices of the node - 1). */
    int device_id;
    /* Set by shmemd_set_attr_uniqueid_args. */
    int rank, nranks;
    shmemd_uniqueid_t uid;
} shmemd_init_attr_t;
#define SHMEMD_INIT_ATTR_INITIALIZER {0, 0, 0, -1, 0, SHMEMD_UNIQUEID_INITIALIZER}

/* flags of shmemd_init_attr */
#define SHMEMD_INIT_WITH_UNIQUEID 1u /* bootstrap from attr's unique id */
#define SHMEMD_INIT_THREAD_MULTIPLE 2u /* as shmem_init_thread(SHMEM_THREAD_MULTIPLE) */

/* Rank 0 only, before it starts: a new id; 0, or -1 after saying why. */
int shmemd_get_uniqueid(shmemd_uniqueid_t *uid);
/* Records RANK of NRANKS and UID in ATTR; 0, or -1 on bad arguments. */
int shmemd_set_attr_uniqueid_args(int rank, int nranks, const shmemd_uniqueid_t *uid,
                                  shmemd_init_attr_t *attr);
/* shmem_init with ATTR (NULL: defaults); with SHMEMD_INIT_WITH_UNIQUEID the
 * NRANKS processes meet through rank 0's id. Returns 0 or -1; ended with
 * shmem_finalize. */
int shmemd_init_attr(unsigned flags, shmemd_init_attr_t *attr);
/* The device chosen at start-up. */
int shmemd_device_id(void);
/* 1 in a kernel's thread, 0 elsewhere: for the peers' routines that host
 * and kernel code call under one name (nvshmem_team_my_pe, aclshmem_my_pe),
 * which the compatibility headers route by it. */
int shmemd_in_kernel(void);

/* ---- Device memory (the symmetric device heap of shmemx_device_malloc) ---- */

/* Collective over all PEs, like shmem_malloc. */
void *shmemd_malloc(size_t size);
void *shmemd_calloc(size_t count, size_t size);
void shmemd_free(void *ptr);

/* Copies NBYTES between host memory and PE's copy of symmetric device
 * memory: to it when DEST is device memory (SOURCE is then any host
 * memory), else from it (SOURCE device memory, DEST any host memory).
 * PE may be this PE. shmemd_memcpy returns once done, ordered after the
 * default stream's earlier work; _async queues it on STREAM. 0, or -1
 * after a warning naming the routine. */
int shmemd_memcpy(void *dest, const void *source, size_t nbytes, int pe);
int shmemd_memcpy_async(void *dest, const void *source, size_t nbytes, int pe,
                        shmemx_stream_t stream);

/* ---- Host operations in stream order ---- */

void shmemd_putmem_on_stream(void *dest, const void *source, size_t nbytes, int pe,
                             shmemx_stream_t stream);
void shmemd_getmem_on_stream(void *dest, const void *source, size_t nbytes, int pe,
                             shmemx_stream_t stream);
/* The signal lands after the data. SIG_OP: SHMEM_SIGNAL_SET or _ADD. */
void shmemd_putmem_signal_on_stream(void *dest, const void *source, size_t nbytes,
                                    uint64_t *sig_addr, uint64_t signal, int sig_op, int pe,
                                    shmemx_stream_t stream);
void shmemd_signal_op_on_stream(uint64_t *sig_addr, uint64_t signal, int sig_op, int pe,
                                shmemx_stream_t stream);
/* The stream waits until the local SIG_ADDR compares to VALUE as CMP says. */
void shmemd_signal_wait_until_on_stream(uint64_t *sig_addr, int cmp, uint64_t value,
                                        shmemx_stream_t stream);
/* Everything queued before it on STREAM is complete. */
void shmemd_quiet_on_stream(shmemx_stream_t stream);
/* A barrier of every PE (of TEAM) in each PE's stream order; it meets the
 * kernels' barriers (shmemd_barrier_all), never the host's. */
void shmemd_barrier_all_on_stream(shmemx_stream_t stream);
void shmemd_team_barrier_on_stream(struct shmem_team_impl *team, shmemx_stream_t stream);

#define SHMEMD_DECL_ON_STREAM_(T, N)                                                      \
    void shmemd_##N##_put_on_stream(T *dest, const T *source, size_t nelems, int pe,      \
                                    shmemx_stream_t stream);                              \
    void shmemd_##N##_get_on_stream(T *dest, const T *source, size_t nelems, int pe,      \
                                    shmemx_stream_t stream);
SHMEMD_RMA_TYPE_TABLE(SHMEMD_DECL_ON_STREAM_)
#undef SHMEMD_DECL_ON_STREAM_

#ifdef __cplusplus
}
#endif

#endif
