/*
 * The AMO wrappers of the compatibility headers (aclshmem.h, nvshmem.h):
 * PREFIX_TYPENAME_atomic_OP over shmemd_TYPENAME_atomic_OP, one definition
 * for both peers, which differ only in their prefix and in the type of the
 * PE argument (PE_T). Each takes (T, N) from the AMO tables.
 */
#ifndef SHMEM_COMPAT_AMO_WRAPPERS_H
#define SHMEM_COMPAT_AMO_WRAPPERS_H

#define OSHM_COMPAT_AMO_STD(P, PE_T, T, N)                                                      \
    static inline T P##_##N##_atomic_fetch_add(T *dest, T value, PE_T pe)                      \
    {                                                                                          \
        return shmemd_##N##_atomic_fetch_add(dest, value, pe);                                 \
    }                                                                                          \
    static inline void P##_##N##_atomic_add(T *dest, T value, PE_T pe)                         \
    {                                                                                          \
        shmemd_##N##_atomic_add(dest, value, pe);                                              \
    }                                                                                          \
    static inline T P##_##N##_atomic_fetch_inc(T *dest, PE_T pe)                               \
    {                                                                                          \
        return shmemd_##N##_atomic_fetch_inc(dest, pe);                                        \
    }                                                                                          \
    static inline void P##_##N##_atomic_inc(T *dest, PE_T pe) { shmemd_##N##_atomic_inc(dest, pe); } \
    static inline T P##_##N##_atomic_compare_swap(T *dest, T cond, T value, PE_T pe)           \
    {                                                                                          \
        return shmemd_##N##_atomic_compare_swap(dest, cond, value, pe);                        \
    }

#define OSHM_COMPAT_AMO_EXT(P, PE_T, T, N)                                                      \
    static inline T P##_##N##_atomic_fetch(const T *source, PE_T pe)                           \
    {                                                                                          \
        return shmemd_##N##_atomic_fetch(source, pe);                                          \
    }                                                                                          \
    static inline void P##_##N##_atomic_set(T *dest, T value, PE_T pe)                         \
    {                                                                                          \
        shmemd_##N##_atomic_set(dest, value, pe);                                              \
    }                                                                                          \
    static inline T P##_##N##_atomic_swap(T *dest, T value, PE_T pe)                           \
    {                                                                                          \
        return shmemd_##N##_atomic_swap(dest, value, pe);                                      \
    }

#define OSHM_COMPAT_AMO_BIT_OP(P, PE_T, T, N, OP)                                               \
    static inline T P##_##N##_atomic_fetch_##OP(T *dest, T value, PE_T pe)                    \
    {                                                                                          \
        return shmemd_##N##_atomic_fetch_##OP(dest, value, pe);                               \
    }                                                                                          \
    static inline void P##_##N##_atomic_##OP(T *dest, T value, PE_T pe)                       \
    {                                                                                          \
        shmemd_##N##_atomic_##OP(dest, value, pe);                                             \
    }
#define OSHM_COMPAT_AMO_BIT(P, PE_T, T, N)                                                      \
    OSHM_COMPAT_AMO_BIT_OP(P, PE_T, T, N, and)                                                 \
    OSHM_COMPAT_AMO_BIT_OP(P, PE_T, T, N, or)                                                  \
    OSHM_COMPAT_AMO_BIT_OP(P, PE_T, T, N, xor)

#endif
