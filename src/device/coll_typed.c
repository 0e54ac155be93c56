/*
 * The typed data collectives of the device: byte forms (coll.c) with the
 * element count scaled and the routine's own name in errors.
 */
#include "device/coll.h"

#define DEFINE_COLL_TYPED(T, N, SUFFIX, BLOCK)                                                 \
    int shmemd_##N##_broadcast##SUFFIX(shmemd_team_t team, T *dest, const T *source,           \
                                       size_t nelems, int pe_root)                             \
    {                                                                                          \
        const char *r = "shmemd_" #N "_broadcast" #SUFFIX;                                    \
        return dcoll_broadcast(team, dest, source, dcoll_bytes(nelems, sizeof(T), r), pe_root, \
                               BLOCK, r);                                                      \
    }                                                                                          \
    int shmemd_##N##_fcollect##SUFFIX(shmemd_team_t team, T *dest, const T *source,            \
                                      size_t nelems)                                           \
    {                                                                                          \
        const char *r = "shmemd_" #N "_fcollect" #SUFFIX;                                     \
        return dcoll_fcollect(team, dest, source, dcoll_bytes(nelems, sizeof(T), r), BLOCK, r); \
    }                                                                                          \
    int shmemd_##N##_alltoall##SUFFIX(shmemd_team_t team, T *dest, const T *source,            \
                                      size_t nelems)                                           \
    {                                                                                          \
        const char *r = "shmemd_" #N "_alltoall" #SUFFIX;                                     \
        return dcoll_alltoall(team, dest, source, dcoll_bytes(nelems, sizeof(T), r), BLOCK, r); \
    }
#define DEFINE_COLL_THREAD(T, N) DEFINE_COLL_TYPED(T, N, , false)
#define DEFINE_COLL_BLOCK(T, N) DEFINE_COLL_TYPED(T, N, _block, true)
SHMEMD_RMA_TYPE_TABLE(DEFINE_COLL_THREAD)
SHMEMD_RMA_TYPE_TABLE(DEFINE_COLL_BLOCK)
