/*
 * Device AMOs, typed puts with signal, point-to-point waits and tests,
 * device-wide synchronization and team queries (included by
 * <shmem/device.h>; do not include it alone).
 *
 * Every routine is the host routine of the same name with shmem_ replaced by
 * shmemd_, called from a kernel thread. AMOs and signals are descriptors on
 * the data movement engines like device RMA: a fetching AMO returns once its
 * value is back; the _nbi fetching forms may return before *fetch is
 * written, and quiet says it was.
 */
#ifndef SHMEM_DEVICE_SYNC_H
#define SHMEM_DEVICE_SYNC_H

#include <stddef.h>
#include <stdint.h>

#include <shmem/device_types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* AMOs, per the specification's AMO tables. */
#define SHMEMD_DECL_AMO_STD_(T, N, U)                                                          \
    OSHM_AICORE T shmemd_##N##_atomic_fetch_add(OSHM_GM T *dest, T value, int pe);             \
    OSHM_AICORE void shmemd_##N##_atomic_add(OSHM_GM T *dest, T value, int pe);                \
    OSHM_AICORE T shmemd_##N##_atomic_fetch_inc(OSHM_GM T *dest, int pe);                      \
    OSHM_AICORE void shmemd_##N##_atomic_inc(OSHM_GM T *dest, int pe);                         \
    OSHM_AICORE T shmemd_##N##_atomic_compare_swap(OSHM_GM T *dest, T cond, T value, int pe);  \
    OSHM_AICORE void shmemd_##N##_atomic_fetch_add_nbi(T *fetch, OSHM_GM T *dest, T value, int pe); \
    OSHM_AICORE void shmemd_##N##_atomic_fetch_inc_nbi(T *fetch, OSHM_GM T *dest, int pe);     \
    OSHM_AICORE void shmemd_##N##_atomic_compare_swap_nbi(T *fetch, OSHM_GM T *dest, T cond,   \
                                                          T value, int pe);
#define SHMEMD_DECL_AMO_EXT_(T, N, U)                                                          \
    OSHM_AICORE T shmemd_##N##_atomic_fetch(OSHM_GM const T *source, int pe);                  \
    OSHM_AICORE void shmemd_##N##_atomic_set(OSHM_GM T *dest, T value, int pe);                \
    OSHM_AICORE T shmemd_##N##_atomic_swap(OSHM_GM T *dest, T value, int pe);                  \
    OSHM_AICORE void shmemd_##N##_atomic_fetch_nbi(T *fetch, OSHM_GM const T *source, int pe); \
    OSHM_AICORE void shmemd_##N##_atomic_swap_nbi(T *fetch, OSHM_GM T *dest, T value, int pe);
#define SHMEMD_DECL_AMO_BIT_(T, N, U)                                                          \
    OSHM_AICORE T shmemd_##N##_atomic_fetch_and(OSHM_GM T *dest, T value, int pe);             \
    OSHM_AICORE void shmemd_##N##_atomic_and(OSHM_GM T *dest, T value, int pe);                \
    OSHM_AICORE T shmemd_##N##_atomic_fetch_or(OSHM_GM T *dest, T value, int pe);              \
    OSHM_AICORE void shmemd_##N##_atomic_or(OSHM_GM T *dest, T value, int pe);                 \
    OSHM_AICORE T shmemd_##N##_atomic_fetch_xor(OSHM_GM T *dest, T value, int pe);             \
    OSHM_AICORE void shmemd_##N##_atomic_xor(OSHM_GM T *dest, T value, int pe);                \
    OSHM_AICORE void shmemd_##N##_atomic_fetch_and_nbi(T *fetch, OSHM_GM T *dest, T value, int pe); \
    OSHM_AICORE void shmemd_##N##_atomic_fetch_or_nbi(T *fetch, OSHM_GM T *dest, T value, int pe); \
    OSHM_AICORE void shmemd_##N##_atomic_fetch_xor_nbi(T *fetch, OSHM_GM T *dest, T value, int pe);
SHMEM_AMO_STANDARD_TABLE(SHMEMD_DECL_AMO_STD_)
SHMEM_AMO_EXTENDED_TABLE(SHMEMD_DECL_AMO_EXT_)
SHMEM_AMO_BITWISE_TABLE(SHMEMD_DECL_AMO_BIT_)
#undef SHMEMD_DECL_AMO_STD_
#undef SHMEMD_DECL_AMO_EXT_
#undef SHMEMD_DECL_AMO_BIT_

/* Put with signal, typed and sized: the signal lands after the data.
 * shmemd_TYPENAME_put_signal, shmemd_TYPENAME_put_signal_nbi for every type
 * of the RMA table (half and bfloat16 too); shmemd_putSIZE_signal and
 * shmemd_putSIZE_signal_nbi for SIZE 8 to 128. */
#define SHMEMD_DECL_PUT_SIGNAL_(T, N)                                                          \
    OSHM_AICORE void shmemd_##N##_put_signal(OSHM_GM T *dest, OSHM_GM const T *source,         \
                                             size_t nelems, OSHM_GM uint64_t *sig_addr,        \
                                             uint64_t signal, int sig_op, int pe);             \
    OSHM_AICORE void shmemd_##N##_put_signal_nbi(OSHM_GM T *dest, OSHM_GM const T *source,     \
                                                 size_t nelems, OSHM_GM uint64_t *sig_addr,    \
                                                 uint64_t signal, int sig_op, int pe);
SHMEMD_RMA_TYPE_TABLE(SHMEMD_DECL_PUT_SIGNAL_)
#undef SHMEMD_DECL_PUT_SIGNAL_
#define SHMEMD_DECL_SIZED_SIGNAL_(BITS, UNIT)                                                  \
    OSHM_AICORE void shmemd_put##BITS##_signal(OSHM_GM void *dest, OSHM_GM const void *source, \
                                               size_t nelems, OSHM_GM uint64_t *sig_addr,      \
                                               uint64_t signal, int sig_op, int pe);           \
    OSHM_AICORE void shmemd_put##BITS##_signal_nbi(OSHM_GM void *dest,                         \
                                                   OSHM_GM const void *source, size_t nelems,  \
                                                   OSHM_GM uint64_t *sig_addr,                 \
                                                   uint64_t signal, int sig_op, int pe);
SHMEM_SIZED_TABLE(SHMEMD_DECL_SIZED_SIGNAL_)
#undef SHMEMD_DECL_SIZED_SIGNAL_

/* Point-to-point synchronization on this PE's symmetric memory, with the
 * OpenSHMEM 1.5 semantics: a nonzero status[i] leaves element i out; _any
 * returns an index, or SIZE_MAX when no element is included; _some returns
 * how many indices it wrote to INDICES (0 when none is included). */
#define SHMEMD_DECL_P2P_(T, N)                                                                 \
    OSHM_AICORE void shmemd_##N##_wait_until(OSHM_GM T *ivar, int cmp, T cmp_value);           \
    OSHM_AICORE void shmemd_##N##_wait_until_all(OSHM_GM T *ivars, size_t nelems,              \
                                                 const int *status, int cmp, T cmp_value);     \
    OSHM_AICORE size_t shmemd_##N##_wait_until_any(OSHM_GM T *ivars, size_t nelems,            \
                                                   const int *status, int cmp, T cmp_value);   \
    OSHM_AICORE size_t shmemd_##N##_wait_until_some(OSHM_GM T *ivars, size_t nelems,           \
                                                    size_t *indices, const int *status,        \
                                                    int cmp, T cmp_value);                     \
    OSHM_AICORE void shmemd_##N##_wait_until_all_vector(OSHM_GM T *ivars, size_t nelems,       \
                                                        const int *status, int cmp,            \
                                                        const T *cmp_values);                  \
    OSHM_AICORE size_t shmemd_##N##_wait_until_any_vector(OSHM_GM T *ivars, size_t nelems,     \
                                                          const int *status, int cmp,          \
                                                          const T *cmp_values);                \
    OSHM_AICORE size_t shmemd_##N##_wait_until_some_vector(OSHM_GM T *ivars, size_t nelems,    \
                                                           size_t *indices, const int *status, \
                                                           int cmp, const T *cmp_values);      \
    OSHM_AICORE int shmemd_##N##_test(OSHM_GM T *ivar, int cmp, T cmp_value);                  \
    OSHM_AICORE int shmemd_##N##_test_all(OSHM_GM T *ivars, size_t nelems, const int *status,  \
                                          int cmp, T cmp_value);                               \
    OSHM_AICORE size_t shmemd_##N##_test_any(OSHM_GM T *ivars, size_t nelems,                  \
                                             const int *status, int cmp, T cmp_value);         \
    OSHM_AICORE size_t shmemd_##N##_test_some(OSHM_GM T *ivars, size_t nelems, size_t *indices, \
                                              const int *status, int cmp, T cmp_value);        \
    OSHM_AICORE int shmemd_##N##_test_all_vector(OSHM_GM T *ivars, size_t nelems,              \
                                                 const int *status, int cmp,                   \
                                                 const T *cmp_values);                         \
    OSHM_AICORE size_t shmemd_##N##_test_any_vector(OSHM_GM T *ivars, size_t nelems,           \
                                                    const int *status, int cmp,                \
                                                    const T *cmp_values);                      \
    OSHM_AICORE size_t shmemd_##N##_test_some_vector(OSHM_GM T *ivars, size_t nelems,          \
                                                     size_t *indices, const int *status,       \
                                                     int cmp, const T *cmp_values);
SHMEM_P2P_TABLE(SHMEMD_DECL_P2P_)
#undef SHMEMD_DECL_P2P_

/* Every thread of every block of every PE (of TEAM) meets; unlike the
 * barriers, outstanding operations are not completed. */
OSHM_AICORE void shmemd_sync_all(void);
OSHM_AICORE void shmemd_team_sync(shmemd_team_t team);

/* The host team handles, as kernels see them. */
extern struct shmem_team_impl shmem_team_world_impl;
extern struct shmem_team_impl shmem_team_shared_impl;
#define SHMEMD_TEAM_WORLD ((shmemd_team_t)&shmem_team_world_impl)
#define SHMEMD_TEAM_SHARED ((shmemd_team_t)&shmem_team_shared_impl)
#define SHMEMD_TEAM_INVALID ((shmemd_team_t)0)
/* As shmem_team_my_pe / n_pes / translate_pe: -1 for an invalid team or PE. */
OSHM_AICORE int shmemd_team_my_pe(shmemd_team_t team);
OSHM_AICORE int shmemd_team_n_pes(shmemd_team_t team);
OSHM_AICORE int shmemd_team_translate_pe(shmemd_team_t src_team, int src_pe, shmemd_team_t dest_team);

#ifdef __cplusplus
}
#endif

/* C11: the routine for the pointer's type. */
#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L && !defined(OSHM_NO_GENERIC)
#define SHMEMD_G_SYNC_SEL_(TABLE, OP, PTR) _Generic(*(PTR) TABLE(OP))
#define SHMEMD_G_A_fetch_add_(T, N, U) , T: shmemd_##N##_atomic_fetch_add
#define SHMEMD_G_A_add_(T, N, U) , T: shmemd_##N##_atomic_add
#define SHMEMD_G_A_fetch_inc_(T, N, U) , T: shmemd_##N##_atomic_fetch_inc
#define SHMEMD_G_A_inc_(T, N, U) , T: shmemd_##N##_atomic_inc
#define SHMEMD_G_A_compare_swap_(T, N, U) , T: shmemd_##N##_atomic_compare_swap
#define SHMEMD_G_A_fetch_(T, N, U) , T: shmemd_##N##_atomic_fetch
#define SHMEMD_G_A_set_(T, N, U) , T: shmemd_##N##_atomic_set
#define SHMEMD_G_A_swap_(T, N, U) , T: shmemd_##N##_atomic_swap
#define SHMEMD_G_A_fetch_and_(T, N, U) , T: shmemd_##N##_atomic_fetch_and
#define SHMEMD_G_A_and_(T, N, U) , T: shmemd_##N##_atomic_and
#define SHMEMD_G_A_fetch_or_(T, N, U) , T: shmemd_##N##_atomic_fetch_or
#define SHMEMD_G_A_or_(T, N, U) , T: shmemd_##N##_atomic_or
#define SHMEMD_G_A_fetch_xor_(T, N, U) , T: shmemd_##N##_atomic_fetch_xor
#define SHMEMD_G_A_xor_(T, N, U) , T: shmemd_##N##_atomic_xor
#define shmemd_atomic_fetch_add(dest, ...) SHMEMD_G_SYNC_SEL_(SHMEM_AMO_STANDARD_GENERIC_TABLE, SHMEMD_G_A_fetch_add_, dest)(dest, __VA_ARGS__)
#define shmemd_atomic_add(dest, ...) SHMEMD_G_SYNC_SEL_(SHMEM_AMO_STANDARD_GENERIC_TABLE, SHMEMD_G_A_add_, dest)(dest, __VA_ARGS__)
#define shmemd_atomic_fetch_inc(dest, ...) SHMEMD_G_SYNC_SEL_(SHMEM_AMO_STANDARD_GENERIC_TABLE, SHMEMD_G_A_fetch_inc_, dest)(dest, __VA_ARGS__)
#define shmemd_atomic_inc(dest, ...) SHMEMD_G_SYNC_SEL_(SHMEM_AMO_STANDARD_GENERIC_TABLE, SHMEMD_G_A_inc_, dest)(dest, __VA_ARGS__)
#define shmemd_atomic_compare_swap(dest, ...) SHMEMD_G_SYNC_SEL_(SHMEM_AMO_STANDARD_GENERIC_TABLE, SHMEMD_G_A_compare_swap_, dest)(dest, __VA_ARGS__)
#define shmemd_atomic_fetch(src, ...) SHMEMD_G_SYNC_SEL_(SHMEM_AMO_EXTENDED_GENERIC_TABLE, SHMEMD_G_A_fetch_, src)(src, __VA_ARGS__)
#define shmemd_atomic_set(dest, ...) SHMEMD_G_SYNC_SEL_(SHMEM_AMO_EXTENDED_GENERIC_TABLE, SHMEMD_G_A_set_, dest)(dest, __VA_ARGS__)
#define shmemd_atomic_swap(dest, ...) SHMEMD_G_SYNC_SEL_(SHMEM_AMO_EXTENDED_GENERIC_TABLE, SHMEMD_G_A_swap_, dest)(dest, __VA_ARGS__)
#define shmemd_atomic_fetch_and(dest, ...) SHMEMD_G_SYNC_SEL_(SHMEM_AMO_BITWISE_GENERIC_TABLE, SHMEMD_G_A_fetch_and_, dest)(dest, __VA_ARGS__)
#define shmemd_atomic_and(dest, ...) SHMEMD_G_SYNC_SEL_(SHMEM_AMO_BITWISE_GENERIC_TABLE, SHMEMD_G_A_and_, dest)(dest, __VA_ARGS__)
#define shmemd_atomic_fetch_or(dest, ...) SHMEMD_G_SYNC_SEL_(SHMEM_AMO_BITWISE_GENERIC_TABLE, SHMEMD_G_A_fetch_or_, dest)(dest, __VA_ARGS__)
#define shmemd_atomic_or(dest, ...) SHMEMD_G_SYNC_SEL_(SHMEM_AMO_BITWISE_GENERIC_TABLE, SHMEMD_G_A_or_, dest)(dest, __VA_ARGS__)
#define shmemd_atomic_fetch_xor(dest, ...) SHMEMD_G_SYNC_SEL_(SHMEM_AMO_BITWISE_GENERIC_TABLE, SHMEMD_G_A_fetch_xor_, dest)(dest, __VA_ARGS__)
#define shmemd_atomic_xor(dest, ...) SHMEMD_G_SYNC_SEL_(SHMEM_AMO_BITWISE_GENERIC_TABLE, SHMEMD_G_A_xor_, dest)(dest, __VA_ARGS__)
#define SHMEMD_G_W_wait_until_(T, N) , T: shmemd_##N##_wait_until
#define SHMEMD_G_W_wait_until_all_(T, N) , T: shmemd_##N##_wait_until_all
#define SHMEMD_G_W_wait_until_any_(T, N) , T: shmemd_##N##_wait_until_any
#define SHMEMD_G_W_wait_until_some_(T, N) , T: shmemd_##N##_wait_until_some
#define SHMEMD_G_W_test_(T, N) , T: shmemd_##N##_test
#define SHMEMD_G_W_test_all_(T, N) , T: shmemd_##N##_test_all
#define SHMEMD_G_W_test_any_(T, N) , T: shmemd_##N##_test_any
#define SHMEMD_G_W_test_some_(T, N) , T: shmemd_##N##_test_some
#define shmemd_wait_until(ivar, ...) SHMEMD_G_SYNC_SEL_(SHMEM_P2P_GENERIC_TABLE, SHMEMD_G_W_wait_until_, ivar)(ivar, __VA_ARGS__)
#define shmemd_wait_until_all(ivars, ...) SHMEMD_G_SYNC_SEL_(SHMEM_P2P_GENERIC_TABLE, SHMEMD_G_W_wait_until_all_, ivars)(ivars, __VA_ARGS__)
#define shmemd_wait_until_any(ivars, ...) SHMEMD_G_SYNC_SEL_(SHMEM_P2P_GENERIC_TABLE, SHMEMD_G_W_wait_until_any_, ivars)(ivars, __VA_ARGS__)
#define shmemd_wait_until_some(ivars, ...) SHMEMD_G_SYNC_SEL_(SHMEM_P2P_GENERIC_TABLE, SHMEMD_G_W_wait_until_some_, ivars)(ivars, __VA_ARGS__)
#define shmemd_test(ivar, ...) SHMEMD_G_SYNC_SEL_(SHMEM_P2P_GENERIC_TABLE, SHMEMD_G_W_test_, ivar)(ivar, __VA_ARGS__)
#define shmemd_test_all(ivars, ...) SHMEMD_G_SYNC_SEL_(SHMEM_P2P_GENERIC_TABLE, SHMEMD_G_W_test_all_, ivars)(ivars, __VA_ARGS__)
#define shmemd_test_any(ivars, ...) SHMEMD_G_SYNC_SEL_(SHMEM_P2P_GENERIC_TABLE, SHMEMD_G_W_test_any_, ivars)(ivars, __VA_ARGS__)
#define shmemd_test_some(ivars, ...) SHMEMD_G_SYNC_SEL_(SHMEM_P2P_GENERIC_TABLE, SHMEMD_G_W_test_some_, ivars)(ivars, __VA_ARGS__)
#endif

#endif
