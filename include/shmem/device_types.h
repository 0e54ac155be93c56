/*
 * The types of the device API. A kernel moves and reduces the host API's
 * types and also the two 16-bit floating-point types of accelerators, half
 * (IEEE binary16) and bfloat16. They are stored as 16 bits (a struct, so that
 * C11 _Generic and C++ overloads tell them apart from uint16_t); arithmetic
 * and comparisons convert to float, as CANN SHMEM and NVSHMEM kernels do.
 *
 * Each table calls X(TYPE, TYPENAME) for each entry, like the host tables.
 */
#ifndef SHMEM_DEVICE_TYPES_H
#define SHMEM_DEVICE_TYPES_H

#include <stdint.h>
#include <string.h>

#include <shmem/shmem_type_tables.h>

typedef struct shmemd_half {
    uint16_t bits;
} shmemd_half_t;
typedef struct shmemd_bfloat16 {
    uint16_t bits;
} shmemd_bfloat16_t;

#define SHMEMD_FLOAT16_TABLE(X)            \
    X(shmemd_half_t, half)                 \
    X(shmemd_bfloat16_t, bfloat16)

/* RMA (put, get, p, g, iput, iget, 2-D, broadcast, fcollect, alltoall). */
#define SHMEMD_RMA_TYPE_TABLE(X)           \
    SHMEM_RMA_TYPE_TABLE(X)                \
    SHMEMD_FLOAT16_TABLE(X)
#define SHMEMD_RMA_GENERIC_TYPE_TABLE(X)   \
    SHMEM_RMA_GENERIC_TYPE_TABLE(X)        \
    SHMEMD_FLOAT16_TABLE(X)

/* Reductions: min/max and sum/prod also over the 16-bit floats. */
#define SHMEMD_REDUCE_BITWISE_TABLE(X) SHMEM_REDUCE_BITWISE_TABLE(X)
#define SHMEMD_REDUCE_MINMAX_TABLE(X)      \
    SHMEM_REDUCE_MINMAX_TABLE(X)           \
    SHMEMD_FLOAT16_TABLE(X)
#define SHMEMD_REDUCE_ARITH_TABLE(X)       \
    SHMEM_REDUCE_ARITH_TABLE(X)            \
    SHMEMD_FLOAT16_TABLE(X)

static inline float shmemd_half_to_float(shmemd_half_t h)
{
    uint32_t sign = (uint32_t)(h.bits & 0x8000u) << 16;
    uint32_t exp = (h.bits >> 10) & 0x1fu;
    uint32_t man = h.bits & 0x3ffu;
    uint32_t bits;
    if (exp == 0x1f) { /* inf, nan */
        bits = sign | 0x7f800000u | (man << 13);
    } else if (exp != 0) {
        bits = sign | ((exp + 112u) << 23) | (man << 13);
    } else if (man == 0) {
        bits = sign;
    } else { /* subnormal: normalise */
        int e = -1;
        do {
            e++;
            man <<= 1;
        } while (!(man & 0x400u));
        bits = sign | ((uint32_t)(112 - e) << 23) | ((man & 0x3ffu) << 13);
    }
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

/* Round to nearest even, as hardware converts. */
static inline shmemd_half_t shmemd_float_to_half(float f)
{
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
    uint32_t abs = x & 0x7fffffffu;
    shmemd_half_t h;
    if (abs >= 0x7f800000u) { /* inf, nan (kept quiet) */
        h.bits = (uint16_t)(sign | 0x7c00u | (abs > 0x7f800000u ? 0x200u : 0));
    } else if (abs >= 0x477ff000u) { /* rounds past 65504 */
        h.bits = (uint16_t)(sign | 0x7c00u);
    } else if (abs < 0x38800000u) { /* subnormal or zero in half */
        if (abs < 0x33000000u) {
            h.bits = sign;
        } else {
            uint32_t e = abs >> 23, man = (abs & 0x7fffffu) | 0x800000u;
            uint32_t shift = 126 - e; /* 14..24 */
            uint32_t v = man >> shift, rem = man & ((1u << shift) - 1), half = 1u << (shift - 1);
            if (rem > half || (rem == half && (v & 1)))
                v++;
            h.bits = (uint16_t)(sign | v);
        }
    } else {
        uint32_t v = ((abs >> 13) - (112u << 10));
        uint32_t rem = abs & 0x1fffu;
        if (rem > 0x1000u || (rem == 0x1000u && (v & 1)))
            v++;
        h.bits = (uint16_t)(sign | v);
    }
    return h;
}

static inline float shmemd_bfloat16_to_float(shmemd_bfloat16_t b)
{
    uint32_t bits = (uint32_t)b.bits << 16;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static inline shmemd_bfloat16_t shmemd_float_to_bfloat16(float f)
{
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    shmemd_bfloat16_t b;
    if ((x & 0x7fffffffu) > 0x7f800000u)
        b.bits = (uint16_t)((x >> 16) | 0x40u); /* nan stays nan */
    else
        b.bits = (uint16_t)((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
    return b;
}

#endif
