/*
 * Growth of a segment's backed memory, told to the backends that register
 * memory: each registers the new part and every peer learns its keys
 * before the allocation that grew the segment returns (the allocation is
 * collective, so every PE is here at the same point).
 */
#include <stdio.h>
#include <stdlib.h>

#include "util/log.h"
#include "fabric/fabric.h"
#include "hcomm/hcomm_int.h"

static int exchange(int b, const void *blob, size_t len, unsigned round)
{
    const struct backend_ops *ops = hcomm.backend[b];
    char name[64];
    snprintf(name, sizeof name, "oshm.%s.grow.%u", ops->name, round);
    if (fabric_card_publish(&hcomm_exchange, name, blob, len) != 0 || hcomm_exchange.fence() != 0) {
        oshm_warn("cannot publish the %s keys of new symmetric memory", ops->name);
        return -1;
    }
    for (int p = 0; p < hcomm.n_pes; p++) {
        /* A peer not reached yet is reached now, from its start-up card:
         * the keys of this growth could not be read later (the exchange
         * forgets them below). */
        if (!atomic_load_explicit(&hcomm.eps[p].reached, memory_order_acquire))
            hcomm_reach(&hcomm.eps[p]);
        struct backend_peer *peer = hcomm.eps[p].peer[b];
        if (!peer || p == hcomm.my_pe)
            continue;
        void *theirs = NULL;
        size_t tlen = 0;
        int rc = fabric_card_fetch(&hcomm_exchange, p, name, &theirs, &tlen);
        if (rc == 0 && tlen)
            rc = ops->peer_grow(peer, theirs, tlen);
        free(theirs);
        if (rc != 0) {
            oshm_warn("cannot learn the %s keys of PE %d's new symmetric memory", ops->name, p);
            return -1;
        }
    }
    if (hcomm_exchange.forget)
        hcomm_exchange.forget(); /* read once, as at start-up */
    return 0;
}

/* A PE that cannot register or publish its new memory cannot go on, and the
 * others wait for it in the exchange: the job ends with the reason. */
int hcomm_seg_grow(int seg, size_t committed)
{
    struct backend_seg *s = &hcomm.seg[seg];
    if (committed <= s->committed)
        return 0;
    s->committed = committed;
    for (int b = 0; b < hcomm.n_backends; b++) {
        const struct backend_ops *ops = hcomm.backend[b];
        if (!ops->grow)
            continue;
        void *blob = NULL;
        size_t len = 0;
        int rc = ops->grow(seg, committed, &blob, &len);
        /* This PE's own key reaches itself too: its endpoint to itself. */
        if (rc == 0 && len && hcomm.eps[hcomm.my_pe].peer[b])
            rc = ops->peer_grow(hcomm.eps[hcomm.my_pe].peer[b], blob, len);
        if (rc == 0)
            rc = exchange(b, blob, len, hcomm.grow_count);
        free(blob);
        if (rc != 0)
            oshm_fatal("symmetric memory grew to %zu bytes, and the %s backend cannot make "
                       "the new part reachable", committed, ops->name);
    }
    hcomm.grow_count++;
    return 0;
}
