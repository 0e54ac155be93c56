/*
 * Extensions beyond OpenSHMEM 1.5. Everything here is prefixed shmemx_.
 */
#ifndef SHMEM_SHMEMX_H
#define SHMEM_SHMEMX_H

#include <shmem/shmem.h>
#include <shmem/features.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Size in bytes of the symmetric heap of this PE (SHMEM_SYMMETRIC_SIZE). */
size_t shmemx_heap_size(void);
/* Bytes of the symmetric heap currently backed by physical memory. */
size_t shmemx_heap_committed(void);
/* Name of the backend that reaches PE (e.g. "shm"), or NULL for a bad PE. */
const char *shmemx_transport_name(int pe);

/* ---- The device (a simulated Ascend device on this host; docs/device.md) ---- */
/* Only in a library built with it (OSHM_WITH_DEVICE, on by default). */
#if SHMEMX_HAVE_DEVICE

/* Device memory: collective over all PEs, like shmem_malloc, from the device
 * symmetric heap (SHMEM_DEVICE_HEAP_SIZE). Symmetric: kernels and the host
 * (shmem_put, shmem_get, ...) reach every PE's copy. */
void *shmemx_device_malloc(size_t size);
void *shmemx_device_calloc(size_t count, size_t size);
void shmemx_device_free(void *ptr);
size_t shmemx_device_heap_size(void);

/* A stream runs what is queued on it in order, asynchronously to the host.
 * NULL is the default stream. */
typedef struct shmemx_stream_impl *shmemx_stream_t;
typedef struct shmemx_event_impl *shmemx_event_t;
/* A kernel: every thread of every block runs it with ARGS. */
typedef void (*shmemx_kernel_t)(void *args);

int shmemx_stream_create(shmemx_stream_t *stream);
/* Waits for the stream's work, then frees it. */
void shmemx_stream_destroy(shmemx_stream_t stream);
/* Waits until everything queued on STREAM so far has finished. */
void shmemx_stream_synchronize(shmemx_stream_t stream);
/* Queues KERNEL on STREAM: NBLOCKS blocks of NTHREADS threads. ARGS_SIZE
 * bytes at ARGS are copied, so the caller may reuse them at once. Every
 * operation the kernel posted is complete when it ends. 0, or -1 on a bad
 * argument. */
int shmemx_launch(shmemx_kernel_t kernel, unsigned nblocks, unsigned nthreads, const void *args,
                  size_t args_size, shmemx_stream_t stream);
int shmemx_event_create(shmemx_event_t *event);
void shmemx_event_destroy(shmemx_event_t event);
/* EVENT completes when the work queued on STREAM before it has finished. */
void shmemx_event_record(shmemx_event_t event, shmemx_stream_t stream);
void shmemx_event_synchronize(shmemx_event_t event);
/* 1 when EVENT has completed (or was never recorded), else 0. */
int shmemx_event_query(shmemx_event_t event);
/* Work queued on STREAM after this waits for EVENT. */
void shmemx_stream_wait_event(shmemx_stream_t stream, shmemx_event_t event);
/* Waits for every stream. */
void shmemx_device_synchronize(void);
#endif /* SHMEMX_HAVE_DEVICE */

#ifdef __cplusplus
}
#endif

#endif /* SHMEM_SHMEMX_H */
