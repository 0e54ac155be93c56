/*
 * Comparisons and waits on local symmetric memory that other PEs update.
 */
#ifndef OSHM_API_P2P_H
#define OSHM_API_P2P_H

#include <shmem/shmem.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/spin.h"

_Noreturn void oshm_bad_cmp(int cmp, const char *routine);

#define OSHM_COMPARE(v, cmp, value, routine)                                                  \
    ((cmp) == SHMEM_CMP_EQ   ? (v) == (value)                                                 \
     : (cmp) == SHMEM_CMP_NE ? (v) != (value)                                                 \
     : (cmp) == SHMEM_CMP_GT ? (v) > (value)                                                  \
     : (cmp) == SHMEM_CMP_GE ? (v) >= (value)                                                 \
     : (cmp) == SHMEM_CMP_LT ? (v) < (value)                                                  \
     : (cmp) == SHMEM_CMP_LE ? (v) <= (value)                                                 \
                             : (oshm_bad_cmp(cmp, routine), false))

static inline uint64_t oshm_wait_u64(uint64_t *word, int cmp, uint64_t value, const char *routine)
{
    uint32_t spins = 0;
    uint64_t v;
    while (!OSHM_COMPARE((v = __atomic_load_n(word, __ATOMIC_ACQUIRE)), cmp, value, routine))
        oshm_spin_step(&spins);
    return v;
}

#endif
