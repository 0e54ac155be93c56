#include "team/barrier.h"

#include <stdatomic.h>

#include "hcomm/hcomm.h"
#include "team/coll.h"
#include "util/spin.h"

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

/* Central: see barrier.h. The arrival word returns to idle before anyone
 * is released, so the next barrier finds it ready. */
static void barrier_central(const struct oshm_pe_set *set)
{
    struct hcomm_channel *ch = &hcomm.default_channel;
    int64_t *arrive = &set->sync[OSHM_SYNC_ARRIVE_WORD];
    int64_t *release = &set->sync[OSHM_SYNC_RELEASE_WORD];
    int root = oshm_set_pe(set, 0);
    int64_t before = (int64_t)hcomm_amo(ch, arrive, sizeof *arrive, HCOMM_AMO_FETCH_ADD, 1, 0, root,
                                        "barrier");
    if (before == set->idle + set->size - 1) {
        hcomm_amo(ch, arrive, sizeof *arrive, HCOMM_AMO_ADD, (uint64_t)-(int64_t)set->size, 0, root,
                  "barrier");
        for (int i = 0; i < set->size; i++)
            if (i != set->my_index)
                hcomm_signal(ch, (uint64_t *)release, 1, HCOMM_SIGNAL_ADD, oshm_set_pe(set, i),
                             "barrier");
    } else {
        oshm_wait_i64_ge(release, set->idle + 1);
        hcomm_amo(ch, release, sizeof *release, HCOMM_AMO_ADD, (uint64_t)-1, 0, hcomm.my_pe,
                  "barrier");
    }
}

void oshm_barrier_sync(const struct oshm_pe_set *set)
{
    oshm_coll_settle();
    if (set->size <= 1)
        return;
    if (oshm_oversubscribed) {
        barrier_central(set);
        return;
    }
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
