/*
 * C11 type-generic OpenSHMEM interfaces. Included by shmem.h for C11 and
 * later; not for C++.
 *
 * Each generic name accepts both the plain and the context form: the number
 * of arguments picks the form, _Generic on the pointed-to type picks the
 * typed routine. An unsupported type is a compile-time error.
 */
#ifndef SHMEM_SHMEM_GENERIC_H
#define SHMEM_SHMEM_GENERIC_H

/* Picks the 9th argument: used to choose between a plain form of arity k
 * and its context form of arity k+1. */
#define SHMEM_G_NTH9_(_1, _2, _3, _4, _5, _6, _7, _8, N, ...) N

/* Association lists, one per operation: ", T: routine". */
#define SHMEM_GA_put(T, N) , T: shmem_##N##_put
#define SHMEM_GA_ctx_put(T, N) , T: shmem_ctx_##N##_put
#define SHMEM_GA_get(T, N) , T: shmem_##N##_get
#define SHMEM_GA_ctx_get(T, N) , T: shmem_ctx_##N##_get
#define SHMEM_GA_put_nbi(T, N) , T: shmem_##N##_put_nbi
#define SHMEM_GA_ctx_put_nbi(T, N) , T: shmem_ctx_##N##_put_nbi
#define SHMEM_GA_get_nbi(T, N) , T: shmem_##N##_get_nbi
#define SHMEM_GA_ctx_get_nbi(T, N) , T: shmem_ctx_##N##_get_nbi
#define SHMEM_GA_p(T, N) , T: shmem_##N##_p
#define SHMEM_GA_ctx_p(T, N) , T: shmem_ctx_##N##_p
#define SHMEM_GA_g(T, N) , T: shmem_##N##_g
#define SHMEM_GA_ctx_g(T, N) , T: shmem_ctx_##N##_g
#define SHMEM_GA_iput(T, N) , T: shmem_##N##_iput
#define SHMEM_GA_ctx_iput(T, N) , T: shmem_ctx_##N##_iput
#define SHMEM_GA_iget(T, N) , T: shmem_##N##_iget
#define SHMEM_GA_ctx_iget(T, N) , T: shmem_ctx_##N##_iget

/* Selects the routine for OP from the type of *PTR among TABLE's types. */
#define SHMEM_G_SELECT_T_(TABLE, OP, PTR) _Generic(*(PTR) TABLE(SHMEM_GA_##OP))
#define SHMEM_G_SELECT_(OP, PTR) SHMEM_G_SELECT_T_(SHMEM_RMA_GENERIC_TYPE_TABLE, OP, PTR)

/* Plain form: the element pointer is argument 1; context form: argument 2. */
#define SHMEM_G_PLAIN_(OP, first, ...) SHMEM_G_SELECT_(OP, first)(first, __VA_ARGS__)
#define SHMEM_G_CTX_(OP, ctx, first, ...) SHMEM_G_SELECT_(ctx_##OP, first)(ctx, first, __VA_ARGS__)

#define SHMEM_G_put_(...) SHMEM_G_PLAIN_(put, __VA_ARGS__)
#define SHMEM_G_ctx_put_(...) SHMEM_G_CTX_(put, __VA_ARGS__)
#define SHMEM_G_get_(...) SHMEM_G_PLAIN_(get, __VA_ARGS__)
#define SHMEM_G_ctx_get_(...) SHMEM_G_CTX_(get, __VA_ARGS__)
#define SHMEM_G_put_nbi_(...) SHMEM_G_PLAIN_(put_nbi, __VA_ARGS__)
#define SHMEM_G_ctx_put_nbi_(...) SHMEM_G_CTX_(put_nbi, __VA_ARGS__)
#define SHMEM_G_get_nbi_(...) SHMEM_G_PLAIN_(get_nbi, __VA_ARGS__)
#define SHMEM_G_ctx_get_nbi_(...) SHMEM_G_CTX_(get_nbi, __VA_ARGS__)
#define SHMEM_G_p_(...) SHMEM_G_PLAIN_(p, __VA_ARGS__)
#define SHMEM_G_ctx_p_(...) SHMEM_G_CTX_(p, __VA_ARGS__)
#define SHMEM_G_g_(...) SHMEM_G_PLAIN_(g, __VA_ARGS__)
#define SHMEM_G_ctx_g_(...) SHMEM_G_CTX_(g, __VA_ARGS__)
#define SHMEM_G_iput_(...) SHMEM_G_PLAIN_(iput, __VA_ARGS__)
#define SHMEM_G_ctx_iput_(...) SHMEM_G_CTX_(iput, __VA_ARGS__)
#define SHMEM_G_iget_(...) SHMEM_G_PLAIN_(iget, __VA_ARGS__)
#define SHMEM_G_ctx_iget_(...) SHMEM_G_CTX_(iget, __VA_ARGS__)

/* Arity 4 (plain) / 5 (context). */
#define shmem_put(...) \
    SHMEM_G_NTH9_(__VA_ARGS__, ~, ~, ~, SHMEM_G_ctx_put_, SHMEM_G_put_, ~)(__VA_ARGS__)
#define shmem_get(...) \
    SHMEM_G_NTH9_(__VA_ARGS__, ~, ~, ~, SHMEM_G_ctx_get_, SHMEM_G_get_, ~)(__VA_ARGS__)
#define shmem_put_nbi(...) \
    SHMEM_G_NTH9_(__VA_ARGS__, ~, ~, ~, SHMEM_G_ctx_put_nbi_, SHMEM_G_put_nbi_, ~)(__VA_ARGS__)
#define shmem_get_nbi(...) \
    SHMEM_G_NTH9_(__VA_ARGS__, ~, ~, ~, SHMEM_G_ctx_get_nbi_, SHMEM_G_get_nbi_, ~)(__VA_ARGS__)
/* Arity 3 / 4. */
#define shmem_p(...) \
    SHMEM_G_NTH9_(__VA_ARGS__, ~, ~, ~, ~, SHMEM_G_ctx_p_, SHMEM_G_p_, ~)(__VA_ARGS__)
/* Arity 2 / 3. */
#define shmem_g(...) \
    SHMEM_G_NTH9_(__VA_ARGS__, ~, ~, ~, ~, ~, SHMEM_G_ctx_g_, SHMEM_G_g_, ~)(__VA_ARGS__)
/* Arity 6 / 7. */
#define shmem_iput(...) \
    SHMEM_G_NTH9_(__VA_ARGS__, ~, SHMEM_G_ctx_iput_, SHMEM_G_iput_, ~)(__VA_ARGS__)
#define shmem_iget(...) \
    SHMEM_G_NTH9_(__VA_ARGS__, ~, SHMEM_G_ctx_iget_, SHMEM_G_iget_, ~)(__VA_ARGS__)

/* Dispatch by arity: plain form of arity K, context form of arity K+1. */
#define SHMEM_G_BY_ARITY2_(C, P, ...) SHMEM_G_NTH9_(__VA_ARGS__, ~, ~, ~, ~, ~, C, P, ~)(__VA_ARGS__)
#define SHMEM_G_BY_ARITY3_(C, P, ...) SHMEM_G_NTH9_(__VA_ARGS__, ~, ~, ~, ~, C, P, ~)(__VA_ARGS__)
#define SHMEM_G_BY_ARITY4_(C, P, ...) SHMEM_G_NTH9_(__VA_ARGS__, ~, ~, ~, C, P, ~)(__VA_ARGS__)
#define SHMEM_G_BY_ARITY5_(C, P, ...) SHMEM_G_NTH9_(__VA_ARGS__, ~, ~, C, P, ~)(__VA_ARGS__)
#define SHMEM_G_BY_ARITY7_(C, P, ...) SHMEM_G_NTH9_(__VA_ARGS__, C, P, ~)(__VA_ARGS__)

/* A routine family over TABLE: plain and context forms. */
#define SHMEM_G_PLAIN_T_(TABLE, OP, first, ...) SHMEM_G_SELECT_T_(TABLE, OP, first)(first, __VA_ARGS__)
#define SHMEM_G_CTX_T_(TABLE, OP, ctx, first, ...) \
    SHMEM_G_SELECT_T_(TABLE, ctx_##OP, first)(ctx, first, __VA_ARGS__)
/* Team collectives select on argument 2 (argument 1 is the team). */
#define SHMEM_G_TEAM_T_(TABLE, OP, team, first, ...) \
    SHMEM_G_SELECT_T_(TABLE, OP, first)(team, first, __VA_ARGS__)

/* ---- AMOs ---- */
#define SHMEM_GA_atomic_fetch_inc(T, N, ...) , T: shmem_##N##_atomic_fetch_inc
#define SHMEM_GA_ctx_atomic_fetch_inc(T, N, ...) , T: shmem_ctx_##N##_atomic_fetch_inc
#define SHMEM_GA_atomic_fetch_inc_nbi(T, N, ...) , T: shmem_##N##_atomic_fetch_inc_nbi
#define SHMEM_GA_ctx_atomic_fetch_inc_nbi(T, N, ...) , T: shmem_ctx_##N##_atomic_fetch_inc_nbi
#define SHMEM_GA_atomic_inc(T, N, ...) , T: shmem_##N##_atomic_inc
#define SHMEM_GA_ctx_atomic_inc(T, N, ...) , T: shmem_ctx_##N##_atomic_inc
#define SHMEM_GA_atomic_fetch_add(T, N, ...) , T: shmem_##N##_atomic_fetch_add
#define SHMEM_GA_ctx_atomic_fetch_add(T, N, ...) , T: shmem_ctx_##N##_atomic_fetch_add
#define SHMEM_GA_atomic_fetch_add_nbi(T, N, ...) , T: shmem_##N##_atomic_fetch_add_nbi
#define SHMEM_GA_ctx_atomic_fetch_add_nbi(T, N, ...) , T: shmem_ctx_##N##_atomic_fetch_add_nbi
#define SHMEM_GA_atomic_add(T, N, ...) , T: shmem_##N##_atomic_add
#define SHMEM_GA_ctx_atomic_add(T, N, ...) , T: shmem_ctx_##N##_atomic_add
#define SHMEM_GA_atomic_compare_swap(T, N, ...) , T: shmem_##N##_atomic_compare_swap
#define SHMEM_GA_ctx_atomic_compare_swap(T, N, ...) , T: shmem_ctx_##N##_atomic_compare_swap
#define SHMEM_GA_atomic_compare_swap_nbi(T, N, ...) , T: shmem_##N##_atomic_compare_swap_nbi
#define SHMEM_GA_ctx_atomic_compare_swap_nbi(T, N, ...) , T: shmem_ctx_##N##_atomic_compare_swap_nbi
#define SHMEM_GA_atomic_fetch(T, N, ...) , T: shmem_##N##_atomic_fetch
#define SHMEM_GA_ctx_atomic_fetch(T, N, ...) , T: shmem_ctx_##N##_atomic_fetch
#define SHMEM_GA_atomic_fetch_nbi(T, N, ...) , T: shmem_##N##_atomic_fetch_nbi
#define SHMEM_GA_ctx_atomic_fetch_nbi(T, N, ...) , T: shmem_ctx_##N##_atomic_fetch_nbi
#define SHMEM_GA_atomic_set(T, N, ...) , T: shmem_##N##_atomic_set
#define SHMEM_GA_ctx_atomic_set(T, N, ...) , T: shmem_ctx_##N##_atomic_set
#define SHMEM_GA_atomic_swap(T, N, ...) , T: shmem_##N##_atomic_swap
#define SHMEM_GA_ctx_atomic_swap(T, N, ...) , T: shmem_ctx_##N##_atomic_swap
#define SHMEM_GA_atomic_swap_nbi(T, N, ...) , T: shmem_##N##_atomic_swap_nbi
#define SHMEM_GA_ctx_atomic_swap_nbi(T, N, ...) , T: shmem_ctx_##N##_atomic_swap_nbi
#define SHMEM_GA_atomic_fetch_and(T, N, ...) , T: shmem_##N##_atomic_fetch_and
#define SHMEM_GA_ctx_atomic_fetch_and(T, N, ...) , T: shmem_ctx_##N##_atomic_fetch_and
#define SHMEM_GA_atomic_fetch_and_nbi(T, N, ...) , T: shmem_##N##_atomic_fetch_and_nbi
#define SHMEM_GA_ctx_atomic_fetch_and_nbi(T, N, ...) , T: shmem_ctx_##N##_atomic_fetch_and_nbi
#define SHMEM_GA_atomic_and(T, N, ...) , T: shmem_##N##_atomic_and
#define SHMEM_GA_ctx_atomic_and(T, N, ...) , T: shmem_ctx_##N##_atomic_and
#define SHMEM_GA_atomic_fetch_or(T, N, ...) , T: shmem_##N##_atomic_fetch_or
#define SHMEM_GA_ctx_atomic_fetch_or(T, N, ...) , T: shmem_ctx_##N##_atomic_fetch_or
#define SHMEM_GA_atomic_fetch_or_nbi(T, N, ...) , T: shmem_##N##_atomic_fetch_or_nbi
#define SHMEM_GA_ctx_atomic_fetch_or_nbi(T, N, ...) , T: shmem_ctx_##N##_atomic_fetch_or_nbi
#define SHMEM_GA_atomic_or(T, N, ...) , T: shmem_##N##_atomic_or
#define SHMEM_GA_ctx_atomic_or(T, N, ...) , T: shmem_ctx_##N##_atomic_or
#define SHMEM_GA_atomic_fetch_xor(T, N, ...) , T: shmem_##N##_atomic_fetch_xor
#define SHMEM_GA_ctx_atomic_fetch_xor(T, N, ...) , T: shmem_ctx_##N##_atomic_fetch_xor
#define SHMEM_GA_atomic_fetch_xor_nbi(T, N, ...) , T: shmem_##N##_atomic_fetch_xor_nbi
#define SHMEM_GA_ctx_atomic_fetch_xor_nbi(T, N, ...) , T: shmem_ctx_##N##_atomic_fetch_xor_nbi
#define SHMEM_GA_atomic_xor(T, N, ...) , T: shmem_##N##_atomic_xor
#define SHMEM_GA_ctx_atomic_xor(T, N, ...) , T: shmem_ctx_##N##_atomic_xor

/* Plain and ctx forms per AMO; TABLE is fixed per operation. */
#define SHMEM_G_AMO_PLAIN_atomic_fetch_inc_(...) SHMEM_G_PLAIN_T_(SHMEM_AMO_STANDARD_GENERIC_TABLE, atomic_fetch_inc, __VA_ARGS__)
#define SHMEM_G_AMO_CTX_atomic_fetch_inc_(...) SHMEM_G_CTX_T_(SHMEM_AMO_STANDARD_GENERIC_TABLE, atomic_fetch_inc, __VA_ARGS__)
#define SHMEM_G_AMO_PLAIN_atomic_fetch_inc_nbi_(...) SHMEM_G_PLAIN_T_(SHMEM_AMO_STANDARD_GENERIC_TABLE, atomic_fetch_inc_nbi, __VA_ARGS__)
#define SHMEM_G_AMO_CTX_atomic_fetch_inc_nbi_(...) SHMEM_G_CTX_T_(SHMEM_AMO_STANDARD_GENERIC_TABLE, atomic_fetch_inc_nbi, __VA_ARGS__)
#define SHMEM_G_AMO_PLAIN_atomic_inc_(...) SHMEM_G_PLAIN_T_(SHMEM_AMO_STANDARD_GENERIC_TABLE, atomic_inc, __VA_ARGS__)
#define SHMEM_G_AMO_CTX_atomic_inc_(...) SHMEM_G_CTX_T_(SHMEM_AMO_STANDARD_GENERIC_TABLE, atomic_inc, __VA_ARGS__)
#define SHMEM_G_AMO_PLAIN_atomic_fetch_add_(...) SHMEM_G_PLAIN_T_(SHMEM_AMO_STANDARD_GENERIC_TABLE, atomic_fetch_add, __VA_ARGS__)
#define SHMEM_G_AMO_CTX_atomic_fetch_add_(...) SHMEM_G_CTX_T_(SHMEM_AMO_STANDARD_GENERIC_TABLE, atomic_fetch_add, __VA_ARGS__)
#define SHMEM_G_AMO_PLAIN_atomic_fetch_add_nbi_(...) SHMEM_G_PLAIN_T_(SHMEM_AMO_STANDARD_GENERIC_TABLE, atomic_fetch_add_nbi, __VA_ARGS__)
#define SHMEM_G_AMO_CTX_atomic_fetch_add_nbi_(...) SHMEM_G_CTX_T_(SHMEM_AMO_STANDARD_GENERIC_TABLE, atomic_fetch_add_nbi, __VA_ARGS__)
#define SHMEM_G_AMO_PLAIN_atomic_add_(...) SHMEM_G_PLAIN_T_(SHMEM_AMO_STANDARD_GENERIC_TABLE, atomic_add, __VA_ARGS__)
#define SHMEM_G_AMO_CTX_atomic_add_(...) SHMEM_G_CTX_T_(SHMEM_AMO_STANDARD_GENERIC_TABLE, atomic_add, __VA_ARGS__)
#define SHMEM_G_AMO_PLAIN_atomic_compare_swap_(...) SHMEM_G_PLAIN_T_(SHMEM_AMO_STANDARD_GENERIC_TABLE, atomic_compare_swap, __VA_ARGS__)
#define SHMEM_G_AMO_CTX_atomic_compare_swap_(...) SHMEM_G_CTX_T_(SHMEM_AMO_STANDARD_GENERIC_TABLE, atomic_compare_swap, __VA_ARGS__)
#define SHMEM_G_AMO_PLAIN_atomic_compare_swap_nbi_(...) SHMEM_G_PLAIN_T_(SHMEM_AMO_STANDARD_GENERIC_TABLE, atomic_compare_swap_nbi, __VA_ARGS__)
#define SHMEM_G_AMO_CTX_atomic_compare_swap_nbi_(...) SHMEM_G_CTX_T_(SHMEM_AMO_STANDARD_GENERIC_TABLE, atomic_compare_swap_nbi, __VA_ARGS__)
#define SHMEM_G_AMO_PLAIN_atomic_fetch_(...) SHMEM_G_PLAIN_T_(SHMEM_AMO_EXTENDED_GENERIC_TABLE, atomic_fetch, __VA_ARGS__)
#define SHMEM_G_AMO_CTX_atomic_fetch_(...) SHMEM_G_CTX_T_(SHMEM_AMO_EXTENDED_GENERIC_TABLE, atomic_fetch, __VA_ARGS__)
#define SHMEM_G_AMO_PLAIN_atomic_fetch_nbi_(...) SHMEM_G_PLAIN_T_(SHMEM_AMO_EXTENDED_GENERIC_TABLE, atomic_fetch_nbi, __VA_ARGS__)
#define SHMEM_G_AMO_CTX_atomic_fetch_nbi_(...) SHMEM_G_CTX_T_(SHMEM_AMO_EXTENDED_GENERIC_TABLE, atomic_fetch_nbi, __VA_ARGS__)
#define SHMEM_G_AMO_PLAIN_atomic_set_(...) SHMEM_G_PLAIN_T_(SHMEM_AMO_EXTENDED_GENERIC_TABLE, atomic_set, __VA_ARGS__)
#define SHMEM_G_AMO_CTX_atomic_set_(...) SHMEM_G_CTX_T_(SHMEM_AMO_EXTENDED_GENERIC_TABLE, atomic_set, __VA_ARGS__)
#define SHMEM_G_AMO_PLAIN_atomic_swap_(...) SHMEM_G_PLAIN_T_(SHMEM_AMO_EXTENDED_GENERIC_TABLE, atomic_swap, __VA_ARGS__)
#define SHMEM_G_AMO_CTX_atomic_swap_(...) SHMEM_G_CTX_T_(SHMEM_AMO_EXTENDED_GENERIC_TABLE, atomic_swap, __VA_ARGS__)
#define SHMEM_G_AMO_PLAIN_atomic_swap_nbi_(...) SHMEM_G_PLAIN_T_(SHMEM_AMO_EXTENDED_GENERIC_TABLE, atomic_swap_nbi, __VA_ARGS__)
#define SHMEM_G_AMO_CTX_atomic_swap_nbi_(...) SHMEM_G_CTX_T_(SHMEM_AMO_EXTENDED_GENERIC_TABLE, atomic_swap_nbi, __VA_ARGS__)
#define SHMEM_G_AMO_PLAIN_atomic_fetch_and_(...) SHMEM_G_PLAIN_T_(SHMEM_AMO_BITWISE_GENERIC_TABLE, atomic_fetch_and, __VA_ARGS__)
#define SHMEM_G_AMO_CTX_atomic_fetch_and_(...) SHMEM_G_CTX_T_(SHMEM_AMO_BITWISE_GENERIC_TABLE, atomic_fetch_and, __VA_ARGS__)
#define SHMEM_G_AMO_PLAIN_atomic_fetch_and_nbi_(...) SHMEM_G_PLAIN_T_(SHMEM_AMO_BITWISE_GENERIC_TABLE, atomic_fetch_and_nbi, __VA_ARGS__)
#define SHMEM_G_AMO_CTX_atomic_fetch_and_nbi_(...) SHMEM_G_CTX_T_(SHMEM_AMO_BITWISE_GENERIC_TABLE, atomic_fetch_and_nbi, __VA_ARGS__)
#define SHMEM_G_AMO_PLAIN_atomic_and_(...) SHMEM_G_PLAIN_T_(SHMEM_AMO_BITWISE_GENERIC_TABLE, atomic_and, __VA_ARGS__)
#define SHMEM_G_AMO_CTX_atomic_and_(...) SHMEM_G_CTX_T_(SHMEM_AMO_BITWISE_GENERIC_TABLE, atomic_and, __VA_ARGS__)
#define SHMEM_G_AMO_PLAIN_atomic_fetch_or_(...) SHMEM_G_PLAIN_T_(SHMEM_AMO_BITWISE_GENERIC_TABLE, atomic_fetch_or, __VA_ARGS__)
#define SHMEM_G_AMO_CTX_atomic_fetch_or_(...) SHMEM_G_CTX_T_(SHMEM_AMO_BITWISE_GENERIC_TABLE, atomic_fetch_or, __VA_ARGS__)
#define SHMEM_G_AMO_PLAIN_atomic_fetch_or_nbi_(...) SHMEM_G_PLAIN_T_(SHMEM_AMO_BITWISE_GENERIC_TABLE, atomic_fetch_or_nbi, __VA_ARGS__)
#define SHMEM_G_AMO_CTX_atomic_fetch_or_nbi_(...) SHMEM_G_CTX_T_(SHMEM_AMO_BITWISE_GENERIC_TABLE, atomic_fetch_or_nbi, __VA_ARGS__)
#define SHMEM_G_AMO_PLAIN_atomic_or_(...) SHMEM_G_PLAIN_T_(SHMEM_AMO_BITWISE_GENERIC_TABLE, atomic_or, __VA_ARGS__)
#define SHMEM_G_AMO_CTX_atomic_or_(...) SHMEM_G_CTX_T_(SHMEM_AMO_BITWISE_GENERIC_TABLE, atomic_or, __VA_ARGS__)
#define SHMEM_G_AMO_PLAIN_atomic_fetch_xor_(...) SHMEM_G_PLAIN_T_(SHMEM_AMO_BITWISE_GENERIC_TABLE, atomic_fetch_xor, __VA_ARGS__)
#define SHMEM_G_AMO_CTX_atomic_fetch_xor_(...) SHMEM_G_CTX_T_(SHMEM_AMO_BITWISE_GENERIC_TABLE, atomic_fetch_xor, __VA_ARGS__)
#define SHMEM_G_AMO_PLAIN_atomic_fetch_xor_nbi_(...) SHMEM_G_PLAIN_T_(SHMEM_AMO_BITWISE_GENERIC_TABLE, atomic_fetch_xor_nbi, __VA_ARGS__)
#define SHMEM_G_AMO_CTX_atomic_fetch_xor_nbi_(...) SHMEM_G_CTX_T_(SHMEM_AMO_BITWISE_GENERIC_TABLE, atomic_fetch_xor_nbi, __VA_ARGS__)
#define SHMEM_G_AMO_PLAIN_atomic_xor_(...) SHMEM_G_PLAIN_T_(SHMEM_AMO_BITWISE_GENERIC_TABLE, atomic_xor, __VA_ARGS__)
#define SHMEM_G_AMO_CTX_atomic_xor_(...) SHMEM_G_CTX_T_(SHMEM_AMO_BITWISE_GENERIC_TABLE, atomic_xor, __VA_ARGS__)

#define shmem_atomic_fetch_inc(...) SHMEM_G_BY_ARITY2_(SHMEM_G_AMO_CTX_atomic_fetch_inc_, SHMEM_G_AMO_PLAIN_atomic_fetch_inc_, __VA_ARGS__)
#define shmem_atomic_fetch_inc_nbi(...) SHMEM_G_BY_ARITY3_(SHMEM_G_AMO_CTX_atomic_fetch_inc_nbi_, SHMEM_G_AMO_PLAIN_atomic_fetch_inc_nbi_, __VA_ARGS__)
#define shmem_atomic_inc(...) SHMEM_G_BY_ARITY2_(SHMEM_G_AMO_CTX_atomic_inc_, SHMEM_G_AMO_PLAIN_atomic_inc_, __VA_ARGS__)
#define shmem_atomic_fetch_add(...) SHMEM_G_BY_ARITY3_(SHMEM_G_AMO_CTX_atomic_fetch_add_, SHMEM_G_AMO_PLAIN_atomic_fetch_add_, __VA_ARGS__)
#define shmem_atomic_fetch_add_nbi(...) SHMEM_G_BY_ARITY4_(SHMEM_G_AMO_CTX_atomic_fetch_add_nbi_, SHMEM_G_AMO_PLAIN_atomic_fetch_add_nbi_, __VA_ARGS__)
#define shmem_atomic_add(...) SHMEM_G_BY_ARITY3_(SHMEM_G_AMO_CTX_atomic_add_, SHMEM_G_AMO_PLAIN_atomic_add_, __VA_ARGS__)
#define shmem_atomic_compare_swap(...) SHMEM_G_BY_ARITY4_(SHMEM_G_AMO_CTX_atomic_compare_swap_, SHMEM_G_AMO_PLAIN_atomic_compare_swap_, __VA_ARGS__)
#define shmem_atomic_compare_swap_nbi(...) SHMEM_G_BY_ARITY5_(SHMEM_G_AMO_CTX_atomic_compare_swap_nbi_, SHMEM_G_AMO_PLAIN_atomic_compare_swap_nbi_, __VA_ARGS__)
#define shmem_atomic_fetch(...) SHMEM_G_BY_ARITY2_(SHMEM_G_AMO_CTX_atomic_fetch_, SHMEM_G_AMO_PLAIN_atomic_fetch_, __VA_ARGS__)
#define shmem_atomic_fetch_nbi(...) SHMEM_G_BY_ARITY3_(SHMEM_G_AMO_CTX_atomic_fetch_nbi_, SHMEM_G_AMO_PLAIN_atomic_fetch_nbi_, __VA_ARGS__)
#define shmem_atomic_set(...) SHMEM_G_BY_ARITY3_(SHMEM_G_AMO_CTX_atomic_set_, SHMEM_G_AMO_PLAIN_atomic_set_, __VA_ARGS__)
#define shmem_atomic_swap(...) SHMEM_G_BY_ARITY3_(SHMEM_G_AMO_CTX_atomic_swap_, SHMEM_G_AMO_PLAIN_atomic_swap_, __VA_ARGS__)
#define shmem_atomic_swap_nbi(...) SHMEM_G_BY_ARITY4_(SHMEM_G_AMO_CTX_atomic_swap_nbi_, SHMEM_G_AMO_PLAIN_atomic_swap_nbi_, __VA_ARGS__)
#define shmem_atomic_fetch_and(...) SHMEM_G_BY_ARITY3_(SHMEM_G_AMO_CTX_atomic_fetch_and_, SHMEM_G_AMO_PLAIN_atomic_fetch_and_, __VA_ARGS__)
#define shmem_atomic_fetch_and_nbi(...) SHMEM_G_BY_ARITY4_(SHMEM_G_AMO_CTX_atomic_fetch_and_nbi_, SHMEM_G_AMO_PLAIN_atomic_fetch_and_nbi_, __VA_ARGS__)
#define shmem_atomic_and(...) SHMEM_G_BY_ARITY3_(SHMEM_G_AMO_CTX_atomic_and_, SHMEM_G_AMO_PLAIN_atomic_and_, __VA_ARGS__)
#define shmem_atomic_fetch_or(...) SHMEM_G_BY_ARITY3_(SHMEM_G_AMO_CTX_atomic_fetch_or_, SHMEM_G_AMO_PLAIN_atomic_fetch_or_, __VA_ARGS__)
#define shmem_atomic_fetch_or_nbi(...) SHMEM_G_BY_ARITY4_(SHMEM_G_AMO_CTX_atomic_fetch_or_nbi_, SHMEM_G_AMO_PLAIN_atomic_fetch_or_nbi_, __VA_ARGS__)
#define shmem_atomic_or(...) SHMEM_G_BY_ARITY3_(SHMEM_G_AMO_CTX_atomic_or_, SHMEM_G_AMO_PLAIN_atomic_or_, __VA_ARGS__)
#define shmem_atomic_fetch_xor(...) SHMEM_G_BY_ARITY3_(SHMEM_G_AMO_CTX_atomic_fetch_xor_, SHMEM_G_AMO_PLAIN_atomic_fetch_xor_, __VA_ARGS__)
#define shmem_atomic_fetch_xor_nbi(...) SHMEM_G_BY_ARITY4_(SHMEM_G_AMO_CTX_atomic_fetch_xor_nbi_, SHMEM_G_AMO_PLAIN_atomic_fetch_xor_nbi_, __VA_ARGS__)
#define shmem_atomic_xor(...) SHMEM_G_BY_ARITY3_(SHMEM_G_AMO_CTX_atomic_xor_, SHMEM_G_AMO_PLAIN_atomic_xor_, __VA_ARGS__)

/* Deprecated generic AMO names (int, long, long long; float and double
 * where the operation allows). */
#define SHMEM_GA_finc(T, N) , T: shmem_##N##_finc
#define SHMEM_GA_inc(T, N) , T: shmem_##N##_inc
#define SHMEM_GA_fadd(T, N) , T: shmem_##N##_fadd
#define SHMEM_GA_add(T, N) , T: shmem_##N##_add
#define SHMEM_GA_cswap(T, N) , T: shmem_##N##_cswap
#define SHMEM_GA_swap(T, N) , T: shmem_##N##_swap
#define SHMEM_GA_fetch(T, N) , T: shmem_##N##_fetch
#define SHMEM_GA_set(T, N) , T: shmem_##N##_set
#define shmem_finc(dest, ...) SHMEM_G_SELECT_T_(SHMEM_AMO_DEPRECATED_TABLE, finc, dest)(dest, __VA_ARGS__)
#define shmem_inc(dest, ...) SHMEM_G_SELECT_T_(SHMEM_AMO_DEPRECATED_TABLE, inc, dest)(dest, __VA_ARGS__)
#define shmem_fadd(dest, ...) SHMEM_G_SELECT_T_(SHMEM_AMO_DEPRECATED_TABLE, fadd, dest)(dest, __VA_ARGS__)
#define shmem_add(dest, ...) SHMEM_G_SELECT_T_(SHMEM_AMO_DEPRECATED_TABLE, add, dest)(dest, __VA_ARGS__)
#define shmem_cswap(dest, ...) SHMEM_G_SELECT_T_(SHMEM_AMO_DEPRECATED_TABLE, cswap, dest)(dest, __VA_ARGS__)
#define shmem_swap(dest, ...) SHMEM_G_SELECT_T_(SHMEM_AMO_DEPRECATED_EXT_TABLE, swap, dest)(dest, __VA_ARGS__)
#define shmem_fetch(src, ...) SHMEM_G_SELECT_T_(SHMEM_AMO_DEPRECATED_EXT_TABLE, fetch, src)(src, __VA_ARGS__)
#define shmem_set(dest, ...) SHMEM_G_SELECT_T_(SHMEM_AMO_DEPRECATED_EXT_TABLE, set, dest)(dest, __VA_ARGS__)

/* ---- Signals ---- */
#define SHMEM_GA_put_signal(T, N) , T: shmem_##N##_put_signal
#define SHMEM_GA_ctx_put_signal(T, N) , T: shmem_ctx_##N##_put_signal
#define SHMEM_GA_put_signal_nbi(T, N) , T: shmem_##N##_put_signal_nbi
#define SHMEM_GA_ctx_put_signal_nbi(T, N) , T: shmem_ctx_##N##_put_signal_nbi
#define SHMEM_G_put_signal_(...) SHMEM_G_PLAIN_(put_signal, __VA_ARGS__)
#define SHMEM_G_ctx_put_signal_(...) SHMEM_G_CTX_(put_signal, __VA_ARGS__)
#define SHMEM_G_put_signal_nbi_(...) SHMEM_G_PLAIN_(put_signal_nbi, __VA_ARGS__)
#define SHMEM_G_ctx_put_signal_nbi_(...) SHMEM_G_CTX_(put_signal_nbi, __VA_ARGS__)
#define shmem_put_signal(...) SHMEM_G_BY_ARITY7_(SHMEM_G_ctx_put_signal_, SHMEM_G_put_signal_, __VA_ARGS__)
#define shmem_put_signal_nbi(...) SHMEM_G_BY_ARITY7_(SHMEM_G_ctx_put_signal_nbi_, SHMEM_G_put_signal_nbi_, __VA_ARGS__)

/* ---- Point-to-point synchronization ---- */
#define SHMEM_GA_wait_until(T, N) , T: shmem_##N##_wait_until
#define SHMEM_GA_wait_until_all(T, N) , T: shmem_##N##_wait_until_all
#define SHMEM_GA_wait_until_any(T, N) , T: shmem_##N##_wait_until_any
#define SHMEM_GA_wait_until_some(T, N) , T: shmem_##N##_wait_until_some
#define SHMEM_GA_wait_until_all_vector(T, N) , T: shmem_##N##_wait_until_all_vector
#define SHMEM_GA_wait_until_any_vector(T, N) , T: shmem_##N##_wait_until_any_vector
#define SHMEM_GA_wait_until_some_vector(T, N) , T: shmem_##N##_wait_until_some_vector
#define SHMEM_GA_test(T, N) , T: shmem_##N##_test
#define SHMEM_GA_test_all(T, N) , T: shmem_##N##_test_all
#define SHMEM_GA_test_any(T, N) , T: shmem_##N##_test_any
#define SHMEM_GA_test_some(T, N) , T: shmem_##N##_test_some
#define SHMEM_GA_test_all_vector(T, N) , T: shmem_##N##_test_all_vector
#define SHMEM_GA_test_any_vector(T, N) , T: shmem_##N##_test_any_vector
#define SHMEM_GA_test_some_vector(T, N) , T: shmem_##N##_test_some_vector
#define SHMEM_G_P2P_(OP, ...) SHMEM_G_PLAIN_T_(SHMEM_P2P_GENERIC_TABLE, OP, __VA_ARGS__)
#define shmem_wait_until(...) SHMEM_G_P2P_(wait_until, __VA_ARGS__)
#define shmem_wait_until_all(...) SHMEM_G_P2P_(wait_until_all, __VA_ARGS__)
#define shmem_wait_until_any(...) SHMEM_G_P2P_(wait_until_any, __VA_ARGS__)
#define shmem_wait_until_some(...) SHMEM_G_P2P_(wait_until_some, __VA_ARGS__)
#define shmem_wait_until_all_vector(...) SHMEM_G_P2P_(wait_until_all_vector, __VA_ARGS__)
#define shmem_wait_until_any_vector(...) SHMEM_G_P2P_(wait_until_any_vector, __VA_ARGS__)
#define shmem_wait_until_some_vector(...) SHMEM_G_P2P_(wait_until_some_vector, __VA_ARGS__)
#define shmem_test(...) SHMEM_G_P2P_(test, __VA_ARGS__)
#define shmem_test_all(...) SHMEM_G_P2P_(test_all, __VA_ARGS__)
#define shmem_test_any(...) SHMEM_G_P2P_(test_any, __VA_ARGS__)
#define shmem_test_some(...) SHMEM_G_P2P_(test_some, __VA_ARGS__)
#define shmem_test_all_vector(...) SHMEM_G_P2P_(test_all_vector, __VA_ARGS__)
#define shmem_test_any_vector(...) SHMEM_G_P2P_(test_any_vector, __VA_ARGS__)
#define shmem_test_some_vector(...) SHMEM_G_P2P_(test_some_vector, __VA_ARGS__)

/* shmem_sync(team) is the team form; shmem_sync(start, log, size, pSync)
 * the deprecated active-set routine. */
#define shmem_sync(...) \
    SHMEM_G_NTH9_(__VA_ARGS__, ~, ~, ~, ~, shmem_sync, ~, ~, shmem_team_sync, ~)(__VA_ARGS__)

/* ---- Collectives: the team is argument 1, the type comes from argument 2 ---- */
#define SHMEM_GA_broadcast(T, N) , T: shmem_##N##_broadcast
#define SHMEM_GA_collect(T, N) , T: shmem_##N##_collect
#define SHMEM_GA_fcollect(T, N) , T: shmem_##N##_fcollect
#define SHMEM_GA_alltoall(T, N) , T: shmem_##N##_alltoall
#define SHMEM_GA_alltoalls(T, N) , T: shmem_##N##_alltoalls
#define shmem_broadcast(...) SHMEM_G_TEAM_T_(SHMEM_RMA_GENERIC_TYPE_TABLE, broadcast, __VA_ARGS__)
#define shmem_collect(...) SHMEM_G_TEAM_T_(SHMEM_RMA_GENERIC_TYPE_TABLE, collect, __VA_ARGS__)
#define shmem_fcollect(...) SHMEM_G_TEAM_T_(SHMEM_RMA_GENERIC_TYPE_TABLE, fcollect, __VA_ARGS__)
#define shmem_alltoall(...) SHMEM_G_TEAM_T_(SHMEM_RMA_GENERIC_TYPE_TABLE, alltoall, __VA_ARGS__)
#define shmem_alltoalls(...) SHMEM_G_TEAM_T_(SHMEM_RMA_GENERIC_TYPE_TABLE, alltoalls, __VA_ARGS__)

#define SHMEM_GA_and_reduce(T, N) , T: shmem_##N##_and_reduce
#define SHMEM_GA_or_reduce(T, N) , T: shmem_##N##_or_reduce
#define SHMEM_GA_xor_reduce(T, N) , T: shmem_##N##_xor_reduce
#define SHMEM_GA_min_reduce(T, N) , T: shmem_##N##_min_reduce
#define SHMEM_GA_max_reduce(T, N) , T: shmem_##N##_max_reduce
#define SHMEM_GA_sum_reduce(T, N) , T: shmem_##N##_sum_reduce
#define SHMEM_GA_prod_reduce(T, N) , T: shmem_##N##_prod_reduce
#define shmem_and_reduce(...) SHMEM_G_TEAM_T_(SHMEM_REDUCE_BITWISE_GENERIC_TABLE, and_reduce, __VA_ARGS__)
#define shmem_or_reduce(...) SHMEM_G_TEAM_T_(SHMEM_REDUCE_BITWISE_GENERIC_TABLE, or_reduce, __VA_ARGS__)
#define shmem_xor_reduce(...) SHMEM_G_TEAM_T_(SHMEM_REDUCE_BITWISE_GENERIC_TABLE, xor_reduce, __VA_ARGS__)
#define shmem_min_reduce(...) SHMEM_G_TEAM_T_(SHMEM_REDUCE_MINMAX_GENERIC_TABLE, min_reduce, __VA_ARGS__)
#define shmem_max_reduce(...) SHMEM_G_TEAM_T_(SHMEM_REDUCE_MINMAX_GENERIC_TABLE, max_reduce, __VA_ARGS__)
#define shmem_sum_reduce(...) SHMEM_G_TEAM_T_(SHMEM_REDUCE_ARITH_GENERIC_TABLE, sum_reduce, __VA_ARGS__)
#define shmem_prod_reduce(...) SHMEM_G_TEAM_T_(SHMEM_REDUCE_ARITH_GENERIC_TABLE, prod_reduce, __VA_ARGS__)

/* ---- OpenSHMEM 1.6 ---- */
/* Blocked strided RMA: arity 7 (plain) / 8 (context). */
#define SHMEM_GA_ibput(T, N) , T: shmem_##N##_ibput
#define SHMEM_GA_ctx_ibput(T, N) , T: shmem_ctx_##N##_ibput
#define SHMEM_GA_ibget(T, N) , T: shmem_##N##_ibget
#define SHMEM_GA_ctx_ibget(T, N) , T: shmem_ctx_##N##_ibget
#define SHMEM_G_ibput_(...) SHMEM_G_PLAIN_(ibput, __VA_ARGS__)
#define SHMEM_G_ctx_ibput_(...) SHMEM_G_CTX_(ibput, __VA_ARGS__)
#define SHMEM_G_ibget_(...) SHMEM_G_PLAIN_(ibget, __VA_ARGS__)
#define SHMEM_G_ctx_ibget_(...) SHMEM_G_CTX_(ibget, __VA_ARGS__)
#define shmem_ibput(...) \
    SHMEM_G_NTH9_(__VA_ARGS__, SHMEM_G_ctx_ibput_, SHMEM_G_ibput_, ~)(__VA_ARGS__)
#define shmem_ibget(...) \
    SHMEM_G_NTH9_(__VA_ARGS__, SHMEM_G_ctx_ibget_, SHMEM_G_ibget_, ~)(__VA_ARGS__)

/* Scans over the SUM types (the team is argument 1). */
#define SHMEM_GA_sum_inscan(T, N) , T: shmem_##N##_sum_inscan
#define SHMEM_GA_sum_exscan(T, N) , T: shmem_##N##_sum_exscan
#define shmem_sum_inscan(...) SHMEM_G_TEAM_T_(SHMEM_REDUCE_ARITH_GENERIC_TABLE, sum_inscan, __VA_ARGS__)
#define shmem_sum_exscan(...) SHMEM_G_TEAM_T_(SHMEM_REDUCE_ARITH_GENERIC_TABLE, sum_exscan, __VA_ARGS__)

/* shmem_signal_add/set(ctx, sig_addr, signal, pe): the C11 context form
 * under the plain name (arity 3 / 4). */
#define shmem_signal_add(...) \
    SHMEM_G_BY_ARITY3_(shmem_ctx_signal_add, (shmem_signal_add), __VA_ARGS__)
#define shmem_signal_set(...) \
    SHMEM_G_BY_ARITY3_(shmem_ctx_signal_set, (shmem_signal_set), __VA_ARGS__)

#endif /* SHMEM_SHMEM_GENERIC_H */
