/*
 * Comparisons and waits on local symmetric memory that other PEs update, and
 * the signal operations that update it.
 */
#ifndef OSHM_API_P2P_H
#define OSHM_API_P2P_H

#include <shmem/shmem.h>
#include <stdbool.h>
#include <stdint.h>

#include "hcomm/hcomm.h"
#include "util/log.h"
#include "util/spin.h"

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

/* SHMEM_SIGNAL_SET or SHMEM_SIGNAL_ADD as hcomm's; anything else is fatal. */
static inline enum hcomm_signal_op oshm_signal_op(int sig_op, const char *routine)
{
    if (sig_op == SHMEM_SIGNAL_SET)
        return HCOMM_SIGNAL_SET;
    if (sig_op != SHMEM_SIGNAL_ADD)
        oshm_fatal("%s: sig_op %d is neither SHMEM_SIGNAL_SET nor SHMEM_SIGNAL_ADD", routine, sig_op);
    return HCOMM_SIGNAL_ADD;
}

#endif
