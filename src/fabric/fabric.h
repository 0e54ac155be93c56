/*
 * Fabric handles: what a network transport needs to reach another node's
 * memory. A PE describes itself by one card: the transport's address (how
 * to connect to this PE) and one token per symmetric segment (the segment's
 * base and size in this PE plus the transport's remote key for it, e.g. a
 * packed UCX rkey). Cards are exchanged through the bootstrap at start-up;
 * nothing else is needed to reach a peer, so a process without the card
 * cannot address the memory.
 */
#ifndef OSHM_FABRIC_H
#define OSHM_FABRIC_H

#include <stddef.h>
#include <stdint.h>

#define FABRIC_MAX_SEGS 4

struct fabric_token {
    uint64_t base;    /* the segment's address in its owner */
    uint64_t size;
    const void *key;  /* transport key, KEY_LEN bytes; none when KEY_LEN is 0 */
    uint32_t key_len;
};

struct fabric_card {
    const void *addr; /* transport address of the PE */
    uint32_t addr_len;
    uint32_t ntokens;
    struct fabric_token token[FABRIC_MAX_SEGS];
};

/* Serializes CARD into a new buffer (*BLOB, *LEN; free() it). */
int fabric_card_pack(const struct fabric_card *card, void **blob, size_t *len);
/* Parses a packed card; the pointers in CARD point into BLOB. -1 when
 * malformed. */
int fabric_card_unpack(const void *blob, size_t len, struct fabric_card *card);

/* Publishes this PE's packed card under NAME (before a bootstrap fence). */
int fabric_card_publish(const char *name, const void *blob, size_t len);
/* Reads PE's card published under NAME into a new buffer (free() it). */
int fabric_card_fetch(int pe, const char *name, void **blob, size_t *len);

#endif
