/*
 * Fabric handles: what a network transport needs to reach another node's
 * memory. A PE describes itself by one card: the transport's address (how
 * to connect to this PE) and tokens: the extent of each symmetric segment,
 * and each range of it that the transport registered with its remote key
 * (e.g. a packed UCX rkey). Cards are exchanged through the bootstrap at
 * start-up, and cards of new ranges whenever the heap grows; nothing else
 * is needed to reach a peer, so a process without the card cannot address
 * the memory.
 */
#ifndef OSHM_FABRIC_H
#define OSHM_FABRIC_H

#include <stddef.h>
#include <stdint.h>

/* A card describes at most this many ranges. */
#define FABRIC_MAX_TOKENS 64

/* A range of one of the owner's symmetric segments. Without a key it
 * describes the segment itself (its whole reserved range); with one, a part
 * that the transport registered and reaches with that key. */
struct fabric_token {
    uint32_t seg;     /* which symmetric segment */
    uint64_t base;    /* the range's address in its owner */
    uint64_t size;
    const void *key;  /* transport key, KEY_LEN bytes */
    uint32_t key_len;
};

struct fabric_card {
    const void *addr; /* transport address of the PE; none in a card that
                         only adds ranges */
    uint32_t addr_len;
    uint32_t ntokens;
    struct fabric_token token[FABRIC_MAX_TOKENS];
};

/* How cards travel at start-up: a key-value store of the job, whose
 * values become readable by every PE after a collective fence. The
 * bootstrap implements it; init hands it down, so that the layers that
 * exchange cards (here, hcomm) need nothing of the bootstrap's. */
struct fabric_exchange {
    int rank, size;
    /* KEY=VALUE of this PE, readable by the others after the next fence. */
    int (*put)(const char *key, const void *value, size_t len);
    int (*fence)(void); /* collective */
    /* KEY of RANK; the stored value must be exactly LEN bytes. */
    int (*get)(int rank, const char *key, void *value, size_t len);
    /* Collective: LEN bytes of every PE into ALL (size * LEN bytes). */
    int (*allgather)(const void *mine, void *all, size_t len);
    /* Drops what was read so far: nothing reads it again (may be NULL). */
    void (*forget)(void);
    /* 0 when what was published for the last fence stays readable, past
     * forget, at no cost per peer; -1 otherwise (may be NULL: never). */
    int (*retain)(void);
};

/* Serializes CARD into a new buffer (*BLOB, *LEN; free() it). */
int fabric_card_pack(const struct fabric_card *card, void **blob, size_t *len);
/* Parses a packed card; the pointers in CARD point into BLOB. -1 when
 * malformed. */
int fabric_card_unpack(const void *blob, size_t len, struct fabric_card *card);

/* Publishes this PE's packed card under NAME through X (read after X's
 * next fence). */
int fabric_card_publish(const struct fabric_exchange *x, const char *name, const void *blob,
                        size_t len);
/* Reads PE's card published under NAME into a new buffer (free() it). */
int fabric_card_fetch(const struct fabric_exchange *x, int pe, const char *name, void **blob,
                      size_t *len);

#endif
