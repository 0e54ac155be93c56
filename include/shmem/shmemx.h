/*
 * Extensions beyond OpenSHMEM 1.5. Everything here is prefixed shmemx_.
 */
#ifndef SHMEM_SHMEMX_H
#define SHMEM_SHMEMX_H

#include <shmem/shmem.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Size in bytes of the symmetric heap of this PE (SHMEM_SYMMETRIC_SIZE). */
size_t shmemx_heap_size(void);
/* Bytes of the symmetric heap currently backed by physical memory. */
size_t shmemx_heap_committed(void);
/* Name of the backend that reaches PE (e.g. "shm"), or NULL for a bad PE. */
const char *shmemx_transport_name(int pe);

#ifdef __cplusplus
}
#endif

#endif /* SHMEM_SHMEMX_H */
