/*
 * Batches of a SHMEM_CTX_SESSION_BATCH session (OpenSHMEM 1.6): small puts
 * to consecutive addresses of one PE through a network backend are copied
 * into the channel's run and leave as one put. A put is a message to the
 * network (a system call each over tcp), and a loop of shmem_p over an
 * array is the common case the hint names; over shared memory a put is a
 * store and is never held.
 *
 * Nothing else changes: a put returns once its source may be reused (it
 * was copied), and the run leaves before any other operation of the
 * channel, at fence, quiet and pe_quiet, at the session's end, and while
 * the thread that started the session waits in the library (so a put
 * followed by a wait for the peer's answer still gets there).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"
#include "hcomm/hcomm_int.h"

/* Channels with a batch, for the waits' flush (hcomm_progress). */
static pthread_mutex_t batching_lock = PTHREAD_MUTEX_INITIALIZER;
static struct hcomm_batch *batching;

void hcomm_batch_flush(struct hcomm_channel *ch)
{
    struct hcomm_batch *b = ch->batch;
    size_t len = b->len;
    if (!len)
        return;
    b->len = 0;
    struct hcomm_ep *ep = &hcomm.eps[b->pe];
    hcomm_mark(ch, ep->rma);
    /* Blocking: the run's buffer is reused as soon as this returns. */
    ep->rma_ops->put(ch->bch[ep->rma], ep->rma_peer, b->seg, b->off, b->data, len, false);
}

bool hcomm_batch_put(struct hcomm_channel *ch, const struct hcomm_ep *ep, int seg, size_t off,
                     const void *src, size_t len)
{
    struct hcomm_batch *b = ch->batch;
    if ((ep->rma_ops->flags & BACKEND_LOCAL) || len > HCOMM_BATCH_MAX_PUT) {
        hcomm_batch_flush(ch);
        return false;
    }
    if (b->len && (b->pe != ep->pe || b->seg != seg || b->off + b->len != off ||
                   b->len + len > sizeof b->data))
        hcomm_batch_flush(ch);
    if (!b->len) {
        b->pe = ep->pe;
        b->seg = seg;
        b->off = off;
    }
    memcpy(b->data + b->len, src, len);
    b->len += len;
    return true;
}

void hcomm_batch_begin(struct hcomm_channel *ch)
{
    /* Threads that share a channel at once would share the run too. */
    if (ch->batch || ch->mode == HCOMM_CHAN_SHARED || !hcomm.mixed)
        return;
    struct hcomm_batch *b = calloc(1, sizeof *b);
    if (!b)
        return; /* a hint: without memory, no batching */
    b->ch = ch;
    b->owner = pthread_self();
    pthread_mutex_lock(&batching_lock);
    b->next = batching;
    batching = b;
    ch->batch = b;
    pthread_mutex_unlock(&batching_lock);
}

void hcomm_batch_end(struct hcomm_channel *ch)
{
    struct hcomm_batch *b = ch->batch;
    if (!b)
        return;
    hcomm_batch_flush(ch);
    pthread_mutex_lock(&batching_lock);
    for (struct hcomm_batch **p = &batching; *p; p = &(*p)->next)
        if (*p == b) {
            *p = b->next;
            break;
        }
    ch->batch = NULL;
    pthread_mutex_unlock(&batching_lock);
    free(b);
}

unsigned hcomm_batch_progress(void)
{
    if (!__atomic_load_n(&batching, __ATOMIC_RELAXED) || pthread_mutex_trylock(&batching_lock))
        return 0;
    unsigned n = 0;
    pthread_t self = pthread_self();
    for (struct hcomm_batch *b = batching; b; b = b->next)
        if (b->len && pthread_equal(b->owner, self)) {
            hcomm_batch_flush(b->ch);
            n++;
        }
    pthread_mutex_unlock(&batching_lock);
    return n;
}
