/*
 * C++ overloads of the OpenSHMEM generic names: what <shmem/shmem_generic.h>
 * does with C11 _Generic, done by overload resolution. Included by shmem.h
 * for C++ only. Each overload forwards to the typed routine; the set of
 * overloads comes from the same tables (shmem_type_tables.h), over the
 * distinct C++ types only, as the fixed-width names alias them.
 *
 * The value arguments are plain parameters (not deduced), so
 * shmem_p(&a_long, 1, pe) converts 1 to long as the C form does; the pointer
 * argument alone picks the overload.
 */
#ifndef SHMEM_SHMEM_CXX_H
#define SHMEM_SHMEM_CXX_H

/* C++ linkage even when shmem.h is included inside an extern "C" block. */
extern "C++" {

/* ---- RMA, signals and collectives: the standard RMA types ---- */
#define SHMEM_CXX_RMA_(T, N)                                                                \
    inline void shmem_put(T *d, const T *s, size_t n, int pe) { shmem_##N##_put(d, s, n, pe); } \
    inline void shmem_put(shmem_ctx_t c, T *d, const T *s, size_t n, int pe)                \
    { shmem_ctx_##N##_put(c, d, s, n, pe); }                                                \
    inline void shmem_get(T *d, const T *s, size_t n, int pe) { shmem_##N##_get(d, s, n, pe); } \
    inline void shmem_get(shmem_ctx_t c, T *d, const T *s, size_t n, int pe)                \
    { shmem_ctx_##N##_get(c, d, s, n, pe); }                                                \
    inline void shmem_put_nbi(T *d, const T *s, size_t n, int pe)                           \
    { shmem_##N##_put_nbi(d, s, n, pe); }                                                   \
    inline void shmem_put_nbi(shmem_ctx_t c, T *d, const T *s, size_t n, int pe)            \
    { shmem_ctx_##N##_put_nbi(c, d, s, n, pe); }                                            \
    inline void shmem_get_nbi(T *d, const T *s, size_t n, int pe)                           \
    { shmem_##N##_get_nbi(d, s, n, pe); }                                                   \
    inline void shmem_get_nbi(shmem_ctx_t c, T *d, const T *s, size_t n, int pe)            \
    { shmem_ctx_##N##_get_nbi(c, d, s, n, pe); }                                            \
    inline void shmem_p(T *d, T v, int pe) { shmem_##N##_p(d, v, pe); }                     \
    inline void shmem_p(shmem_ctx_t c, T *d, T v, int pe) { shmem_ctx_##N##_p(c, d, v, pe); } \
    inline T shmem_g(const T *s, int pe) { return shmem_##N##_g(s, pe); }                   \
    inline T shmem_g(shmem_ctx_t c, const T *s, int pe) { return shmem_ctx_##N##_g(c, s, pe); } \
    inline void shmem_iput(T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) \
    { shmem_##N##_iput(d, s, dst, sst, n, pe); }                                            \
    inline void shmem_iput(shmem_ctx_t c, T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst,   \
                           size_t n, int pe)                                                \
    { shmem_ctx_##N##_iput(c, d, s, dst, sst, n, pe); }                                     \
    inline void shmem_iget(T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) \
    { shmem_##N##_iget(d, s, dst, sst, n, pe); }                                            \
    inline void shmem_iget(shmem_ctx_t c, T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst,   \
                           size_t n, int pe)                                                \
    { shmem_ctx_##N##_iget(c, d, s, dst, sst, n, pe); }                                     \
    inline void shmem_put_signal(T *d, const T *s, size_t n, uint64_t *sig, uint64_t sv,    \
                                 int op, int pe)                                            \
    { shmem_##N##_put_signal(d, s, n, sig, sv, op, pe); }                                   \
    inline void shmem_put_signal(shmem_ctx_t c, T *d, const T *s, size_t n, uint64_t *sig,  \
                                 uint64_t sv, int op, int pe)                               \
    { shmem_ctx_##N##_put_signal(c, d, s, n, sig, sv, op, pe); }                            \
    inline void shmem_put_signal_nbi(T *d, const T *s, size_t n, uint64_t *sig, uint64_t sv, \
                                     int op, int pe)                                        \
    { shmem_##N##_put_signal_nbi(d, s, n, sig, sv, op, pe); }                               \
    inline void shmem_put_signal_nbi(shmem_ctx_t c, T *d, const T *s, size_t n,             \
                                     uint64_t *sig, uint64_t sv, int op, int pe)            \
    { shmem_ctx_##N##_put_signal_nbi(c, d, s, n, sig, sv, op, pe); }                        \
    inline int shmem_broadcast(shmem_team_t t, T *d, const T *s, size_t n, int root)        \
    { return shmem_##N##_broadcast(t, d, s, n, root); }                                     \
    inline int shmem_collect(shmem_team_t t, T *d, const T *s, size_t n)                    \
    { return shmem_##N##_collect(t, d, s, n); }                                             \
    inline int shmem_fcollect(shmem_team_t t, T *d, const T *s, size_t n)                   \
    { return shmem_##N##_fcollect(t, d, s, n); }                                            \
    inline int shmem_alltoall(shmem_team_t t, T *d, const T *s, size_t n)                   \
    { return shmem_##N##_alltoall(t, d, s, n); }                                            \
    inline int shmem_alltoalls(shmem_team_t t, T *d, const T *s, ptrdiff_t dst,             \
                               ptrdiff_t sst, size_t n)                                     \
    { return shmem_##N##_alltoalls(t, d, s, dst, sst, n); }
SHMEM_RMA_GENERIC_TYPE_TABLE(SHMEM_CXX_RMA_)
#undef SHMEM_CXX_RMA_

/* ---- AMOs: one overload per type of each AMO table ---- */
/* An AMO with a fetched result: plain, context and non-blocking forms.
 * ARGS/PASS are the operands after dest (none, one value, or cond+value). */
#define SHMEM_CXX_AMO_FETCHING_(T, N, OP, ARGS, PASS)                                       \
    inline T shmem_atomic_##OP(T *d ARGS, int pe) { return shmem_##N##_atomic_##OP(d PASS, pe); } \
    inline T shmem_atomic_##OP(shmem_ctx_t c, T *d ARGS, int pe)                            \
    { return shmem_ctx_##N##_atomic_##OP(c, d PASS, pe); }                                  \
    inline void shmem_atomic_##OP##_nbi(T *f, T *d ARGS, int pe)                            \
    { shmem_##N##_atomic_##OP##_nbi(f, d PASS, pe); }                                       \
    inline void shmem_atomic_##OP##_nbi(shmem_ctx_t c, T *f, T *d ARGS, int pe)             \
    { shmem_ctx_##N##_atomic_##OP##_nbi(c, f, d PASS, pe); }
#define SHMEM_CXX_AMO_NONFETCHING_(T, N, OP, ARGS, PASS)                                    \
    inline void shmem_atomic_##OP(T *d ARGS, int pe) { shmem_##N##_atomic_##OP(d PASS, pe); } \
    inline void shmem_atomic_##OP(shmem_ctx_t c, T *d ARGS, int pe)                         \
    { shmem_ctx_##N##_atomic_##OP(c, d PASS, pe); }
#define SHMEM_CXX_NOARGS_
#define SHMEM_CXX_VALUE_(T) , T v
#define SHMEM_CXX_CSWAP_(T) , T cond, T v

#define SHMEM_CXX_AMO_STD_(T, N, U)                                                         \
    SHMEM_CXX_AMO_FETCHING_(T, N, fetch_inc, SHMEM_CXX_NOARGS_, SHMEM_CXX_NOARGS_)          \
    SHMEM_CXX_AMO_NONFETCHING_(T, N, inc, SHMEM_CXX_NOARGS_, SHMEM_CXX_NOARGS_)             \
    SHMEM_CXX_AMO_FETCHING_(T, N, fetch_add, SHMEM_CXX_VALUE_(T), SHMEM_CXX_VALUE_PASS_)    \
    SHMEM_CXX_AMO_NONFETCHING_(T, N, add, SHMEM_CXX_VALUE_(T), SHMEM_CXX_VALUE_PASS_)       \
    SHMEM_CXX_AMO_FETCHING_(T, N, compare_swap, SHMEM_CXX_CSWAP_(T), SHMEM_CXX_CSWAP_PASS_)
#define SHMEM_CXX_VALUE_PASS_ , v
#define SHMEM_CXX_CSWAP_PASS_ , cond, v
SHMEM_AMO_STANDARD_GENERIC_TABLE(SHMEM_CXX_AMO_STD_)

/* fetch reads through a const pointer: its own forms. */
#define SHMEM_CXX_AMO_EXT_(T, N, U)                                                         \
    inline T shmem_atomic_fetch(const T *s, int pe) { return shmem_##N##_atomic_fetch(s, pe); } \
    inline T shmem_atomic_fetch(shmem_ctx_t c, const T *s, int pe)                          \
    { return shmem_ctx_##N##_atomic_fetch(c, s, pe); }                                      \
    inline void shmem_atomic_fetch_nbi(T *f, const T *s, int pe)                            \
    { shmem_##N##_atomic_fetch_nbi(f, s, pe); }                                             \
    inline void shmem_atomic_fetch_nbi(shmem_ctx_t c, T *f, const T *s, int pe)             \
    { shmem_ctx_##N##_atomic_fetch_nbi(c, f, s, pe); }                                      \
    SHMEM_CXX_AMO_NONFETCHING_(T, N, set, SHMEM_CXX_VALUE_(T), SHMEM_CXX_VALUE_PASS_)       \
    SHMEM_CXX_AMO_FETCHING_(T, N, swap, SHMEM_CXX_VALUE_(T), SHMEM_CXX_VALUE_PASS_)
SHMEM_AMO_EXTENDED_GENERIC_TABLE(SHMEM_CXX_AMO_EXT_)

#define SHMEM_CXX_AMO_BIT_(T, N, U)                                                         \
    SHMEM_CXX_AMO_FETCHING_(T, N, fetch_and, SHMEM_CXX_VALUE_(T), SHMEM_CXX_VALUE_PASS_)    \
    SHMEM_CXX_AMO_NONFETCHING_(T, N, and, SHMEM_CXX_VALUE_(T), SHMEM_CXX_VALUE_PASS_)       \
    SHMEM_CXX_AMO_FETCHING_(T, N, fetch_or, SHMEM_CXX_VALUE_(T), SHMEM_CXX_VALUE_PASS_)     \
    SHMEM_CXX_AMO_NONFETCHING_(T, N, or, SHMEM_CXX_VALUE_(T), SHMEM_CXX_VALUE_PASS_)        \
    SHMEM_CXX_AMO_FETCHING_(T, N, fetch_xor, SHMEM_CXX_VALUE_(T), SHMEM_CXX_VALUE_PASS_)    \
    SHMEM_CXX_AMO_NONFETCHING_(T, N, xor, SHMEM_CXX_VALUE_(T), SHMEM_CXX_VALUE_PASS_)
SHMEM_AMO_BITWISE_GENERIC_TABLE(SHMEM_CXX_AMO_BIT_)
#undef SHMEM_CXX_AMO_STD_
#undef SHMEM_CXX_AMO_EXT_
#undef SHMEM_CXX_AMO_BIT_
#undef SHMEM_CXX_AMO_FETCHING_
#undef SHMEM_CXX_AMO_NONFETCHING_
#undef SHMEM_CXX_NOARGS_
#undef SHMEM_CXX_VALUE_
#undef SHMEM_CXX_CSWAP_
#undef SHMEM_CXX_VALUE_PASS_
#undef SHMEM_CXX_CSWAP_PASS_

/* Deprecated generic AMO names. */
#define SHMEM_CXX_AMO_DEPR_(T, N)                                                           \
    inline T shmem_finc(T *d, int pe) { return shmem_##N##_finc(d, pe); }                   \
    inline void shmem_inc(T *d, int pe) { shmem_##N##_inc(d, pe); }                         \
    inline T shmem_fadd(T *d, T v, int pe) { return shmem_##N##_fadd(d, v, pe); }           \
    inline void shmem_add(T *d, T v, int pe) { shmem_##N##_add(d, v, pe); }                 \
    inline T shmem_cswap(T *d, T cond, T v, int pe) { return shmem_##N##_cswap(d, cond, v, pe); }
SHMEM_AMO_DEPRECATED_TABLE(SHMEM_CXX_AMO_DEPR_)
#undef SHMEM_CXX_AMO_DEPR_
#define SHMEM_CXX_AMO_DEPR_EXT_(T, N)                                                       \
    inline T shmem_fetch(const T *s, int pe) { return shmem_##N##_fetch(s, pe); }           \
    inline void shmem_set(T *d, T v, int pe) { shmem_##N##_set(d, v, pe); }                 \
    inline T shmem_swap(T *d, T v, int pe) { return shmem_##N##_swap(d, v, pe); }
SHMEM_AMO_DEPRECATED_EXT_TABLE(SHMEM_CXX_AMO_DEPR_EXT_)
#undef SHMEM_CXX_AMO_DEPR_EXT_

/* ---- Point-to-point synchronization ---- */
#define SHMEM_CXX_P2P_(T, N)                                                                \
    inline void shmem_wait_until(T *i, int cmp, T v) { shmem_##N##_wait_until(i, cmp, v); }  \
    inline void shmem_wait_until_all(T *i, size_t n, const int *st, int cmp, T v)           \
    { shmem_##N##_wait_until_all(i, n, st, cmp, v); }                                       \
    inline size_t shmem_wait_until_any(T *i, size_t n, const int *st, int cmp, T v)         \
    { return shmem_##N##_wait_until_any(i, n, st, cmp, v); }                                \
    inline size_t shmem_wait_until_some(T *i, size_t n, size_t *idx, const int *st, int cmp, \
                                        T v)                                                \
    { return shmem_##N##_wait_until_some(i, n, idx, st, cmp, v); }                          \
    inline void shmem_wait_until_all_vector(T *i, size_t n, const int *st, int cmp, T *vs)  \
    { shmem_##N##_wait_until_all_vector(i, n, st, cmp, vs); }                               \
    inline size_t shmem_wait_until_any_vector(T *i, size_t n, const int *st, int cmp, T *vs) \
    { return shmem_##N##_wait_until_any_vector(i, n, st, cmp, vs); }                        \
    inline size_t shmem_wait_until_some_vector(T *i, size_t n, size_t *idx, const int *st,  \
                                               int cmp, T *vs)                              \
    { return shmem_##N##_wait_until_some_vector(i, n, idx, st, cmp, vs); }                  \
    inline int shmem_test(T *i, int cmp, T v) { return shmem_##N##_test(i, cmp, v); }       \
    inline int shmem_test_all(T *i, size_t n, const int *st, int cmp, T v)                  \
    { return shmem_##N##_test_all(i, n, st, cmp, v); }                                      \
    inline size_t shmem_test_any(T *i, size_t n, const int *st, int cmp, T v)               \
    { return shmem_##N##_test_any(i, n, st, cmp, v); }                                      \
    inline size_t shmem_test_some(T *i, size_t n, size_t *idx, const int *st, int cmp, T v) \
    { return shmem_##N##_test_some(i, n, idx, st, cmp, v); }                                \
    inline int shmem_test_all_vector(T *i, size_t n, const int *st, int cmp, T *vs)         \
    { return shmem_##N##_test_all_vector(i, n, st, cmp, vs); }                              \
    inline size_t shmem_test_any_vector(T *i, size_t n, const int *st, int cmp, T *vs)      \
    { return shmem_##N##_test_any_vector(i, n, st, cmp, vs); }                              \
    inline size_t shmem_test_some_vector(T *i, size_t n, size_t *idx, const int *st, int cmp, \
                                         T *vs)                                             \
    { return shmem_##N##_test_some_vector(i, n, idx, st, cmp, vs); }
SHMEM_P2P_GENERIC_TABLE(SHMEM_CXX_P2P_)
#undef SHMEM_CXX_P2P_

/* shmem_sync(team); the active-set shmem_sync(start, log, size, pSync) is
 * the C routine itself. */
inline int shmem_sync(shmem_team_t team) { return shmem_team_sync(team); }

/* ---- Reductions over a team ---- */
#define SHMEM_CXX_REDUCE_(T, N, OP)                                                         \
    inline int shmem_##OP##_reduce(shmem_team_t t, T *d, const T *s, size_t n)              \
    { return shmem_##N##_##OP##_reduce(t, d, s, n); }
#define SHMEM_CXX_REDUCE_BIT_(T, N)                                                         \
    SHMEM_CXX_REDUCE_(T, N, and) SHMEM_CXX_REDUCE_(T, N, or) SHMEM_CXX_REDUCE_(T, N, xor)
#define SHMEM_CXX_REDUCE_MINMAX_(T, N) SHMEM_CXX_REDUCE_(T, N, min) SHMEM_CXX_REDUCE_(T, N, max)
#define SHMEM_CXX_REDUCE_ARITH_(T, N) SHMEM_CXX_REDUCE_(T, N, sum) SHMEM_CXX_REDUCE_(T, N, prod)
SHMEM_REDUCE_BITWISE_GENERIC_TABLE(SHMEM_CXX_REDUCE_BIT_)
SHMEM_REDUCE_MINMAX_GENERIC_TABLE(SHMEM_CXX_REDUCE_MINMAX_)
SHMEM_REDUCE_ARITH_GENERIC_TABLE(SHMEM_CXX_REDUCE_ARITH_)
#undef SHMEM_CXX_REDUCE_BIT_
#undef SHMEM_CXX_REDUCE_MINMAX_
#undef SHMEM_CXX_REDUCE_ARITH_
#undef SHMEM_CXX_REDUCE_

/* ---- OpenSHMEM 1.6: blocked strided RMA, scans, signal updates ---- */
#define SHMEM_CXX_IBRMA_(T, N)                                                              \
    inline void shmem_ibput(T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t bsize,   \
                            size_t nblocks, int pe)                                         \
    { shmem_##N##_ibput(d, s, dst, sst, bsize, nblocks, pe); }                              \
    inline void shmem_ibput(shmem_ctx_t c, T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst,  \
                            size_t bsize, size_t nblocks, int pe)                           \
    { shmem_ctx_##N##_ibput(c, d, s, dst, sst, bsize, nblocks, pe); }                       \
    inline void shmem_ibget(T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t bsize,   \
                            size_t nblocks, int pe)                                         \
    { shmem_##N##_ibget(d, s, dst, sst, bsize, nblocks, pe); }                              \
    inline void shmem_ibget(shmem_ctx_t c, T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst,  \
                            size_t bsize, size_t nblocks, int pe)                           \
    { shmem_ctx_##N##_ibget(c, d, s, dst, sst, bsize, nblocks, pe); }
SHMEM_RMA_GENERIC_TYPE_TABLE(SHMEM_CXX_IBRMA_)
#undef SHMEM_CXX_IBRMA_

#define SHMEM_CXX_SCAN_(T, N)                                                               \
    inline int shmem_sum_inscan(shmem_team_t t, T *d, const T *s, size_t n)                 \
    { return shmem_##N##_sum_inscan(t, d, s, n); }                                          \
    inline int shmem_sum_exscan(shmem_team_t t, T *d, const T *s, size_t n)                 \
    { return shmem_##N##_sum_exscan(t, d, s, n); }
SHMEM_REDUCE_ARITH_GENERIC_TABLE(SHMEM_CXX_SCAN_)
#undef SHMEM_CXX_SCAN_

/* The C11 generic names also take a context first. */
inline void shmem_signal_add(shmem_ctx_t c, uint64_t *sig, uint64_t v, int pe)
{ shmem_ctx_signal_add(c, sig, v, pe); }
inline void shmem_signal_set(shmem_ctx_t c, uint64_t *sig, uint64_t v, int pe)
{ shmem_ctx_signal_set(c, sig, v, pe); }

} /* extern "C++" */

#endif /* SHMEM_SHMEM_CXX_H */
