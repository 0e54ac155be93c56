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

/* Selects the routine for OP from the type of *PTR. */
#define SHMEM_G_SELECT_(OP, PTR) _Generic(*(PTR) SHMEM_RMA_GENERIC_TYPE_TABLE(SHMEM_GA_##OP))

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

#endif /* SHMEM_SHMEM_GENERIC_H */
