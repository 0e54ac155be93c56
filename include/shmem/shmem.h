/*
 * OpenSHMEM 1.5 C API.
 * Typed routines are declared from the X-macro tables in shmem_type_tables.h.
 */
#ifndef SHMEM_SHMEM_H
#define SHMEM_SHMEM_H

#include <stddef.h>
#include <stdint.h>
#include <shmem/shmem_type_tables.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Library constants ------------------------------------------------ */
#define SHMEM_MAJOR_VERSION 1
#define SHMEM_MINOR_VERSION 5
#define _SHMEM_MAJOR_VERSION SHMEM_MAJOR_VERSION
#define _SHMEM_MINOR_VERSION SHMEM_MINOR_VERSION
#define SHMEM_MAX_NAME_LEN 256
#define _SHMEM_MAX_NAME_LEN SHMEM_MAX_NAME_LEN
#define SHMEM_VENDOR_STRING "Open Symmetric Memory (oshm) 0.1"
#define _SHMEM_VENDOR_STRING SHMEM_VENDOR_STRING

#define SHMEM_THREAD_SINGLE 0
#define SHMEM_THREAD_FUNNELED 1
#define SHMEM_THREAD_SERIALIZED 2
#define SHMEM_THREAD_MULTIPLE 3

#define SHMEM_CMP_EQ 0
#define SHMEM_CMP_NE 1
#define SHMEM_CMP_GT 2
#define SHMEM_CMP_LE 3
#define SHMEM_CMP_LT 4
#define SHMEM_CMP_GE 5
#define _SHMEM_CMP_EQ SHMEM_CMP_EQ
#define _SHMEM_CMP_NE SHMEM_CMP_NE
#define _SHMEM_CMP_GT SHMEM_CMP_GT
#define _SHMEM_CMP_LE SHMEM_CMP_LE
#define _SHMEM_CMP_LT SHMEM_CMP_LT
#define _SHMEM_CMP_GE SHMEM_CMP_GE

#define SHMEM_SIGNAL_SET 0
#define SHMEM_SIGNAL_ADD 1

#define SHMEM_CTX_SERIALIZED (1L << 0)
#define SHMEM_CTX_PRIVATE (1L << 1)
#define SHMEM_CTX_NOSTORE (1L << 2)

#define SHMEM_MALLOC_ATOMICS_REMOTE (1L << 0)
#define SHMEM_MALLOC_SIGNAL_REMOTE (1L << 1)

/* Work and synchronization array sizes of the deprecated active-set
 * collectives. */
#define SHMEM_SYNC_VALUE (-1L)
#define SHMEM_BARRIER_SYNC_SIZE 64
#define SHMEM_BCAST_SYNC_SIZE 64
#define SHMEM_COLLECT_SYNC_SIZE 64
#define SHMEM_REDUCE_SYNC_SIZE 64
#define SHMEM_ALLTOALL_SYNC_SIZE 64
#define SHMEM_ALLTOALLS_SYNC_SIZE 64
#define SHMEM_SYNC_SIZE 64
#define SHMEM_REDUCE_MIN_WRKDATA_SIZE 64
#define _SHMEM_SYNC_VALUE SHMEM_SYNC_VALUE
#define _SHMEM_BARRIER_SYNC_SIZE SHMEM_BARRIER_SYNC_SIZE
#define _SHMEM_BCAST_SYNC_SIZE SHMEM_BCAST_SYNC_SIZE
#define _SHMEM_COLLECT_SYNC_SIZE SHMEM_COLLECT_SYNC_SIZE
#define _SHMEM_REDUCE_SYNC_SIZE SHMEM_REDUCE_SYNC_SIZE
#define _SHMEM_REDUCE_MIN_WRKDATA_SIZE SHMEM_REDUCE_MIN_WRKDATA_SIZE

/* ---- Types -------------------------------------------------------------- */
typedef struct shmem_ctx_impl *shmem_ctx_t;
extern struct shmem_ctx_impl shmem_ctx_default_impl;
#define SHMEM_CTX_DEFAULT (&shmem_ctx_default_impl)
#define SHMEM_CTX_INVALID ((shmem_ctx_t)0)

/* Unit of the 128-bit sized routines. */
typedef struct {
    uint64_t word[2];
} shmem_uint128_unit_t;

/* ---- Library setup, exit and query -------------------------------------- */
void shmem_init(void);
int shmem_init_thread(int requested, int *provided);
void shmem_query_thread(int *provided);
void shmem_finalize(void);
void shmem_global_exit(int status);
int shmem_my_pe(void);
int shmem_n_pes(void);
int shmem_pe_accessible(int pe);
int shmem_addr_accessible(const void *addr, int pe);
void *shmem_ptr(const void *dest, int pe);
void shmem_info_get_version(int *major, int *minor);
void shmem_info_get_name(char *name);
void start_pes(int npes);
int _my_pe(void);
int _num_pes(void);

/* ---- Memory management --------------------------------------------------- */
void *shmem_malloc(size_t size);
void *shmem_calloc(size_t count, size_t size);
void *shmem_align(size_t alignment, size_t size);
void *shmem_realloc(void *ptr, size_t size);
void shmem_free(void *ptr);
void *shmem_malloc_with_hints(size_t size, long hints);
void *shmalloc(size_t size);
void *shmemalign(size_t alignment, size_t size);
void *shrealloc(void *ptr, size_t size);
void shfree(void *ptr);

/* ---- Remote memory access ------------------------------------------------ */
#define SHMEM_DECL_RMA_(T, N)                                                          \
    void shmem_ctx_##N##_put(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, \
                             int pe);                                                  \
    void shmem_##N##_put(T *dest, const T *source, size_t nelems, int pe);             \
    void shmem_ctx_##N##_get(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, \
                             int pe);                                                  \
    void shmem_##N##_get(T *dest, const T *source, size_t nelems, int pe);             \
    void shmem_ctx_##N##_put_nbi(shmem_ctx_t ctx, T *dest, const T *source,            \
                                 size_t nelems, int pe);                               \
    void shmem_##N##_put_nbi(T *dest, const T *source, size_t nelems, int pe);         \
    void shmem_ctx_##N##_get_nbi(shmem_ctx_t ctx, T *dest, const T *source,            \
                                 size_t nelems, int pe);                               \
    void shmem_##N##_get_nbi(T *dest, const T *source, size_t nelems, int pe);         \
    void shmem_ctx_##N##_p(shmem_ctx_t ctx, T *dest, T value, int pe);                 \
    void shmem_##N##_p(T *dest, T value, int pe);                                      \
    T shmem_ctx_##N##_g(shmem_ctx_t ctx, const T *source, int pe);                     \
    T shmem_##N##_g(const T *source, int pe);                                          \
    void shmem_ctx_##N##_iput(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst, \
                              ptrdiff_t sst, size_t nelems, int pe);                   \
    void shmem_##N##_iput(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,      \
                          size_t nelems, int pe);                                      \
    void shmem_ctx_##N##_iget(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst, \
                              ptrdiff_t sst, size_t nelems, int pe);                   \
    void shmem_##N##_iget(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,      \
                          size_t nelems, int pe);
SHMEM_RMA_TYPE_TABLE(SHMEM_DECL_RMA_)
#undef SHMEM_DECL_RMA_

#define SHMEM_DECL_SIZED_RMA_(BITS, UNIT)                                                   \
    void shmem_ctx_put##BITS(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, \
                             int pe);                                                       \
    void shmem_put##BITS(void *dest, const void *source, size_t nelems, int pe);            \
    void shmem_ctx_get##BITS(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, \
                             int pe);                                                       \
    void shmem_get##BITS(void *dest, const void *source, size_t nelems, int pe);            \
    void shmem_ctx_put##BITS##_nbi(shmem_ctx_t ctx, void *dest, const void *source,         \
                                   size_t nelems, int pe);                                  \
    void shmem_put##BITS##_nbi(void *dest, const void *source, size_t nelems, int pe);      \
    void shmem_ctx_get##BITS##_nbi(shmem_ctx_t ctx, void *dest, const void *source,         \
                                   size_t nelems, int pe);                                  \
    void shmem_get##BITS##_nbi(void *dest, const void *source, size_t nelems, int pe);      \
    void shmem_ctx_iput##BITS(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, \
                              ptrdiff_t sst, size_t nelems, int pe);                        \
    void shmem_iput##BITS(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,     \
                          size_t nelems, int pe);                                           \
    void shmem_ctx_iget##BITS(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, \
                              ptrdiff_t sst, size_t nelems, int pe);                        \
    void shmem_iget##BITS(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,     \
                          size_t nelems, int pe);
SHMEM_SIZED_TABLE(SHMEM_DECL_SIZED_RMA_)
#undef SHMEM_DECL_SIZED_RMA_

void shmem_ctx_putmem(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);
void shmem_putmem(void *dest, const void *source, size_t nelems, int pe);
void shmem_ctx_getmem(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);
void shmem_getmem(void *dest, const void *source, size_t nelems, int pe);
void shmem_ctx_putmem_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,
                          int pe);
void shmem_putmem_nbi(void *dest, const void *source, size_t nelems, int pe);
void shmem_ctx_getmem_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,
                          int pe);
void shmem_getmem_nbi(void *dest, const void *source, size_t nelems, int pe);

/* ---- Memory ordering ----------------------------------------------------- */
void shmem_ctx_fence(shmem_ctx_t ctx);
void shmem_fence(void);
void shmem_ctx_quiet(shmem_ctx_t ctx);
void shmem_quiet(void);

/* ---- Synchronization ----------------------------------------------------- */
void shmem_barrier_all(void);
void shmem_sync_all(void);

#ifdef __cplusplus
}
#endif

/* ---- C11 type-generic interfaces ----------------------------------------- */
#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L && !defined(__cplusplus)
#include <shmem/shmem_generic.h>
#endif

#endif /* SHMEM_SHMEM_H */
