/*
 * Device reductions: one combining function per type and operation, from
 * the reduction tables; the tree is in coll.c. half and bfloat16 combine
 * in float and round back once per step, as accelerator kernels do.
 */
#include "device/coll.h"
#include "util/reduce_ops.h"


#define DEFINE_REDUCE_ENTRIES(T, N, OP)                                                        \
    int shmemd_##N##_##OP##_reduce(shmemd_team_t team, T *dest, const T *source,               \
                                   size_t nreduce)                                             \
    {                                                                                          \
        return dcoll_reduce(team, dest, source, nreduce, sizeof(T), combine_##N##_##OP, false, \
                            "shmemd_" #N "_" #OP "_reduce");                                   \
    }                                                                                          \
    int shmemd_##N##_##OP##_reduce_block(shmemd_team_t team, T *dest, const T *source,         \
                                         size_t nreduce)                                       \
    {                                                                                          \
        return dcoll_reduce(team, dest, source, nreduce, sizeof(T), combine_##N##_##OP, true,  \
                            "shmemd_" #N "_" #OP "_reduce_block");                             \
    }

#define DEFINE_REDUCE(T, N, OP)                                                                \
    static void combine_##N##_##OP(void *dst, const void *src, size_t n)                       \
    {                                                                                          \
        T *d = dst;                                                                            \
        const T *s = src;                                                                      \
        for (size_t i = 0; i < n; i++)                                                         \
            d[i] = OP_##OP(d[i], s[i]);                                                        \
    }                                                                                          \
    DEFINE_REDUCE_ENTRIES(T, N, OP)

/* The 16-bit floats: through float. */
#define DEFINE_REDUCE_F16(T, N, OP)                                                            \
    static void combine_##N##_##OP(void *dst, const void *src, size_t n)                       \
    {                                                                                          \
        T *d = dst;                                                                            \
        const T *s = src;                                                                      \
        for (size_t i = 0; i < n; i++)                                                         \
            d[i] = shmemd_float_to_##N(                                                        \
                OP_##OP(shmemd_##N##_to_float(d[i]), shmemd_##N##_to_float(s[i])));            \
    }                                                                                          \
    DEFINE_REDUCE_ENTRIES(T, N, OP)

#define BITWISE(T, N) DEFINE_REDUCE(T, N, and) DEFINE_REDUCE(T, N, or) DEFINE_REDUCE(T, N, xor)
#define MINMAX(T, N) DEFINE_REDUCE(T, N, min) DEFINE_REDUCE(T, N, max)
#define ARITH(T, N) DEFINE_REDUCE(T, N, sum) DEFINE_REDUCE(T, N, prod)
#define MINMAX_F16(T, N) DEFINE_REDUCE_F16(T, N, min) DEFINE_REDUCE_F16(T, N, max)
#define ARITH_F16(T, N) DEFINE_REDUCE_F16(T, N, sum) DEFINE_REDUCE_F16(T, N, prod)

/* SHMEMD_REDUCE_*_TABLE are the host's tables plus SHMEMD_FLOAT16_TABLE;
 * the two parts are expanded apart, the 16-bit floats combining in float. */
SHMEM_REDUCE_BITWISE_TABLE(BITWISE)
SHMEM_REDUCE_MINMAX_TABLE(MINMAX)
SHMEM_REDUCE_ARITH_TABLE(ARITH)
SHMEMD_FLOAT16_TABLE(MINMAX_F16)
SHMEMD_FLOAT16_TABLE(ARITH_F16)
