/*
 * Device AMOs: the standard, extended and bitwise ones, and the fetching
 * _nbi forms of OpenSHMEM 1.5. An _nbi fetch of an 8-byte type has the
 * engine write the old value straight into *fetch, so it completes with
 * quiet like any other descriptor; a 4-byte one has no 8-byte slot to land
 * in and waits for its own value (complete early, which the specification
 * allows).
 */
#include <shmem/device.h>

#include "device/dsync.h"
#include "util/log.h"

static uint64_t amo_run(void *dest, enum hcomm_amo_op op, size_t size, uint64_t operand,
                        uint64_t compare, int pe, bool fetch, const char *routine)
{
    struct device_thread *t = device_thread_of(routine);
    dsync_check(dest, size, pe, routine);
    uint64_t old = 0;
    dsync_post(t, (struct engine_desc){.op = ENGINE_AMO, .pe = pe, .dst = dest,
                                       .amo = (enum backend_amo_op)op, .amo_size = size,
                                       .operand = operand, .compare = compare,
                                       .result = fetch ? &old : NULL, .routine = routine});
    if (fetch)
        dsync_wait(t);
    return old;
}

static uint64_t amo(void *dest, enum hcomm_amo_op op, size_t size, uint64_t operand,
                    uint64_t compare, int pe, bool fetch, const char *routine)
{
    uint64_t r;
    DEVICE_PROFILED(OSHM_PROF_device_amo, routine, size, pe,
                    r = amo_run(dest, op, size, operand, compare, pe, fetch, routine));
    return r;
}

static void amo_nbi_run(void *fetch, void *dest, enum hcomm_amo_op op, size_t size,
                        uint64_t operand, uint64_t compare, int pe, const char *routine)
{
    struct device_thread *t = device_thread_of(routine);
    if (!fetch)
        oshm_fatal("%s: fetch is NULL", routine);
    if (size != sizeof(uint64_t)) {
        dsync_from_bits(fetch, amo(dest, op, size, operand, compare, pe, true, routine), size);
        return;
    }
    dsync_check(dest, size, pe, routine);
    dsync_post(t, (struct engine_desc){.op = ENGINE_AMO, .pe = pe, .dst = dest,
                                       .amo = (enum backend_amo_op)op, .amo_size = size,
                                       .operand = operand, .compare = compare,
                                       .result = (uint64_t *)fetch, .routine = routine});
}

static void amo_nbi(void *fetch, void *dest, enum hcomm_amo_op op, size_t size, uint64_t operand,
                    uint64_t compare, int pe, const char *routine)
{
    DEVICE_PROFILED(OSHM_PROF_device_amo, routine, size, pe,
                    amo_nbi_run(fetch, dest, op, size, operand, compare, pe, routine));
}

#define BITS(V) dsync_to_bits(&(V), sizeof(V))
#define NAME(N, OP) "shmemd_" #N "_atomic_" OP

/* The blocking standard and extended AMOs. */
#define AMO_CALL(N, ROUTINE, OP, FETCH, VALUE, CMP)                                               \
    amo(dest, OP, sizeof *dest, dsync_to_bits(&(VALUE), sizeof *dest), dsync_to_bits(&(CMP), sizeof *dest), \
        pe, FETCH, NAME(N, ROUTINE))

#define DEFINE_DEVICE_AMO_STD(T, N, U)                                                         \
    T shmemd_##N##_atomic_fetch_add(T *dest, T value, int pe)                                  \
    {                                                                                          \
        T old;                                                                                 \
        dsync_from_bits(&old, AMO_CALL(N, "fetch_add", HCOMM_AMO_FETCH_ADD, true, value, value),     \
                  sizeof old);                                                                 \
        return old;                                                                            \
    }                                                                                          \
    void shmemd_##N##_atomic_add(T *dest, T value, int pe)                                     \
    {                                                                                          \
        AMO_CALL(N, "add", HCOMM_AMO_ADD, false, value, value);                               \
    }                                                                                          \
    T shmemd_##N##_atomic_fetch_inc(T *dest, int pe)                                           \
    {                                                                                          \
        T one = 1, old;                                                                        \
        dsync_from_bits(&old, AMO_CALL(N, "fetch_inc", HCOMM_AMO_FETCH_ADD, true, one, one),         \
                  sizeof old);                                                                 \
        return old;                                                                            \
    }                                                                                          \
    void shmemd_##N##_atomic_inc(T *dest, int pe)                                              \
    {                                                                                          \
        T one = 1;                                                                             \
        AMO_CALL(N, "inc", HCOMM_AMO_ADD, false, one, one);                                   \
    }                                                                                          \
    T shmemd_##N##_atomic_compare_swap(T *dest, T cond, T value, int pe)                       \
    {                                                                                          \
        T old;                                                                                 \
        dsync_from_bits(&old, AMO_CALL(N, "compare_swap", HCOMM_AMO_CSWAP, true, value, cond),       \
                  sizeof old);                                                                 \
        return old;                                                                            \
    }
#define DEFINE_DEVICE_AMO_EXT(T, N, U)                                                         \
    T shmemd_##N##_atomic_fetch(const T *source, int pe)                                       \
    {                                                                                          \
        T zero = 0, old;                                                                       \
        T *dest = (T *)source;                                                                 \
        dsync_from_bits(&old, AMO_CALL(N, "fetch", HCOMM_AMO_FETCH, true, zero, zero), sizeof old);  \
        return old;                                                                            \
    }                                                                                          \
    void shmemd_##N##_atomic_set(T *dest, T value, int pe)                                     \
    {                                                                                          \
        AMO_CALL(N, "set", HCOMM_AMO_SET, false, value, value);                               \
    }                                                                                          \
    T shmemd_##N##_atomic_swap(T *dest, T value, int pe)                                       \
    {                                                                                          \
        T old;                                                                                 \
        dsync_from_bits(&old, AMO_CALL(N, "swap", HCOMM_AMO_SWAP, true, value, value), sizeof old);  \
        return old;                                                                            \
    }
SHMEM_AMO_STANDARD_TABLE(DEFINE_DEVICE_AMO_STD)
SHMEM_AMO_EXTENDED_TABLE(DEFINE_DEVICE_AMO_EXT)

#define DEFINE_FETCH_OP(T, N, OP, HOP)                                                         \
    T shmemd_##N##_atomic_fetch_##OP(T *dest, T value, int pe)                                 \
    {                                                                                          \
        T old;                                                                                 \
        dsync_from_bits(&old, amo(dest, HCOMM_AMO_FETCH_##HOP, sizeof(T), BITS(value), 0, pe,  \
                                  true, NAME(N, "fetch_" #OP)),                                \
                        sizeof(T));                                                            \
        return old;                                                                            \
    }                                                                                          \
    void shmemd_##N##_atomic_##OP(T *dest, T value, int pe)                                    \
    {                                                                                          \
        amo(dest, HCOMM_AMO_##HOP, sizeof(T), BITS(value), 0, pe, false, NAME(N, #OP));       \
    }                                                                                          \
    void shmemd_##N##_atomic_fetch_##OP##_nbi(T *fetch, T *dest, T value, int pe)              \
    {                                                                                          \
        amo_nbi(fetch, dest, HCOMM_AMO_FETCH_##HOP, sizeof(T), BITS(value), 0, pe,             \
                NAME(N, "fetch_" #OP "_nbi"));                                                 \
    }

#define DEFINE_AMO_BIT(T, N, U)                                                                \
    DEFINE_FETCH_OP(T, N, and, AND)                                                            \
    DEFINE_FETCH_OP(T, N, or, OR)                                                              \
    DEFINE_FETCH_OP(T, N, xor, XOR)
SHMEM_AMO_BITWISE_TABLE(DEFINE_AMO_BIT)

#define DEFINE_AMO_STD_NBI(T, N, U)                                                            \
    void shmemd_##N##_atomic_fetch_add_nbi(T *fetch, T *dest, T value, int pe)                 \
    {                                                                                          \
        amo_nbi(fetch, dest, HCOMM_AMO_FETCH_ADD, sizeof(T), BITS(value), 0, pe,               \
                NAME(N, "fetch_add_nbi"));                                                     \
    }                                                                                          \
    void shmemd_##N##_atomic_fetch_inc_nbi(T *fetch, T *dest, int pe)                          \
    {                                                                                          \
        T one = 1;                                                                             \
        amo_nbi(fetch, dest, HCOMM_AMO_FETCH_ADD, sizeof(T), BITS(one), 0, pe,                 \
                NAME(N, "fetch_inc_nbi"));                                                     \
    }                                                                                          \
    void shmemd_##N##_atomic_compare_swap_nbi(T *fetch, T *dest, T cond, T value, int pe)      \
    {                                                                                          \
        amo_nbi(fetch, dest, HCOMM_AMO_CSWAP, sizeof(T), BITS(value), BITS(cond), pe,          \
                NAME(N, "compare_swap_nbi"));                                                  \
    }
SHMEM_AMO_STANDARD_TABLE(DEFINE_AMO_STD_NBI)

#define DEFINE_AMO_EXT_NBI(T, N, U)                                                            \
    void shmemd_##N##_atomic_fetch_nbi(T *fetch, const T *source, int pe)                      \
    {                                                                                          \
        amo_nbi(fetch, (T *)source, HCOMM_AMO_FETCH, sizeof(T), 0, 0, pe,                      \
                NAME(N, "fetch_nbi"));                                                         \
    }                                                                                          \
    void shmemd_##N##_atomic_swap_nbi(T *fetch, T *dest, T value, int pe)                      \
    {                                                                                          \
        amo_nbi(fetch, dest, HCOMM_AMO_SWAP, sizeof(T), BITS(value), 0, pe,                    \
                NAME(N, "swap_nbi"));                                                          \
    }
SHMEM_AMO_EXTENDED_TABLE(DEFINE_AMO_EXT_NBI)
