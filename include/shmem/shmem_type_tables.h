/*
 * The type tables of the OpenSHMEM 1.6 specification as X-macros.
 * Every typed routine (in the header and in the library) is generated from
 * these lists, so a type is added or fixed in exactly one place.
 *
 * Each table calls X(TYPE, TYPENAME) for each entry.
 */
#ifndef SHMEM_TYPE_TABLES_H
#define SHMEM_TYPE_TABLES_H

/* The fixed-width integer types, shared by several tables. */
#define SHMEM_FIXED_WIDTH_TABLE(X)         \
    X(int8_t, int8)                        \
    X(int16_t, int16)                      \
    X(int32_t, int32)                      \
    X(int64_t, int64)                      \
    X(uint8_t, uint8)                      \
    X(uint16_t, uint16)                    \
    X(uint32_t, uint32)                    \
    X(uint64_t, uint64)

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

/* Table "Standard RMA Types and Names" (put, get, p, g, iput, iget, nbi,
 * broadcast, collect, alltoall, ...). */
#define SHMEM_RMA_TYPE_TABLE(X)            \
    SHMEM_RMA_GENERIC_TYPE_TABLE(X)        \
    SHMEM_FIXED_WIDTH_TABLE(X)             \
    X(size_t, size)                        \
    X(ptrdiff_t, ptrdiff)

/* Sized RMA routines: X(BITS, UNIT_TYPE). 128-bit elements move as two
 * 64-bit words. */
#define SHMEM_SIZED_TABLE(X)               \
    X(8, uint8_t)                          \
    X(16, uint16_t)                        \
    X(32, uint32_t)                        \
    X(64, uint64_t)                        \
    X(128, shmem_uint128_unit_t)

/* AMO tables: X(TYPE, TYPENAME, UNSIGNED_TYPE), UNSIGNED_TYPE of the same
 * width. First the distinct C types (for _Generic), then the full tables of
 * the specification built from them. */
#define SHMEM_AMO_STANDARD_GENERIC_TABLE(X)            \
    X(int, int, unsigned int)                          \
    X(long, long, unsigned long)                       \
    X(long long, longlong, unsigned long long)         \
    X(unsigned int, uint, unsigned int)                \
    X(unsigned long, ulong, unsigned long)             \
    X(unsigned long long, ulonglong, unsigned long long)
#define SHMEM_AMO_EXTENDED_GENERIC_TABLE(X)            \
    X(float, float, uint32_t)                          \
    X(double, double, uint64_t)                        \
    SHMEM_AMO_STANDARD_GENERIC_TABLE(X)
#define SHMEM_AMO_BITWISE_GENERIC_TABLE(X)             \
    X(unsigned int, uint, unsigned int)                \
    X(unsigned long, ulong, unsigned long)             \
    X(unsigned long long, ulonglong, unsigned long long) \
    X(int32_t, int32, uint32_t)                        \
    X(int64_t, int64, uint64_t)

/* Table "Standard AMO Types and Names": fetch-add, add, inc, cswap, ... */
#define SHMEM_AMO_STANDARD_TABLE(X)                    \
    SHMEM_AMO_STANDARD_GENERIC_TABLE(X)                \
    X(int32_t, int32, uint32_t)                        \
    X(int64_t, int64, uint64_t)                        \
    X(uint32_t, uint32, uint32_t)                      \
    X(uint64_t, uint64, uint64_t)                      \
    X(size_t, size, size_t)                            \
    X(ptrdiff_t, ptrdiff, size_t)

/* Table "Extended AMO Types and Names": fetch, set, swap. */
#define SHMEM_AMO_EXTENDED_TABLE(X)                    \
    X(float, float, uint32_t)                          \
    X(double, double, uint64_t)                        \
    SHMEM_AMO_STANDARD_TABLE(X)

/* Table "Bitwise AMO Types and Names": and, or, xor. */
#define SHMEM_AMO_BITWISE_TABLE(X)                     \
    SHMEM_AMO_BITWISE_GENERIC_TABLE(X)                 \
    X(uint32_t, uint32, uint32_t)                      \
    X(uint64_t, uint64, uint64_t)

/* Table "Point-to-Point Synchronization Types and Names". */
#define SHMEM_P2P_GENERIC_TABLE(X)                     \
    X(short, short)                                    \
    X(int, int)                                        \
    X(long, long)                                      \
    X(long long, longlong)                             \
    X(unsigned short, ushort)                          \
    X(unsigned int, uint)                              \
    X(unsigned long, ulong)                            \
    X(unsigned long long, ulonglong)

#define SHMEM_P2P_TABLE(X)                             \
    SHMEM_P2P_GENERIC_TABLE(X)                         \
    X(int32_t, int32)                                  \
    X(int64_t, int64)                                  \
    X(uint32_t, uint32)                                \
    X(uint64_t, uint64)                                \
    X(size_t, size)                                    \
    X(ptrdiff_t, ptrdiff)

/* Reductions: "Reduction Types, Names and Supporting Operations".
 * Bitwise (and, or, xor): */
#define SHMEM_REDUCE_BITWISE_TABLE(X)                  \
    X(unsigned char, uchar)                            \
    X(unsigned short, ushort)                          \
    X(unsigned int, uint)                              \
    X(unsigned long, ulong)                            \
    X(unsigned long long, ulonglong)                   \
    SHMEM_FIXED_WIDTH_TABLE(X)                         \
    X(size_t, size)

/* Ordered (min, max): */
#define SHMEM_REDUCE_MINMAX_TABLE(X)                   \
    X(char, char)                                      \
    X(signed char, schar)                              \
    X(short, short)                                    \
    X(int, int)                                        \
    X(long, long)                                      \
    X(long long, longlong)                             \
    X(ptrdiff_t, ptrdiff)                              \
    X(float, float)                                    \
    X(double, double)                                  \
    X(long double, longdouble)                         \
    SHMEM_REDUCE_BITWISE_TABLE(X)

/* Arithmetic (sum, prod): */
#define SHMEM_REDUCE_ARITH_TABLE(X)                    \
    SHMEM_REDUCE_MINMAX_TABLE(X)                       \
    X(double _Complex, complexd)                       \
    X(float _Complex, complexf)

/* The distinct C types of the reduction tables, for _Generic selection and
 * C++ overloads (the fixed-width, size and ptrdiff types alias these). */
#define SHMEM_REDUCE_UNSIGNED_GENERIC_TABLE(X)         \
    X(unsigned char, uchar)                            \
    X(unsigned short, ushort)                          \
    X(unsigned int, uint)                              \
    X(unsigned long, ulong)                            \
    X(unsigned long long, ulonglong)
#define SHMEM_REDUCE_BITWISE_GENERIC_TABLE(X)          \
    SHMEM_REDUCE_UNSIGNED_GENERIC_TABLE(X)             \
    X(int8_t, int8)                                    \
    X(int16_t, int16)                                  \
    X(int32_t, int32)                                  \
    X(int64_t, int64)
#define SHMEM_REDUCE_MINMAX_GENERIC_TABLE(X)           \
    X(char, char)                                      \
    X(signed char, schar)                              \
    X(short, short)                                    \
    X(int, int)                                        \
    X(long, long)                                      \
    X(long long, longlong)                             \
    X(float, float)                                    \
    X(double, double)                                  \
    X(long double, longdouble)                         \
    SHMEM_REDUCE_UNSIGNED_GENERIC_TABLE(X)
#define SHMEM_REDUCE_ARITH_GENERIC_TABLE(X)            \
    SHMEM_REDUCE_MINMAX_GENERIC_TABLE(X)               \
    X(double _Complex, complexd)                       \
    X(float _Complex, complexf)

/* Deprecated AMO names (shmem_TYPENAME_finc, _inc, _fadd, _add, _cswap), and
 * those that also take float and double (_fetch, _set, _swap). */
#define SHMEM_AMO_DEPRECATED_TABLE(X)                  \
    X(int, int)                                        \
    X(long, long)                                      \
    X(long long, longlong)
#define SHMEM_AMO_DEPRECATED_EXT_TABLE(X)              \
    SHMEM_AMO_DEPRECATED_TABLE(X)                      \
    X(float, float)                                    \
    X(double, double)

/* Scans (sum_inscan, sum_exscan, OpenSHMEM 1.6): the SUM column of the
 * reduction table. */
#define SHMEM_SCAN_TABLE(X) SHMEM_REDUCE_ARITH_TABLE(X)

/* Deprecated active-set reductions (shmem_TYPENAME_OP_to_all). */
#define SHMEM_TO_ALL_BITWISE_TABLE(X)                  \
    X(short, short)                                    \
    X(int, int)                                        \
    X(long, long)                                      \
    X(long long, longlong)
#define SHMEM_TO_ALL_MINMAX_TABLE(X)                   \
    SHMEM_TO_ALL_BITWISE_TABLE(X)                      \
    X(float, float)                                    \
    X(double, double)                                  \
    X(long double, longdouble)
#define SHMEM_TO_ALL_ARITH_TABLE(X)                    \
    SHMEM_TO_ALL_MINMAX_TABLE(X)                       \
    X(double _Complex, complexd)                       \
    X(float _Complex, complexf)

#endif /* SHMEM_TYPE_TABLES_H */
