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
 * channel, at fence, quiet and pe_quiet, at the session's end, while the
 * thread that started the session waits in the library (so a put
 * followed by a wait for the peer's answer still gets there), and, when
 * the program leaves the library with a run held, from the progress
 * thread (docs/progress.md: a put leaves without the program's next call).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"
#include "hcomm/hcomm_int.h"
#include "transport/progress_thread.h"

/* Channels with a batch, for the waits' flush (hcomm_progress). */
static pthread_mutex_t batching_lock = PTHREAD_MUTEX_INITIALIZER;
static struct hcomm_batch *batching;

/* Under B's lock. */
static void send_run(struct hcomm_batch *b)
{
    size_t len = b->len;
    if (!len)
        return;
    __atomic_store_n(&b->len, 0, __ATOMIC_RELAXED); /* the thread looks without the lock */
    struct hcomm_channel *ch = b->ch;
    struct hcomm_ep *ep = &hcomm.eps[b->pe];
    hcomm_mark(ch, ep->rma);
    /* Blocking: the run's buffer is reused as soon as this returns. */
    ep->rma_ops->put(ch->bch[ep->rma], ep->rma_peer, b->seg, b->off, b->data, len, false);
}

void hcomm_batch_flush(struct hcomm_channel *ch)
{
    struct hcomm_batch *b = ch->batch;
    pthread_mutex_lock(&b->lock);
    send_run(b);
    pthread_mutex_unlock(&b->lock);
}

bool hcomm_batch_put(struct hcomm_channel *ch, const struct hcomm_ep *ep, int seg, size_t off,
                     const void *src, size_t len)
{
    struct hcomm_batch *b = ch->batch;
    pthread_mutex_lock(&b->lock);
    if ((ep->rma_ops->flags & BACKEND_LOCAL) || len > HCOMM_BATCH_MAX_PUT) {
        send_run(b);
        pthread_mutex_unlock(&b->lock);
        return false;
    }
    if (b->len && (b->pe != ep->pe || b->seg != seg || b->off + b->len != off ||
                   b->len + len > sizeof b->data))
        send_run(b);
    bool first = !b->len;
    if (first) {
        b->pe = ep->pe;
        b->seg = seg;
        b->off = off;
    }
    memcpy(b->data + b->len, src, len);
    __atomic_store_n(&b->len, b->len + len, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&b->lock);
    /* The program is here, and the run must leave even if it never comes
     * back. */
    progress_app_active();
    if (first)
        progress_threads_kick();
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
    pthread_mutex_init(&b->lock, NULL);
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
    pthread_mutex_destroy(&b->lock);
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

unsigned hcomm_batch_drive(void)
{
    if (!__atomic_load_n(&batching, __ATOMIC_RELAXED) || pthread_mutex_trylock(&batching_lock))
        return 0;
    unsigned n = 0;
    for (struct hcomm_batch *b = batching; b; b = b->next)
        if (__atomic_load_n(&b->len, __ATOMIC_RELAXED) && pthread_mutex_trylock(&b->lock) == 0) {
            n += b->len != 0;
            send_run(b);
            pthread_mutex_unlock(&b->lock);
        }
    pthread_mutex_unlock(&batching_lock);
    return n;
}

bool hcomm_batch_held(void)
{
    if (!__atomic_load_n(&batching, __ATOMIC_RELAXED))
        return false;
    if (pthread_mutex_trylock(&batching_lock)) /* a session begins or ends: look again soon */
        return true;
    bool held = false;
    for (struct hcomm_batch *b = batching; b && !held; b = b->next)
        held = __atomic_load_n(&b->len, __ATOMIC_RELAXED) != 0;
    pthread_mutex_unlock(&batching_lock);
    return held;
}
