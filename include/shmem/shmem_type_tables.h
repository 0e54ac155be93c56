/*
 * The type tables of the OpenSHMEM 1.5 specification as X-macros.
 * Every typed routine (in the header and in the library) is generated from
 * these lists, so a type is added or fixed in exactly one place.
 *
 * Each table calls X(TYPE, TYPENAME) for each entry.
 */
#ifndef SHMEM_TYPE_TABLES_H
#define SHMEM_TYPE_TABLES_H

/* Table "Standard RMA Types and Names" (put, get, p, g, iput, iget, nbi,
 * broadcast, collect, alltoall, ...). */
#define SHMEM_RMA_TYPE_TABLE(X)            \
    X(float, float)                        \
    X(double, double)                      \
    X(long double, longdouble)             \
    X(char, char)                          \
    X(signed char, schar)                  \
    X(short, short)                        \
    X(int, int)                            \
    X(long, long)                          \
    X(long long, longlong)                 \
    X(unsigned char, uchar)                \
    X(unsigned short, ushort)              \
    X(unsigned int, uint)                  \
    X(unsigned long, ulong)                \
    X(unsigned long long, ulonglong)       \
    X(int8_t, int8)                        \
    X(int16_t, int16)                      \
    X(int32_t, int32)                      \
    X(int64_t, int64)                      \
    X(uint8_t, uint8)                      \
    X(uint16_t, uint16)                    \
    X(uint32_t, uint32)                    \
    X(uint64_t, uint64)                    \
    X(size_t, size)                        \
    X(ptrdiff_t, ptrdiff)

/* The subset of the RMA types that are distinct C types, for _Generic
 * selection (the fixed-width and size types alias these). */
#define SHMEM_RMA_GENERIC_TYPE_TABLE(X)    \
    X(float, float)                        \
    X(double, double)                      \
    X(long double, longdouble)             \
    X(char, char)                          \
    X(signed char, schar)                  \
    X(short, short)                        \
    X(int, int)                            \
    X(long, long)                          \
    X(long long, longlong)                 \
    X(unsigned char, uchar)                \
    X(unsigned short, ushort)              \
    X(unsigned int, uint)                  \
    X(unsigned long, ulong)                \
    X(unsigned long long, ulonglong)

/* Sized RMA routines: X(BITS, UNIT_TYPE). 128-bit elements move as two
 * 64-bit words. */
#define SHMEM_SIZED_TABLE(X)               \
    X(8, uint8_t)                          \
    X(16, uint16_t)                        \
    X(32, uint32_t)                        \
    X(64, uint64_t)                        \
    X(128, shmem_uint128_unit_t)

#endif /* SHMEM_TYPE_TABLES_H */
