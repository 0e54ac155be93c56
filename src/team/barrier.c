#include "team/barrier.h"

#include <stdatomic.h>

#include "core/spin.h"
#include "hcomm/hcomm.h"

/* Set at start-up from the node's PE count and this PE's CPU set. */
bool oshm_oversubscribed = true;

void oshm_wait_i64_ge(const int64_t *word, int64_t value)
{
    const _Atomic int64_t *w = (const _Atomic int64_t *)word;
    uint32_t spins = 0;
    while (atomic_load_explicit(w, memory_order_acquire) < value)
        oshm_spin_step(&spins);
}

int64_t oshm_wait_i64_ne(const int64_t *word, int64_t value)
{
    const _Atomic int64_t *w = (const _Atomic int64_t *)word;
    uint32_t spins = 0;
    int64_t v;
    while ((v = atomic_load_explicit(w, memory_order_acquire)) == value)
        oshm_spin_step(&spins);
    return v;
}

void oshm_barrier_sync(const struct oshm_pe_set *set)
{
    if (set->size <= 1)
        return;
    struct hcomm_channel *ch = &hcomm.default_channel;
    for (int k = 0, dist = 1; dist < set->size; k++, dist <<= 1) {
        int to = (set->my_index + dist) % set->size;
        int64_t *word = &set->sync[k];
        hcomm_signal(ch, (uint64_t *)word, 1, HCOMM_SIGNAL_ADD, oshm_set_pe(set, to), "barrier");
        oshm_wait_i64_ge(word, set->idle + 1);
        /* Through hcomm, like the peer's add: a backend's atomics are atomic
         * only among themselves. */
        hcomm_amo(ch, word, sizeof *word, HCOMM_AMO_ADD, (uint64_t)-1, 0, hcomm.my_pe, "barrier");
    }
}
