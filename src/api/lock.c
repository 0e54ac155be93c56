/*
 * Distributed locks: a ticket lock in the lock word of PE 0. The high half
 * of the word is the next ticket, the low half the ticket being served; a PE
 * takes a ticket with one fetch-add and waits for its turn, so the lock is
 * handed over in request order and no release is ever missed.
 */
#include "api/api.h"
#include "api/ctx.h"
#include "util/spin.h"
#include "util/state.h"

#define TICKET ((uint64_t)1 << 32)
#define LOCK_PE 0

static uint64_t lock_amo(long *lock, enum hcomm_amo_op op, uint64_t v, uint64_t cmp)
{
    return hcomm_amo(&hcomm.default_channel, lock, sizeof *lock, op, v, cmp, LOCK_PE, "lock");
}

static void set_lock_body(long *lock)
{
    oshm_require_init("shmem_set_lock");
    uint64_t word = lock_amo(lock, HCOMM_AMO_FETCH_ADD, TICKET, 0);
    uint32_t mine = (uint32_t)(word >> 32), spins = 0;
    while ((uint32_t)word != mine) {
        oshm_spin_step(&spins);
        word = lock_amo(lock, HCOMM_AMO_FETCH, 0, 0);
    }
}

OSHM_FN(void, shmem_set_lock, (long *lock))
{
    OSHM_PROFILED_LOCAL(OSHM_PROF_lock, "shmem_set_lock", 0, set_lock_body(lock));
}

static int test_lock_body(long *lock)
{
    oshm_require_init("shmem_test_lock");
    uint64_t word = lock_amo(lock, HCOMM_AMO_FETCH, 0, 0);
    if ((uint32_t)(word >> 32) != (uint32_t)word)
        return 1; /* held, or others are waiting */
    return lock_amo(lock, HCOMM_AMO_CSWAP, word + TICKET, word) == word ? 0 : 1;
}

OSHM_FN(int, shmem_test_lock, (long *lock))
{
    int r;
    OSHM_PROFILED_LOCAL(OSHM_PROF_lock, "shmem_test_lock", 0, r = test_lock_body(lock));
    return r;
}

static void clear_lock_body(long *lock)
{
    oshm_require_init("shmem_clear_lock");
    /* Updates made under the lock are visible before the next holder enters. */
    hcomm_quiet(&hcomm.default_channel);
    /* Next turn, without carrying into the ticket half. */
    uint64_t word = lock_amo(lock, HCOMM_AMO_FETCH, 0, 0), seen;
    for (;;) {
        uint64_t next = (word & ~(TICKET - 1)) | (uint32_t)((uint32_t)word + 1);
        seen = lock_amo(lock, HCOMM_AMO_CSWAP, next, word);
        if (seen == word)
            break;
        word = seen;
    }
}

OSHM_FN(void, shmem_clear_lock, (long *lock))
{
    OSHM_PROFILED_LOCAL(OSHM_PROF_lock, "shmem_clear_lock", 0, clear_lock_body(lock));
}
