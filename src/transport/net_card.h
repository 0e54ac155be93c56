/*
 * What the network backends (UCX, libfabric) do alike with the memory they
 * register and the cards peers learn it from: a segment is registered
 * range by range as its backed part grows, a card carries the PE's address,
 * its segments' extents and every range with its key, and a growth note
 * the ranges added since. Only registering a range and what its key is
 * stay each backend's own (struct net_ranges).
 */
#ifndef OSHM_TRANSPORT_NET_CARD_H
#define OSHM_TRANSPORT_NET_CARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fabric/fabric.h"
#include "fabric/fabric_ranges.h"
#include "transport/backend.h"

/* This PE's registrations, as one backend keeps them. */
struct net_ranges {
    const char *name;              /* "UCX", "libfabric": for messages */
    const struct backend_seg *seg; /* this PE's segments */
    const uint32_t *nranges;       /* registered ranges of each segment */
    uint32_t max_ranges;
    /* Range I of segment SEG: [*START, *END), reached with *KEY_LEN bytes
     * at *KEY. */
    void (*range)(int seg, uint32_t i, size_t *start, size_t *end, const void **key,
                  uint32_t *key_len);
    /* Registers [START, END) of SEG as its next range (net_range_allowed
     * said yes). */
    int (*add)(int seg, size_t start, size_t end);
};

/* Whether [START, END) of SEG may be registered as its next range: a free
 * slot, and memory behind every byte of it (a fabric that pins pages would
 * fail on memory that does not exist, or pin the wrong pages). Says why
 * not. */
bool net_range_allowed(const struct net_ranges *r, int seg, size_t start, size_t end);

/* Registers every segment's committed part (start-up). */
int net_register_committed(const struct net_ranges *r);

/* This PE's card: ADDR, every segment's extent and every range. */
int net_card(const struct net_ranges *r, const void *addr, size_t addr_len, void **blob,
             size_t *len);

/* Registers SEG up to COMMITTED and packs a note of the new ranges into
 * *BLOB (NULL, 0 when SEG had grown no further). */
int net_grow(const struct net_ranges *r, int seg, size_t committed, void **blob, size_t *len);

/* Takes PE's card (WITH_ADDR: it must name an address) or growth note in
 * BLOB into what PR keeps of the peer; CARD: the parse, pointing into BLOB.
 * -1, said as NAME's malformed card from PE, when it does not parse. */
int net_learn(const char *name, int pe, const void *blob, size_t len, bool with_addr,
              const struct fabric_peer_ranges *pr, struct fabric_card *card);

#endif
