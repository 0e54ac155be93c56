/*
 * Atomic memory operations, generated from the AMO type tables. Values
 * travel as the bit pattern of an unsigned integer of the same width, so
 * one backend operation per width serves every type.
 */
#include <string.h>

#include "api/api.h"
#include "api/ctx.h"

#define DEFINE_BITS(T, N, U)                                                                  \
    static inline uint64_t bits_##N(T v)                                                      \
    {                                                                                         \
        U u;                                                                                  \
        memcpy(&u, &v, sizeof u);                                                             \
        return (uint64_t)u;                                                                   \
    }                                                                                         \
    static inline T value_##N(uint64_t b)                                                     \
    {                                                                                         \
        U u = (U)b;                                                                           \
        T v;                                                                                  \
        memcpy(&v, &u, sizeof v);                                                             \
        return v;                                                                             \
    }
SHMEM_AMO_EXTENDED_TABLE(DEFINE_BITS)

/* The fast path's work, the counted path's (PROF, api/ctx.h) and the slow
 * path's (util/prof.h). */
OSHM_ALWAYS_INLINE uint64_t amo_body(struct oshm_prof_thread *prof, shmem_ctx_t ctx, void *dest,
                                     size_t size, enum hcomm_amo_op op, uint64_t value,
                                     uint64_t cond, int pe, const char *routine)
{
    struct hcomm_channel *ch = oshm_enter_fast(ctx, routine);
    int world = oshm_ctx_pe(ctx, pe, routine);
    oshm_prof_body(prof, OSHM_PROF_ROUTE_AMO, size, world);
    uint64_t old = hcomm_amo(ch, dest, size, op, value, cond, world, routine);
    oshm_leave();
    return old;
}

/* The profile's rows of the AMOs follow enum hcomm_amo_op. */
_Static_assert(OSHM_PROF_amo_fetch + HCOMM_AMO_FETCH == OSHM_PROF_amo_fetch &&
                   OSHM_PROF_amo_fetch + HCOMM_AMO_CSWAP == OSHM_PROF_amo_compare_swap &&
                   OSHM_PROF_amo_fetch + HCOMM_AMO_XOR == OSHM_PROF_amo_xor,
               "util/prof_table.h's amo_ rows are in the order of enum hcomm_amo_op");

static __attribute__((noinline, flatten)) uint64_t amo_slow(shmem_ctx_t ctx, void *dest,
                                                         size_t size, enum hcomm_amo_op op,
                                                         uint64_t value, uint64_t cond, int pe,
                                                         const char *routine)
{
    /* Counted here, not inline in each AMO routine as the RMA routines do:
     * there it cost their fast path 20 instructions (callgrind). Not cold,
     * and with hcomm's path inlined (flatten): under a summary profiler it
     * is the path every AMO takes (215 instructions a fetch-add, against
     * 250 cold; off, 136 against 142). */
    struct oshm_prof_thread *prof =
        oshm_prof_leaf((enum oshm_prof_family)(OSHM_PROF_amo_fetch + op), size);
    if (prof)
        return amo_body(prof, ctx, dest, size, op, value, cond, pe, routine);
    uint64_t old;
    OSHM_SLOW_PATH((enum oshm_prof_family)(OSHM_PROF_amo_fetch + op), routine, size,
                   oshm_ctx_world(ctx, pe, routine),
                   old = amo_body(NULL, ctx, dest, size, op, value, cond, pe, routine));
    return old;
}

/* What every AMO routine calls: its one test, oshm_fast, is the running
 * check it always made, and covers the profiler too. */
static inline uint64_t amo(shmem_ctx_t ctx, void *dest, size_t size, enum hcomm_amo_op op,
                           uint64_t value, uint64_t cond, int pe, const char *routine)
{
    if (!oshm_fast())
        return amo_slow(ctx, dest, size, op, value, cond, pe, routine);
    return amo_body(NULL, ctx, dest, size, op, value, cond, pe, routine);
}
#define AMO(ctx, N, dest, op, value, cond, pe, routine)                                       \
    amo(ctx, (void *)(dest), sizeof *(dest), op, value, cond, pe, routine)

/* A fetching AMO in its blocking and non-blocking, ctx and plain forms.
 * PARAMS/ARGS are the operands between dest and pe. */
#define DEFINE_FETCHING(T, N, NAME, OP, PARAMS, ARGS, VALUE, COND)                            \
    OSHM_FN(T, shmem_ctx_##N##_atomic_##NAME, (shmem_ctx_t ctx, T *dest PARAMS, int pe))      \
    {                                                                                         \
        return value_##N(AMO(ctx, N, dest, OP, VALUE, COND, pe, "shmem_" #N "_atomic_" #NAME)); \
    }                                                                                         \
    OSHM_FN(void, shmem_ctx_##N##_atomic_##NAME##_nbi,                                        \
            (shmem_ctx_t ctx, T *fetch, T *dest PARAMS, int pe))                              \
    {                                                                                         \
        *fetch = value_##N(                                                                   \
            AMO(ctx, N, dest, OP, VALUE, COND, pe, "shmem_" #N "_atomic_" #NAME "_nbi"));     \
    }                                                                                         \
    OSHM_PLAIN_RET(T, N##_atomic_##NAME, (T * dest PARAMS, int pe),                           \
                   (SHMEM_CTX_DEFAULT, dest ARGS, pe))                                        \
    OSHM_PLAIN_VOID(N##_atomic_##NAME##_nbi, (T * fetch, T * dest PARAMS, int pe),            \
                    (SHMEM_CTX_DEFAULT, fetch, dest ARGS, pe))

#define DEFINE_NONFETCHING(T, N, NAME, OP, PARAMS, ARGS, VALUE)                               \
    OSHM_FN(void, shmem_ctx_##N##_atomic_##NAME, (shmem_ctx_t ctx, T *dest PARAMS, int pe))   \
    {                                                                                         \
        AMO(ctx, N, dest, OP, VALUE, 0, pe, "shmem_" #N "_atomic_" #NAME);                    \
    }                                                                                         \
    OSHM_PLAIN_VOID(N##_atomic_##NAME, (T * dest PARAMS, int pe),                             \
                    (SHMEM_CTX_DEFAULT, dest ARGS, pe))

#define COMMA ,
#define DEFINE_STANDARD_AMO(T, N, U)                                                          \
    DEFINE_FETCHING(T, N, fetch_inc, HCOMM_AMO_FETCH_ADD, , , 1, 0)                           \
    DEFINE_NONFETCHING(T, N, inc, HCOMM_AMO_ADD, , , 1)                                       \
    DEFINE_FETCHING(T, N, fetch_add, HCOMM_AMO_FETCH_ADD, COMMA T value, COMMA value,         \
                    bits_##N(value), 0)                                                       \
    DEFINE_NONFETCHING(T, N, add, HCOMM_AMO_ADD, COMMA T value, COMMA value, bits_##N(value)) \
    DEFINE_FETCHING(T, N, compare_swap, HCOMM_AMO_CSWAP, COMMA T cond COMMA T value,          \
                    COMMA cond COMMA value, bits_##N(value), bits_##N(cond))
SHMEM_AMO_STANDARD_TABLE(DEFINE_STANDARD_AMO)

/* fetch takes a const source, so it is written out. */
#define DEFINE_EXTENDED_AMO(T, N, U)                                                          \
    OSHM_FN(T, shmem_ctx_##N##_atomic_fetch, (shmem_ctx_t ctx, const T *source, int pe))      \
    {                                                                                         \
        return value_##N(                                                                     \
            AMO(ctx, N, source, HCOMM_AMO_FETCH, 0, 0, pe, "shmem_" #N "_atomic_fetch"));     \
    }                                                                                         \
    OSHM_FN(void, shmem_ctx_##N##_atomic_fetch_nbi,                                           \
            (shmem_ctx_t ctx, T *fetch, const T *source, int pe))                             \
    {                                                                                         \
        *fetch = value_##N(                                                                   \
            AMO(ctx, N, source, HCOMM_AMO_FETCH, 0, 0, pe, "shmem_" #N "_atomic_fetch_nbi")); \
    }                                                                                         \
    OSHM_PLAIN_RET(T, N##_atomic_fetch, (const T *source, int pe),                            \
                   (SHMEM_CTX_DEFAULT, source, pe))                                           \
    OSHM_PLAIN_VOID(N##_atomic_fetch_nbi, (T * fetch, const T *source, int pe),               \
                    (SHMEM_CTX_DEFAULT, fetch, source, pe))                                   \
    DEFINE_NONFETCHING(T, N, set, HCOMM_AMO_SET, COMMA T value, COMMA value, bits_##N(value)) \
    DEFINE_FETCHING(T, N, swap, HCOMM_AMO_SWAP, COMMA T value, COMMA value, bits_##N(value), 0)
SHMEM_AMO_EXTENDED_TABLE(DEFINE_EXTENDED_AMO)

#define DEFINE_BITWISE_AMO(T, N, U)                                                           \
    DEFINE_FETCHING(T, N, fetch_and, HCOMM_AMO_FETCH_AND, COMMA T value, COMMA value,         \
                    bits_##N(value), 0)                                                       \
    DEFINE_NONFETCHING(T, N, and, HCOMM_AMO_AND, COMMA T value, COMMA value, bits_##N(value)) \
    DEFINE_FETCHING(T, N, fetch_or, HCOMM_AMO_FETCH_OR, COMMA T value, COMMA value,           \
                    bits_##N(value), 0)                                                       \
    DEFINE_NONFETCHING(T, N, or, HCOMM_AMO_OR, COMMA T value, COMMA value, bits_##N(value))   \
    DEFINE_FETCHING(T, N, fetch_xor, HCOMM_AMO_FETCH_XOR, COMMA T value, COMMA value,         \
                    bits_##N(value), 0)                                                       \
    DEFINE_NONFETCHING(T, N, xor, HCOMM_AMO_XOR, COMMA T value, COMMA value, bits_##N(value))
SHMEM_AMO_BITWISE_TABLE(DEFINE_BITWISE_AMO)

/* ---- deprecated names ---- */
#define DEFINE_DEPRECATED_AMO(T, N)                                                           \
    OSHM_FN(T, shmem_##N##_finc, (T * dest, int pe))                                          \
    {                                                                                         \
        return pshmem_##N##_atomic_fetch_inc(dest, pe);                                       \
    }                                                                                         \
    OSHM_FN(void, shmem_##N##_inc, (T * dest, int pe)) { pshmem_##N##_atomic_inc(dest, pe); } \
    OSHM_FN(T, shmem_##N##_fadd, (T * dest, T value, int pe))                                 \
    {                                                                                         \
        return pshmem_##N##_atomic_fetch_add(dest, value, pe);                                \
    }                                                                                         \
    OSHM_FN(void, shmem_##N##_add, (T * dest, T value, int pe))                               \
    {                                                                                         \
        pshmem_##N##_atomic_add(dest, value, pe);                                             \
    }                                                                                         \
    OSHM_FN(T, shmem_##N##_cswap, (T * dest, T cond, T value, int pe))                        \
    {                                                                                         \
        return pshmem_##N##_atomic_compare_swap(dest, cond, value, pe);                       \
    }
DEFINE_DEPRECATED_AMO(int, int)
DEFINE_DEPRECATED_AMO(long, long)
DEFINE_DEPRECATED_AMO(long long, longlong)

#define DEFINE_DEPRECATED_EXT_AMO(T, N)                                                       \
    OSHM_FN(T, shmem_##N##_fetch, (const T *source, int pe))                                  \
    {                                                                                         \
        return pshmem_##N##_atomic_fetch(source, pe);                                         \
    }                                                                                         \
    OSHM_FN(void, shmem_##N##_set, (T * dest, T value, int pe))                               \
    {                                                                                         \
        pshmem_##N##_atomic_set(dest, value, pe);                                             \
    }                                                                                         \
    OSHM_FN(T, shmem_##N##_swap, (T * dest, T value, int pe))                                 \
    {                                                                                         \
        return pshmem_##N##_atomic_swap(dest, value, pe);                                     \
    }
DEFINE_DEPRECATED_EXT_AMO(int, int)
DEFINE_DEPRECATED_EXT_AMO(long, long)
DEFINE_DEPRECATED_EXT_AMO(long long, longlong)
DEFINE_DEPRECATED_EXT_AMO(float, float)
DEFINE_DEPRECATED_EXT_AMO(double, double)

OSHM_FN(long, shmem_swap, (long *dest, long value, int pe))
{
    return pshmem_long_atomic_swap(dest, value, pe);
}
