/*
 * Conventions of the API layer.
 *
 * Profiling interface: every routine is defined as pshmem_NAME, and
 * shmem_NAME is a weak alias of it, so a tool can define shmem_NAME itself
 * and call pshmem_NAME. OSHM_FN(RET, NAME, (PARAMS)) { body } does both.
 */
#ifndef OSHM_API_API_H
#define OSHM_API_API_H

#include <shmem/shmem.h>

#define OSHM_STR_(x) #x
#define OSHM_STR(x) OSHM_STR_(x)

#define OSHM_FN(ret, name, params)                                                       \
    ret p##name params;                                                                  \
    extern __typeof__(p##name) name __attribute__((weak, alias(OSHM_STR(p##name))));      \
    ret p##name params

#endif
