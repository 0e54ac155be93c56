#include "team/barrier.h"

#include <stdatomic.h>

#include "core/spin.h"
#include "hcomm/hcomm.h"

void oshm_wait_u64_ge(const uint64_t *word, uint64_t value)
{
    const _Atomic uint64_t *w = (const _Atomic uint64_t *)word;
    uint32_t spins = 0;
    while (atomic_load_explicit(w, memory_order_acquire) < value)
        oshm_spin_step(&spins);
}

void oshm_barrier_sync(const struct oshm_pe_set *set, struct oshm_barrier_sync *sync)
{
    if (set->size <= 1)
        return;
    uint64_t epoch = ++sync->epoch;
    struct hcomm_channel *ch = &hcomm.default_channel;
    for (int k = 0, dist = 1; dist < set->size; k++, dist <<= 1) {
        int to = (set->my_index + dist) % set->size;
        hcomm_signal(ch, &sync->flag[k], epoch, HCOMM_SIGNAL_SET,
                     set->start + to * set->stride, "barrier");
        oshm_wait_u64_ge(&sync->flag[k], epoch);
    }
}
