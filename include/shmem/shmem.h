/*
 * OpenSHMEM 1.6 C API.
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
#define SHMEM_MINOR_VERSION 6
#define _SHMEM_MAJOR_VERSION SHMEM_MAJOR_VERSION
#define _SHMEM_MINOR_VERSION SHMEM_MINOR_VERSION
/* The specification this header implements, as its release month
 * (OpenSHMEM 1.6: November 2024), for `#if _OPENSHMEM >= 202411`. */
#define _OPENSHMEM 202411
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

/* Sessions (hints only). */
#define SHMEM_CTX_SESSION_BATCH (1L << 0)
#define SHMEM_CTX_SESSION_TOTAL_OPS (1L << 0)

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

typedef struct shmem_team_impl *shmem_team_t;
extern struct shmem_team_impl shmem_team_world_impl;
extern struct shmem_team_impl shmem_team_shared_impl;
#define SHMEM_TEAM_WORLD (&shmem_team_world_impl)
#define SHMEM_TEAM_SHARED (&shmem_team_shared_impl)
#define SHMEM_TEAM_INVALID ((shmem_team_t)0)

typedef struct {
    int num_contexts;
} shmem_team_config_t;
#define SHMEM_TEAM_NUM_CONTEXTS (1L << 0)

typedef struct {
    size_t total_ops;
} shmem_ctx_session_config_t;

/* Unit of the 128-bit sized routines. */
typedef struct {
    uint64_t word[2];
} shmem_uint128_unit_t;

/* ---- Library setup, exit and query -------------------------------------- */
void shmem_init(void);
int shmem_init_thread(int requested, int *provided);
void shmem_query_thread(int *provided);
void shmem_finalize(void);
void shmem_query_initialized(int *initialized);
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

/* Blocked strided RMA (OpenSHMEM 1.6): NBLOCKS blocks of BSIZE elements,
 * strides DST and SST in elements between the blocks' starts. */
#define SHMEM_DECL_IBRMA_(T, N)                                                               \
    void shmem_ctx_##N##_ibput(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst,       \
                               ptrdiff_t sst, size_t bsize, size_t nblocks, int pe);           \
    void shmem_##N##_ibput(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,             \
                           size_t bsize, size_t nblocks, int pe);                              \
    void shmem_ctx_##N##_ibget(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst,       \
                               ptrdiff_t sst, size_t bsize, size_t nblocks, int pe);           \
    void shmem_##N##_ibget(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,             \
                           size_t bsize, size_t nblocks, int pe);
SHMEM_RMA_TYPE_TABLE(SHMEM_DECL_IBRMA_)
#undef SHMEM_DECL_IBRMA_
#define SHMEM_DECL_SIZED_IBRMA_(BITS, UNIT)                                                   \
    void shmem_ctx_ibput##BITS(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, \
                               ptrdiff_t sst, size_t bsize, size_t nblocks, int pe);           \
    void shmem_ibput##BITS(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,       \
                           size_t bsize, size_t nblocks, int pe);                              \
    void shmem_ctx_ibget##BITS(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, \
                               ptrdiff_t sst, size_t bsize, size_t nblocks, int pe);           \
    void shmem_ibget##BITS(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,       \
                           size_t bsize, size_t nblocks, int pe);
SHMEM_SIZED_TABLE(SHMEM_DECL_SIZED_IBRMA_)
#undef SHMEM_DECL_SIZED_IBRMA_

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

/* ---- Atomic memory operations -------------------------------------------- */
#define SHMEM_DECL_AMO_STD_(T, N, U)                                                        \
    T shmem_ctx_##N##_atomic_fetch_inc(shmem_ctx_t ctx, T *dest, int pe);                   \
    T shmem_##N##_atomic_fetch_inc(T *dest, int pe);                                        \
    void shmem_ctx_##N##_atomic_fetch_inc_nbi(shmem_ctx_t ctx, T *fetch, T *dest, int pe);  \
    void shmem_##N##_atomic_fetch_inc_nbi(T *fetch, T *dest, int pe);                       \
    void shmem_ctx_##N##_atomic_inc(shmem_ctx_t ctx, T *dest, int pe);                      \
    void shmem_##N##_atomic_inc(T *dest, int pe);                                           \
    T shmem_ctx_##N##_atomic_fetch_add(shmem_ctx_t ctx, T *dest, T value, int pe);          \
    T shmem_##N##_atomic_fetch_add(T *dest, T value, int pe);                               \
    void shmem_ctx_##N##_atomic_fetch_add_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T value,  \
                                              int pe);                                      \
    void shmem_##N##_atomic_fetch_add_nbi(T *fetch, T *dest, T value, int pe);              \
    void shmem_ctx_##N##_atomic_add(shmem_ctx_t ctx, T *dest, T value, int pe);             \
    void shmem_##N##_atomic_add(T *dest, T value, int pe);                                  \
    T shmem_ctx_##N##_atomic_compare_swap(shmem_ctx_t ctx, T *dest, T cond, T value, int pe); \
    T shmem_##N##_atomic_compare_swap(T *dest, T cond, T value, int pe);                    \
    void shmem_ctx_##N##_atomic_compare_swap_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T cond, \
                                                 T value, int pe);                          \
    void shmem_##N##_atomic_compare_swap_nbi(T *fetch, T *dest, T cond, T value, int pe);
SHMEM_AMO_STANDARD_TABLE(SHMEM_DECL_AMO_STD_)
#undef SHMEM_DECL_AMO_STD_

#define SHMEM_DECL_AMO_EXT_(T, N, U)                                                        \
    T shmem_ctx_##N##_atomic_fetch(shmem_ctx_t ctx, const T *source, int pe);               \
    T shmem_##N##_atomic_fetch(const T *source, int pe);                                    \
    void shmem_ctx_##N##_atomic_fetch_nbi(shmem_ctx_t ctx, T *fetch, const T *source, int pe); \
    void shmem_##N##_atomic_fetch_nbi(T *fetch, const T *source, int pe);                   \
    void shmem_ctx_##N##_atomic_set(shmem_ctx_t ctx, T *dest, T value, int pe);             \
    void shmem_##N##_atomic_set(T *dest, T value, int pe);                                  \
    T shmem_ctx_##N##_atomic_swap(shmem_ctx_t ctx, T *dest, T value, int pe);               \
    T shmem_##N##_atomic_swap(T *dest, T value, int pe);                                    \
    void shmem_ctx_##N##_atomic_swap_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T value, int pe); \
    void shmem_##N##_atomic_swap_nbi(T *fetch, T *dest, T value, int pe);
SHMEM_AMO_EXTENDED_TABLE(SHMEM_DECL_AMO_EXT_)
#undef SHMEM_DECL_AMO_EXT_

#define SHMEM_DECL_AMO_BIT_ONE_(T, N, OP)                                                   \
    T shmem_ctx_##N##_atomic_fetch_##OP(shmem_ctx_t ctx, T *dest, T value, int pe);         \
    T shmem_##N##_atomic_fetch_##OP(T *dest, T value, int pe);                              \
    void shmem_ctx_##N##_atomic_fetch_##OP##_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T value, \
                                                 int pe);                                   \
    void shmem_##N##_atomic_fetch_##OP##_nbi(T *fetch, T *dest, T value, int pe);           \
    void shmem_ctx_##N##_atomic_##OP(shmem_ctx_t ctx, T *dest, T value, int pe);            \
    void shmem_##N##_atomic_##OP(T *dest, T value, int pe);
#define SHMEM_DECL_AMO_BIT_(T, N, U)                                                        \
    SHMEM_DECL_AMO_BIT_ONE_(T, N, and) SHMEM_DECL_AMO_BIT_ONE_(T, N, or)                    \
    SHMEM_DECL_AMO_BIT_ONE_(T, N, xor)
SHMEM_AMO_BITWISE_TABLE(SHMEM_DECL_AMO_BIT_)
#undef SHMEM_DECL_AMO_BIT_
#undef SHMEM_DECL_AMO_BIT_ONE_

/* Deprecated AMO names. */
#define SHMEM_DECL_AMO_DEPR_(T, N)                                                          \
    T shmem_##N##_finc(T *dest, int pe);                                                    \
    void shmem_##N##_inc(T *dest, int pe);                                                  \
    T shmem_##N##_fadd(T *dest, T value, int pe);                                           \
    void shmem_##N##_add(T *dest, T value, int pe);                                         \
    T shmem_##N##_cswap(T *dest, T cond, T value, int pe);
SHMEM_AMO_DEPRECATED_TABLE(SHMEM_DECL_AMO_DEPR_)
#undef SHMEM_DECL_AMO_DEPR_
#define SHMEM_DECL_AMO_DEPR_EXT_(T, N)                                                      \
    T shmem_##N##_fetch(const T *source, int pe);                                           \
    void shmem_##N##_set(T *dest, T value, int pe);                                         \
    T shmem_##N##_swap(T *dest, T value, int pe);
SHMEM_AMO_DEPRECATED_EXT_TABLE(SHMEM_DECL_AMO_DEPR_EXT_)
#undef SHMEM_DECL_AMO_DEPR_EXT_
/* In C++ the overloads of <shmem/shmem_cxx.h> serve this name and
 * shmem_wait_until for every type, long included. */
#ifndef __cplusplus
long shmem_swap(long *dest, long value, int pe);
#endif

/* ---- Signaling operations ------------------------------------------------- */
#define SHMEM_DECL_PUT_SIGNAL_(T, N)                                                        \
    void shmem_ctx_##N##_put_signal(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, \
                                    uint64_t *sig_addr, uint64_t signal, int sig_op, int pe); \
    void shmem_##N##_put_signal(T *dest, const T *source, size_t nelems, uint64_t *sig_addr, \
                                uint64_t signal, int sig_op, int pe);                       \
    void shmem_ctx_##N##_put_signal_nbi(shmem_ctx_t ctx, T *dest, const T *source,          \
                                        size_t nelems, uint64_t *sig_addr, uint64_t signal, \
                                        int sig_op, int pe);                                \
    void shmem_##N##_put_signal_nbi(T *dest, const T *source, size_t nelems,                \
                                    uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);
SHMEM_RMA_TYPE_TABLE(SHMEM_DECL_PUT_SIGNAL_)
#undef SHMEM_DECL_PUT_SIGNAL_
#define SHMEM_DECL_SIZED_PUT_SIGNAL_(BITS, UNIT)                                            \
    void shmem_ctx_put##BITS##_signal(shmem_ctx_t ctx, void *dest, const void *source,      \
                                      size_t nelems, uint64_t *sig_addr, uint64_t signal,   \
                                      int sig_op, int pe);                                  \
    void shmem_put##BITS##_signal(void *dest, const void *source, size_t nelems,            \
                                  uint64_t *sig_addr, uint64_t signal, int sig_op, int pe); \
    void shmem_ctx_put##BITS##_signal_nbi(shmem_ctx_t ctx, void *dest, const void *source,  \
                                          size_t nelems, uint64_t *sig_addr, uint64_t signal, \
                                          int sig_op, int pe);                              \
    void shmem_put##BITS##_signal_nbi(void *dest, const void *source, size_t nelems,        \
                                      uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);
SHMEM_SIZED_TABLE(SHMEM_DECL_SIZED_PUT_SIGNAL_)
SHMEM_DECL_SIZED_PUT_SIGNAL_(mem, void)
#undef SHMEM_DECL_SIZED_PUT_SIGNAL_
void shmem_ctx_signal_add(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe);
void shmem_signal_add(uint64_t *sig_addr, uint64_t signal, int pe);
void shmem_ctx_signal_set(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe);
void shmem_signal_set(uint64_t *sig_addr, uint64_t signal, int pe);
uint64_t shmem_signal_fetch(const uint64_t *sig_addr);
uint64_t shmem_signal_wait_until(uint64_t *sig_addr, int cmp, uint64_t cmp_value);

/* ---- Memory ordering ----------------------------------------------------- */
void shmem_ctx_fence(shmem_ctx_t ctx);
void shmem_fence(void);
void shmem_ctx_quiet(shmem_ctx_t ctx);
void shmem_quiet(void);
void shmem_ctx_pe_quiet(shmem_ctx_t ctx, const int *target_pes, size_t npes);
void shmem_pe_quiet(const int *target_pes, size_t npes);

/* ---- Point-to-point synchronization -------------------------------------- */
#define SHMEM_DECL_P2P_(T, N)                                                               \
    void shmem_##N##_wait_until(T *ivar, int cmp, T cmp_value);                            \
    void shmem_##N##_wait_until_all(T *ivars, size_t nelems, const int *status, int cmp,    \
                                    T cmp_value);                                           \
    size_t shmem_##N##_wait_until_any(T *ivars, size_t nelems, const int *status, int cmp,  \
                                      T cmp_value);                                         \
    size_t shmem_##N##_wait_until_some(T *ivars, size_t nelems, size_t *indices,            \
                                       const int *status, int cmp, T cmp_value);            \
    void shmem_##N##_wait_until_all_vector(T *ivars, size_t nelems, const int *status,      \
                                           int cmp, const T *cmp_values);                   \
    size_t shmem_##N##_wait_until_any_vector(T *ivars, size_t nelems, const int *status,    \
                                             int cmp, const T *cmp_values);                 \
    size_t shmem_##N##_wait_until_some_vector(T *ivars, size_t nelems, size_t *indices,     \
                                              const int *status, int cmp,                   \
                                              const T *cmp_values);                         \
    int shmem_##N##_test(T *ivar, int cmp, T cmp_value);                                    \
    int shmem_##N##_test_all(T *ivars, size_t nelems, const int *status, int cmp,           \
                             T cmp_value);                                                  \
    size_t shmem_##N##_test_any(T *ivars, size_t nelems, const int *status, int cmp,        \
                                T cmp_value);                                               \
    size_t shmem_##N##_test_some(T *ivars, size_t nelems, size_t *indices,                  \
                                 const int *status, int cmp, T cmp_value);                  \
    int shmem_##N##_test_all_vector(T *ivars, size_t nelems, const int *status, int cmp,    \
                                    const T *cmp_values);                                   \
    size_t shmem_##N##_test_any_vector(T *ivars, size_t nelems, const int *status, int cmp, \
                                       const T *cmp_values);                                \
    size_t shmem_##N##_test_some_vector(T *ivars, size_t nelems, size_t *indices,           \
                                        const int *status, int cmp,                         \
                                        const T *cmp_values);
SHMEM_P2P_TABLE(SHMEM_DECL_P2P_)
#undef SHMEM_DECL_P2P_
/* Deprecated: wait while *ivar == cmp_value. */
void shmem_short_wait(short *ivar, short cmp_value);
void shmem_int_wait(int *ivar, int cmp_value);
void shmem_long_wait(long *ivar, long cmp_value);
void shmem_longlong_wait(long long *ivar, long long cmp_value);
void shmem_wait(long *ivar, long cmp_value);
#ifndef __cplusplus
void shmem_wait_until(long *ivar, int cmp, long cmp_value);
#endif

/* ---- Distributed locking --------------------------------------------------- */
void shmem_set_lock(long *lock);
void shmem_clear_lock(long *lock);
int shmem_test_lock(long *lock);

/* ---- Contexts --------------------------------------------------------------- */
int shmem_ctx_create(long options, shmem_ctx_t *ctx);
int shmem_team_create_ctx(shmem_team_t team, long options, shmem_ctx_t *ctx);
void shmem_ctx_destroy(shmem_ctx_t ctx);
int shmem_ctx_get_team(shmem_ctx_t ctx, shmem_team_t *team);
void shmem_ctx_session_start(shmem_ctx_t ctx, long options,
                             const shmem_ctx_session_config_t *config, long config_mask);
void shmem_ctx_session_stop(shmem_ctx_t ctx);

/* ---- Teams ------------------------------------------------------------------ */
int shmem_team_my_pe(shmem_team_t team);
int shmem_team_n_pes(shmem_team_t team);
int shmem_team_get_config(shmem_team_t team, long config_mask, shmem_team_config_t *config);
int shmem_team_translate_pe(shmem_team_t src_team, int src_pe, shmem_team_t dest_team);
int shmem_team_split_strided(shmem_team_t parent_team, int start, int stride, int size,
                             const shmem_team_config_t *config, long config_mask,
                             shmem_team_t *new_team);
int shmem_team_split_2d(shmem_team_t parent_team, int xrange,
                        const shmem_team_config_t *xaxis_config, long xaxis_mask,
                        shmem_team_t *xaxis_team, const shmem_team_config_t *yaxis_config,
                        long yaxis_mask, shmem_team_t *yaxis_team);
void shmem_team_destroy(shmem_team_t team);
void *shmem_team_ptr(shmem_team_t team, const void *dest, int pe);

/* ---- Collectives ------------------------------------------------------------ */
void shmem_barrier_all(void);
void shmem_sync_all(void);
int shmem_team_sync(shmem_team_t team);
void shmem_barrier(int PE_start, int logPE_stride, int PE_size, long *pSync);
void shmem_sync(int PE_start, int logPE_stride, int PE_size, long *pSync);

#define SHMEM_DECL_COLL_(T, N)                                                              \
    int shmem_##N##_broadcast(shmem_team_t team, T *dest, const T *source, size_t nelems,   \
                              int PE_root);                                                 \
    int shmem_##N##_collect(shmem_team_t team, T *dest, const T *source, size_t nelems);    \
    int shmem_##N##_fcollect(shmem_team_t team, T *dest, const T *source, size_t nelems);   \
    int shmem_##N##_alltoall(shmem_team_t team, T *dest, const T *source, size_t nelems);   \
    int shmem_##N##_alltoalls(shmem_team_t team, T *dest, const T *source, ptrdiff_t dst,   \
                              ptrdiff_t sst, size_t nelems);
SHMEM_RMA_TYPE_TABLE(SHMEM_DECL_COLL_)
#undef SHMEM_DECL_COLL_
int shmem_broadcastmem(shmem_team_t team, void *dest, const void *source, size_t nelems,
                       int PE_root);
int shmem_collectmem(shmem_team_t team, void *dest, const void *source, size_t nelems);
int shmem_fcollectmem(shmem_team_t team, void *dest, const void *source, size_t nelems);
int shmem_alltoallmem(shmem_team_t team, void *dest, const void *source, size_t nelems);
int shmem_alltoallsmem(shmem_team_t team, void *dest, const void *source, ptrdiff_t dst,
                       ptrdiff_t sst, size_t nelems);

#define SHMEM_DECL_REDUCE_(T, N, OP)                                                        \
    int shmem_##N##_##OP##_reduce(shmem_team_t team, T *dest, const T *source, size_t nreduce);
#define SHMEM_DECL_REDUCE_BIT_(T, N)                                                        \
    SHMEM_DECL_REDUCE_(T, N, and) SHMEM_DECL_REDUCE_(T, N, or) SHMEM_DECL_REDUCE_(T, N, xor)
#define SHMEM_DECL_REDUCE_MINMAX_(T, N)                                                     \
    SHMEM_DECL_REDUCE_(T, N, min) SHMEM_DECL_REDUCE_(T, N, max)
#define SHMEM_DECL_REDUCE_ARITH_(T, N)                                                      \
    SHMEM_DECL_REDUCE_(T, N, sum) SHMEM_DECL_REDUCE_(T, N, prod)
SHMEM_REDUCE_BITWISE_TABLE(SHMEM_DECL_REDUCE_BIT_)
SHMEM_REDUCE_MINMAX_TABLE(SHMEM_DECL_REDUCE_MINMAX_)
SHMEM_REDUCE_ARITH_TABLE(SHMEM_DECL_REDUCE_ARITH_)
#undef SHMEM_DECL_REDUCE_BIT_
#undef SHMEM_DECL_REDUCE_MINMAX_
#undef SHMEM_DECL_REDUCE_ARITH_
#undef SHMEM_DECL_REDUCE_

/* Prefix sums (OpenSHMEM 1.6) over the SUM reduction types. */
#define SHMEM_DECL_SCAN_(T, N)                                                              \
    int shmem_##N##_sum_inscan(shmem_team_t team, T *dest, const T *source, size_t nelems); \
    int shmem_##N##_sum_exscan(shmem_team_t team, T *dest, const T *source, size_t nelems);
SHMEM_SCAN_TABLE(SHMEM_DECL_SCAN_)
#undef SHMEM_DECL_SCAN_

/* Deprecated active-set collectives. */
#define SHMEM_DECL_ACTIVE_SET_(BITS)                                                        \
    void shmem_broadcast##BITS(void *dest, const void *source, size_t nelems, int PE_root,  \
                               int PE_start, int logPE_stride, int PE_size, long *pSync);   \
    void shmem_collect##BITS(void *dest, const void *source, size_t nelems, int PE_start,   \
                             int logPE_stride, int PE_size, long *pSync);                   \
    void shmem_fcollect##BITS(void *dest, const void *source, size_t nelems, int PE_start,  \
                              int logPE_stride, int PE_size, long *pSync);                  \
    void shmem_alltoall##BITS(void *dest, const void *source, size_t nelems, int PE_start,  \
                              int logPE_stride, int PE_size, long *pSync);                  \
    void shmem_alltoalls##BITS(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, \
                               size_t nelems, int PE_start, int logPE_stride, int PE_size,  \
                               long *pSync);
SHMEM_DECL_ACTIVE_SET_(32)
SHMEM_DECL_ACTIVE_SET_(64)
#undef SHMEM_DECL_ACTIVE_SET_
#define SHMEM_DECL_TO_ALL_(T, N, OP)                                                        \
    void shmem_##N##_##OP##_to_all(T *dest, const T *source, int nreduce, int PE_start,     \
                                   int logPE_stride, int PE_size, T *pWrk, long *pSync);
#define SHMEM_DECL_TO_ALL_BIT_(T, N)                                                        \
    SHMEM_DECL_TO_ALL_(T, N, and) SHMEM_DECL_TO_ALL_(T, N, or) SHMEM_DECL_TO_ALL_(T, N, xor)
#define SHMEM_DECL_TO_ALL_MINMAX_(T, N)                                                     \
    SHMEM_DECL_TO_ALL_(T, N, min) SHMEM_DECL_TO_ALL_(T, N, max)
#define SHMEM_DECL_TO_ALL_ARITH_(T, N)                                                      \
    SHMEM_DECL_TO_ALL_(T, N, sum) SHMEM_DECL_TO_ALL_(T, N, prod)
SHMEM_TO_ALL_BITWISE_TABLE(SHMEM_DECL_TO_ALL_BIT_)
SHMEM_TO_ALL_MINMAX_TABLE(SHMEM_DECL_TO_ALL_MINMAX_)
SHMEM_TO_ALL_ARITH_TABLE(SHMEM_DECL_TO_ALL_ARITH_)
#undef SHMEM_DECL_TO_ALL_BIT_
#undef SHMEM_DECL_TO_ALL_MINMAX_
#undef SHMEM_DECL_TO_ALL_ARITH_
#undef SHMEM_DECL_TO_ALL_

/* ---- Deprecated cache management: no-ops (memory is coherent) -------------- */
void shmem_clear_cache_inv(void);
void shmem_set_cache_inv(void);
void shmem_clear_cache_line_inv(void *dest);
void shmem_set_cache_line_inv(void *dest);
void shmem_udcflush(void);
void shmem_udcflush_line(void *dest);

/* ---- Profiling ---------------------------------------------------------------- */
void shmem_pcontrol(const int level, ...);

#ifdef __cplusplus
}
#endif

/* ---- What language bindings that key on macros look for (shmem4py) -------- */
#include <shmem/bindings.h>

/* ---- C11 type-generic interfaces ----------------------------------------- */
#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L && !defined(__cplusplus) && \
    !defined(OSHM_NO_GENERIC)
#include <shmem/shmem_generic.h>
#endif
/* ---- C++ overloads of the same generic names ----------------------------- */
#if defined(__cplusplus) && !defined(OSHM_NO_GENERIC)
#include <shmem/shmem_cxx.h>
#endif

#endif /* SHMEM_SHMEM_H */
