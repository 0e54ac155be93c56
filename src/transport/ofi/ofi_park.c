/*
 * Small puts parked while libfabric makes the connection to their peer.
 *
 * tcp;ofi_rxm connects on the first operation to a peer and answers
 * -FI_EAGAIN until the peer has accepted, which it does only when it
 * progresses its endpoint. A put that waited there paid one scheduler
 * round trip to the peer; a program that puts to every PE paid them one
 * after another: at 256 PEs as 32 nodes on 2 cores the put to every PE
 * took 70 s, most of it waiting for one peer at a time. A put that fits
 * the provider's inject size (the source is copied at posting anyway) to
 * a peer that no put of the channel has reached yet is instead copied
 * here and posted once the connection is up; the next puts go on to their
 * own peers, so the connections are made side by side. Once a put to the
 * peer was posted, -FI_EAGAIN means full queues, and the put waits for
 * room as before (a stream of puts to one peer is not copied). Per peer
 * the parked puts keep their order, and every operation other than a
 * small put, every wait for writes and every fence posts them all first,
 * so the channel's later operations come after them as before. The
 * progress thread posts them too, so a program that computes after its
 * puts still sees them delivered.
 */
#include <stdlib.h>
#include <string.h>

#include "util/log.h"
#include "util/spin.h"
#include "transport/ofi/ofi_int.h"

/* Puts a channel parks at most; one more posts them all first. */
#define OFI_PARK_MAX 256
/* The owner tries its parked puts again every this many parkings (the
 * progress thread and the waits try them too). */
#define OFI_PARK_RETRY_EVERY 16

/* A peer's state in a channel's park_state (bits). */
enum {
    PARK_QUEUED = 1,    /* puts to it are parked */
    PARK_BLOCKED = 2,   /* it answered -FI_EAGAIN in this pass */
    PARK_CONNECTED = 4, /* a put to it was posted: its connection is made */
};

struct ofi_parked {
    struct ofi_parked *next;
    int pe;
    fi_addr_t addr;
    uint64_t raddr;
    uint64_t key;
    uint64_t flags;
    size_t len;
    char data[];
};

static ssize_t post(struct backend_chan *ch, struct ofi_parked *e)
{
    struct iovec iov = {.iov_base = e->data, .iov_len = e->len};
    void *desc = NULL;
    struct fi_rma_iov rma = {.addr = e->raddr, .len = e->len, .key = e->key};
    struct fi_msg_rma msg = {.msg_iov = &iov, .desc = &desc, .iov_count = 1, .addr = e->addr,
                             .rma_iov = &rma, .rma_iov_count = 1};
    return fi_writemsg(ch->ep, &msg, e->flags);
}

/* Posts what it can of CH's parked puts, in order per peer (park_lock
 * held). Returns how many it posted. */
static unsigned pass(struct backend_chan *ch)
{
    unsigned posted = 0;
    struct ofi_parked **link = &ch->park_head, *e;
    ch->park_tail = NULL;
    while ((e = *link) != NULL) {
        ssize_t rc = (ch->park_state[e->pe] & PARK_BLOCKED) ? -FI_EAGAIN : post(ch, e);
        if (rc == -FI_EAGAIN) {
            ch->park_state[e->pe] |= PARK_BLOCKED;
            ch->park_tail = e;
            link = &e->next;
            continue;
        }
        if (rc != 0)
            ofi_failed("put", e->pe, (int)rc);
        ofi_issued(ch, OFI_WRITES);
        ch->park_state[e->pe] = PARK_CONNECTED;
        *link = e->next;
        free(e);
        posted++;
        /* After ofi_issued: an owner that reads 0 posts past the lock and
         * counts on top of this count. */
        atomic_fetch_sub_explicit(&ch->n_parked, 1, memory_order_release);
    }
    for (e = ch->park_head; e; e = e->next)
        ch->park_state[e->pe] = (ch->park_state[e->pe] & PARK_CONNECTED) | PARK_QUEUED;
    return posted;
}

/* Posts every parked put of CH, waiting for their connections (park_lock
 * held). */
static void drain_locked(struct backend_chan *ch)
{
    uint32_t idle = 0;
    while (pass(ch), ch->park_head)
        oshm_spin_after(ofi_chan_poll(ch) + ofi_target_progress(), &idle);
}

void ofi_park_drain(struct backend_chan *ch)
{
    if (atomic_load_explicit(&ch->n_parked, memory_order_acquire) == 0)
        return;
    pthread_mutex_lock(&ch->park_lock);
    drain_locked(ch);
    pthread_mutex_unlock(&ch->park_lock);
}

unsigned ofi_park_progress(struct backend_chan *ch)
{
    if (atomic_load_explicit(&ch->n_parked, memory_order_acquire) == 0 ||
        pthread_mutex_trylock(&ch->park_lock) != 0)
        return 0;
    unsigned n = pass(ch);
    pthread_mutex_unlock(&ch->park_lock);
    return n;
}

/* CH's state of every PE, made at its first put. */
static uint8_t *states(struct backend_chan *ch)
{
    if (!ch->park_state && !(ch->park_state = calloc((size_t)ofi.n_pes, 1)))
        oshm_fatal("out of memory for a context's %d connection states", ofi.n_pes);
    return ch->park_state;
}

/* Copies MSG's put to the end of CH's parked puts (park_lock held). */
static void park(struct backend_chan *ch, const struct fi_msg_rma *msg, uint64_t flags, int pe)
{
    size_t len = msg->msg_iov[0].iov_len;
    struct ofi_parked *e = malloc(sizeof *e + len);
    if (!e)
        oshm_fatal("out of memory parking a put to PE %d", pe);
    *e = (struct ofi_parked){.pe = pe, .addr = msg->addr, .raddr = msg->rma_iov[0].addr,
                             .key = msg->rma_iov[0].key, .flags = flags, .len = len};
    memcpy(e->data, msg->msg_iov[0].iov_base, len);
    if (ch->park_tail)
        ch->park_tail->next = e;
    else
        ch->park_head = e;
    ch->park_tail = e;
    ch->park_state[pe] |= PARK_QUEUED;
    atomic_fetch_add_explicit(&ch->n_parked, 1, memory_order_relaxed);
    if (++ch->park_count % OFI_PARK_RETRY_EVERY == 0)
        pass(ch);
    progress_thread_kick(&ofi.thread);
}

/* Posts MSG, waiting for room or its connection. */
static void post_wait(struct backend_chan *ch, const struct fi_msg_rma *msg, uint64_t flags, int pe)
{
    OFI_POST(ch, fi_writemsg(ch->ep, msg, flags), "put", pe);
    states(ch)[pe] |= PARK_CONNECTED;
    ofi_issued(ch, OFI_WRITES);
}

/* After fi_writemsg answered RC for MSG to PE: counted, parked, or posted
 * once there is room (park_lock held where puts are parked). */
static void posted_or_parked(struct backend_chan *ch, ssize_t rc, const struct fi_msg_rma *msg,
                             uint64_t flags, int pe)
{
    if (rc == 0) {
        states(ch)[pe] |= PARK_CONNECTED;
        ofi_issued(ch, OFI_WRITES);
    } else if (rc != -FI_EAGAIN) {
        ofi_failed("put", pe, (int)rc);
    } else if (states(ch)[pe] & PARK_CONNECTED) {
        post_wait(ch, msg, flags, pe); /* full queues */
    } else {
        park(ch, msg, flags, pe);
    }
}

void ofi_park_put(struct backend_chan *ch, const struct fi_msg_rma *msg, uint64_t flags, int pe)
{
    ssize_t rc;
    if (flags & FI_FENCE) {
        /* Parked, it would leave the puts after it to other peers
         * unfenced. */
        pthread_mutex_lock(&ch->park_lock);
        drain_locked(ch);
        post_wait(ch, msg, flags, pe);
        pthread_mutex_unlock(&ch->park_lock);
        return;
    }
    if (atomic_load_explicit(&ch->n_parked, memory_order_acquire) == 0) {
        /* Nothing parked: no other thread touches the states. */
        rc = fi_writemsg(ch->ep, msg, flags);
        if (rc == 0 || (rc == -FI_EAGAIN && (states(ch)[pe] & PARK_CONNECTED))) {
            posted_or_parked(ch, rc, msg, flags, pe);
            return;
        }
        pthread_mutex_lock(&ch->park_lock);
        posted_or_parked(ch, rc, msg, flags, pe);
        pthread_mutex_unlock(&ch->park_lock);
        return;
    }
    pthread_mutex_lock(&ch->park_lock);
    if (atomic_load_explicit(&ch->n_parked, memory_order_relaxed) >= OFI_PARK_MAX)
        drain_locked(ch);
    if (ch->park_head && (ch->park_state[pe] & PARK_QUEUED))
        park(ch, msg, flags, pe); /* behind the peer's earlier puts */
    else
        posted_or_parked(ch, fi_writemsg(ch->ep, msg, flags), msg, flags, pe);
    pthread_mutex_unlock(&ch->park_lock);
}

void ofi_park_free(struct backend_chan *ch)
{
    struct ofi_parked *e = ch->park_head;
    while (e) {
        struct ofi_parked *next = e->next;
        free(e);
        e = next;
    }
    ch->park_head = ch->park_tail = NULL;
    atomic_store_explicit(&ch->n_parked, 0, memory_order_relaxed);
    free(ch->park_state);
    ch->park_state = NULL;
}
