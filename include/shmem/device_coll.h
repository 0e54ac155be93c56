/*
 * Device collectives over a team (included by <shmem/device.h>; do not
 * include it alone). Two forms of each:
 *   shmemd_<name>        exactly one thread of each PE of the team calls;
 *   shmemd_<name>_block  every thread of one block of each PE calls with
 *                        the same arguments, and the threads share the data
 *                        movement and arithmetic.
 * As the host's team collectives: every PE of the team calls, in the same
 * order; SOURCE and DEST are symmetric (device or host heap); the result is
 * in DEST of every PE when the call returns. Reductions may be in place
 * (DEST == SOURCE). half and bfloat16 are reduced in float and rounded once
 * per combining step. Each returns 0.
 *
 * Collectives of one team must not run in two kernels (or with the host's
 * collectives on that team) at once.
 */
#ifndef SHMEM_DEVICE_COLL_H
#define SHMEM_DEVICE_COLL_H

#include <stddef.h>
#include <stdint.h>

#include <shmem/device_types.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SHMEMD_DECL_COLL_FORMS_(SUFFIX)                                                        \
    OSHM_AICORE int shmemd_broadcastmem##SUFFIX(shmemd_team_t team, OSHM_GM void *dest,        \
                                                OSHM_GM const void *source, size_t nbytes,     \
                                                int pe_root);                                  \
    OSHM_AICORE int shmemd_fcollectmem##SUFFIX(shmemd_team_t team, OSHM_GM void *dest,         \
                                               OSHM_GM const void *source, size_t nbytes);     \
    OSHM_AICORE int shmemd_alltoallmem##SUFFIX(shmemd_team_t team, OSHM_GM void *dest,         \
                                               OSHM_GM const void *source, size_t nbytes);
SHMEMD_DECL_COLL_FORMS_()
SHMEMD_DECL_COLL_FORMS_(_block)
#undef SHMEMD_DECL_COLL_FORMS_

#define SHMEMD_DECL_COLL_(T, N)                                                                \
    OSHM_AICORE int shmemd_##N##_broadcast(shmemd_team_t team, OSHM_GM T *dest,                \
                                           OSHM_GM const T *source, size_t nelems, int pe_root); \
    OSHM_AICORE int shmemd_##N##_fcollect(shmemd_team_t team, OSHM_GM T *dest,                 \
                                          OSHM_GM const T *source, size_t nelems);             \
    OSHM_AICORE int shmemd_##N##_alltoall(shmemd_team_t team, OSHM_GM T *dest,                 \
                                          OSHM_GM const T *source, size_t nelems);             \
    OSHM_AICORE int shmemd_##N##_broadcast_block(shmemd_team_t team, OSHM_GM T *dest,          \
                                                 OSHM_GM const T *source, size_t nelems,       \
                                                 int pe_root);                                 \
    OSHM_AICORE int shmemd_##N##_fcollect_block(shmemd_team_t team, OSHM_GM T *dest,           \
                                                OSHM_GM const T *source, size_t nelems);       \
    OSHM_AICORE int shmemd_##N##_alltoall_block(shmemd_team_t team, OSHM_GM T *dest,           \
                                                OSHM_GM const T *source, size_t nelems);
SHMEMD_RMA_TYPE_TABLE(SHMEMD_DECL_COLL_)
#undef SHMEMD_DECL_COLL_

/* Reductions: shmemd_TYPENAME_and_reduce, shmemd_TYPENAME_or_reduce,
 * shmemd_TYPENAME_xor_reduce (bitwise types), shmemd_TYPENAME_min_reduce,
 * shmemd_TYPENAME_max_reduce (ordered types), shmemd_TYPENAME_sum_reduce,
 * shmemd_TYPENAME_prod_reduce (arithmetic types, half and bfloat16 too),
 * each also as _block. */
#define SHMEMD_DECL_REDUCE_(T, N, OP)                                                          \
    OSHM_AICORE int shmemd_##N##_##OP##_reduce(shmemd_team_t team, OSHM_GM T *dest,            \
                                               OSHM_GM const T *source, size_t nreduce);       \
    OSHM_AICORE int shmemd_##N##_##OP##_reduce_block(shmemd_team_t team, OSHM_GM T *dest,      \
                                                     OSHM_GM const T *source, size_t nreduce);
#define SHMEMD_DECL_REDUCE_BITWISE_(T, N)                                                      \
    SHMEMD_DECL_REDUCE_(T, N, and) SHMEMD_DECL_REDUCE_(T, N, or) SHMEMD_DECL_REDUCE_(T, N, xor)
#define SHMEMD_DECL_REDUCE_MINMAX_(T, N) SHMEMD_DECL_REDUCE_(T, N, min) SHMEMD_DECL_REDUCE_(T, N, max)
#define SHMEMD_DECL_REDUCE_ARITH_(T, N) SHMEMD_DECL_REDUCE_(T, N, sum) SHMEMD_DECL_REDUCE_(T, N, prod)
SHMEMD_REDUCE_BITWISE_TABLE(SHMEMD_DECL_REDUCE_BITWISE_)
SHMEMD_REDUCE_MINMAX_TABLE(SHMEMD_DECL_REDUCE_MINMAX_)
SHMEMD_REDUCE_ARITH_TABLE(SHMEMD_DECL_REDUCE_ARITH_)
#undef SHMEMD_DECL_REDUCE_
#undef SHMEMD_DECL_REDUCE_BITWISE_
#undef SHMEMD_DECL_REDUCE_MINMAX_
#undef SHMEMD_DECL_REDUCE_ARITH_

#ifdef __cplusplus
}
#endif

#endif
