/*
 * The channels of a network backend (one per context, each an endpoint or
 * worker of its own): those open, for the progress that walks them and for
 * teardown, and closed ones kept, quiet, for the next context, since an
 * endpoint and its connections cost milliseconds to make. The UCX and
 * libfabric backends keep theirs alike; what a channel is stays theirs
 * (a struct chan_pool_entry inside it).
 */
#ifndef OSHM_TRANSPORT_CHAN_POOL_H
#define OSHM_TRANSPORT_CHAN_POOL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

/* Closed channels kept, at most this many. */
#define CHAN_POOL_KEEP 4

struct chan_pool_entry {
    struct chan_pool_entry *next;
};

struct chan_pool {
    /* Guards both lists. Progress takes it with a trylock and walks OPEN
     * under it, so that a channel cannot close under the walk. */
    pthread_mutex_t lock;
    struct chan_pool_entry *open;
    struct chan_pool_entry *idle;
    unsigned nidle;
};

#define CHAN_POOL_INIT {.lock = PTHREAD_MUTEX_INITIALIZER}

/* The channel of TYPE whose entry MEMBER is E. */
#define CHAN_POOL_OWNER(E, TYPE, MEMBER) ((TYPE *)(void *)((char *)(E) - offsetof(TYPE, MEMBER)))

/* A kept channel, now out of the pool, or NULL. */
struct chan_pool_entry *chan_pool_take(struct chan_pool *p);
/* E joins the open channels. */
void chan_pool_add(struct chan_pool *p, struct chan_pool_entry *e);
/* E (quiet) leaves the open channels; true when it is kept (KEEPABLE and
 * room), false when the caller frees it. */
bool chan_pool_retire(struct chan_pool *p, struct chan_pool_entry *e, bool keepable);
/* Empties both lists (the backend is closing; nothing in flight), each
 * channel through FREE_ENTRY. */
void chan_pool_drain(struct chan_pool *p, void (*free_entry)(struct chan_pool_entry *e));

#endif
