/*
 * The registered ranges of symmetric segments, as a network backend tells
 * its peers about them in cards (fabric.h) and learns theirs: the
 * bookkeeping that every such backend (UCX, libfabric) needs, with only
 * the keys its own. A segment is registered range by range as its backed
 * part grows, so a peer's ranges of a segment come in order, without gaps,
 * inside the segment's extent; lookups rely on that.
 */
#ifndef OSHM_FABRIC_RANGES_H
#define OSHM_FABRIC_RANGES_H

#include <stddef.h>
#include <stdint.h>

#include "fabric/fabric.h"

/* Appends to CARD the token of a segment's extent (no key). */
int fabric_card_add_segment(struct fabric_card *card, uint32_t seg, uint64_t base, uint64_t size);

/* Appends to CARD the token of the range [START, END) of segment SEG (whose
 * owner maps it at SEG_BASE), reached with KEY; -1 when the card is full. */
int fabric_card_add_range(struct fabric_card *card, uint32_t seg, uint64_t seg_base, size_t start,
                          size_t end, const void *key, uint32_t key_len);

/* What a backend keeps of a peer's ranges, for fabric_card_learn. */
struct fabric_peer_ranges {
    void *peer;
    uint64_t *base; /* per segment: the extent the peer's card gave */
    uint64_t *size;
    int nsegs;
    uint32_t max_ranges;
    /* How many ranges of SEG are known; *END: where the last one ends. */
    uint32_t (*count)(void *peer, int seg, size_t *end);
    /* Keeps range number N of SEG, [START, END), with T's key, and publishes
     * it (readers see the range once the count includes it). */
    int (*add)(void *peer, int seg, uint32_t n, size_t start, size_t end,
               const struct fabric_token *t);
};

/* Takes in every token of CARD (a peer's card, or the ranges its heap grew
 * by); -1 when one is malformed or out of order. */
int fabric_card_learn(const struct fabric_card *card, const struct fabric_peer_ranges *pr);

#endif
