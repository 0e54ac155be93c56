/*
 * UCX channels and progress.
 *
 * A channel's worker serves the thread(s) of its context. Every worker is
 * UCX-serialized under a lock of the channel's own, taken once per
 * operation, whatever the context's sharing: the progress thread drives a
 * channel that holds work while the program is away (below). UCX's
 * multi-threaded mode locks inside every call and cost a quarter of the
 * tcp put bandwidth. Links (an endpoint and unpacked keys per peer) are made
 * on a channel's first operation to that peer.
 *
 * Progress. The target worker carries out peers' operations that UCX
 * emulates in software. Every wait of the library progresses it (and this
 * PE's own channels that may hold queued sends) while it polls; the
 * progress thread takes over while the program is away (below), for the
 * target and for every channel an operation left held work on.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util/log.h"
#include "util/spin.h"
#include "transport/ucx/ucx_int.h"

struct ucx_link *ucx_link_open(struct backend_chan *ch, struct backend_peer *p)
{
    struct ucx_link *l = calloc(1, sizeof *l);
    if (!l)
        oshm_fatal("out of memory connecting to PE %d", p->pe);
    ucp_ep_params_t prm = {.field_mask = UCP_EP_PARAM_FIELD_REMOTE_ADDRESS,
                           .address = p->addr};
    ucs_status_t st = ucp_ep_create(ch->worker, &prm, &l->ep);
    if (st != UCS_OK)
        oshm_fatal("cannot reach PE %d through UCX: %s", p->pe, ucs_status_string(st));
    ch->link[p->pe] = l;
    /* Wire-up goes on in the background, and the first operation that
     * needs the peer's endpoint id waits for it: see it through. */
    ucx_held(ch);
    return l;
}

ucp_rkey_h ucx_rkey_slow(struct ucx_link *l, struct backend_peer *p, int seg, size_t off,
                         size_t *room)
{
    uint32_t n = atomic_load_explicit(&p->nranges[seg], memory_order_acquire);
    uint32_t i = 0;
    while (i < n && off >= ucx_peer_range(p, seg, i)->end)
        i++;
    if (i == n)
        oshm_fatal("offset %zu of segment %d of PE %d is outside the memory it registered (%zu "
                   "bytes)", off, seg, p->pe, n ? ucx_peer_range(p, seg, n - 1)->end : 0);
    if (!l->rkey[seg] && !(l->rkey[seg] = calloc(UCX_MAX_RANGES, sizeof(ucp_rkey_h))))
        oshm_fatal("out of memory unpacking a memory key of PE %d", p->pe);
    if (!l->rkey[seg][i]) {
        const void *packed = ucx_peer_range(p, seg, i)->rkey;
        ucs_status_t st = ucp_ep_rkey_unpack(l->ep, packed, &l->rkey[seg][i]);
        if (st != UCS_OK)
            oshm_fatal("cannot use the memory key of PE %d: %s", p->pe, ucs_status_string(st));
    }
    *room = ucx_peer_range(p, seg, i)->end - off;
    return l->rkey[seg][i];
}

unsigned ucx_target_progress(void)
{
    /* The program is here: the progress thread may stay away. */
    progress_app_polled();
    if (pthread_mutex_trylock(&ucx.target_lock) != 0)
        return 0;
    unsigned n = ucp_worker_progress(ucx.target);
    pthread_mutex_unlock(&ucx.target_lock);
    return n;
}

/* Idle polls of the channel's worker per poll of the target worker. */
#define UCX_WAIT_TARGET_EVERY 4

void ucx_wait(struct backend_chan *ch, void *req, const char *what, int pe)
{
    if (req == NULL)
        return;
    if (UCS_PTR_IS_ERR(req))
        ucx_failed(what, pe, UCS_PTR_STATUS(req));
    ucs_status_t st;
    uint32_t spins = 0, polls = 0;
    /* The target worker serves peers' operations, and this PE's own ones
     * over a transport that the target carries out: a wait progresses it
     * too, but only every few idle polls, since on tcp each poll of a worker
     * is a system call and the channel's worker is what this wait waits for
     * (measured: 8-byte put + quiet over tcp 24.1 -> 22.8 us, medians of 5).
     * Where PEs outnumber cores every idle poll yields the core, so each
     * one polls both. */
    while ((st = ucp_request_check_status(req)) == UCS_INPROGRESS) {
        unsigned n = ucp_worker_progress(ch->worker);
        if (!n && (++polls % UCX_WAIT_TARGET_EVERY == 0 || ucx.oversubscribed))
            n = ucx_target_progress();
        oshm_spin_after(n, &spins);
    }
    ucp_request_free(req);
    if (st != UCS_OK)
        ucx_failed(what, pe, st);
}

void ucx_release(struct backend_chan *ch, void *req, const char *what, int pe)
{
    /* Even a request UCX completed at once may have left work behind it
     * (an AMO's first use of an endpoint asked the peer for its id, and
     * the AMO leaves with the answer). */
    ucx_held(ch);
    if (req == NULL)
        return;
    if (UCS_PTR_IS_ERR(req))
        ucx_failed(what, pe, UCS_PTR_STATUS(req));
    ucp_request_free(req);
}

/* Closed channels kept for reuse, at most this many. */
static void set_mode(struct backend_chan *ch, enum backend_chan_mode mode) { ch->mode = mode; }

static void add_open(struct backend_chan *ch)
{
    chan_pool_add(&ucx.chans, &ch->pooled);
    /* Connections begun before the thread could see the channel. */
    if (atomic_load_explicit(&ch->held, memory_order_relaxed))
        progress_thread_kick(&ucx.thread);
}

/* A kept channel (every worker is serialized: any suits any mode). */
static struct backend_chan *take_idle(void)
{
    struct chan_pool_entry *e = chan_pool_take(&ucx.chans);
    return e ? UCX_CHAN_OF(e) : NULL;
}

int ucx_chan_open(enum backend_chan_mode mode, bool eager, struct backend_chan **out)
{
    struct backend_chan *ch = take_idle();
    if (ch) {
        set_mode(ch, mode);
        add_open(ch);
        *out = ch;
        return 0;
    }
    ch = calloc(1, sizeof *ch);
    if (!ch || !(ch->link = calloc((size_t)ucx.n_pes, sizeof *ch->link))) {
        free(ch);
        return -1;
    }
    set_mode(ch, mode);
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&ch->lock, &a);
    pthread_mutexattr_destroy(&a);
    /* Serialized even for a private context: the progress thread may
     * drive it, under the channel's lock. */
    ucp_worker_params_t wp = {.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE,
                              .thread_mode = UCS_THREAD_MODE_SERIALIZED};
    ucs_status_t st = ucp_worker_create(ucx.context, &wp, &ch->worker);
    if (st != UCS_OK) {
        oshm_warn("cannot create a UCX worker for a context: %s", ucs_status_string(st));
        free(ch->link);
        free(ch);
        return -1;
    }
    ch->efd = -1;
    if (ucx.thread_on && ucp_worker_get_efd(ch->worker, &ch->efd) != UCS_OK)
        ch->efd = -1; /* the thread then looks at it now and then (PROGRESS_THREAD_RECHECK_NS) */
    /* With a progress thread, every PE answers a wire-up whatever its
     * program does, so endpoints wait for first use (issue 29: a hello of
     * 400 PEs as 50 nodes over tcp opened 156,000 connections). Without
     * one, a peer computing outside the library would stall the first
     * operation to it: the default channel connects while all PEs are in
     * shmem_init. */
    for (int pe = 0; eager && !ucx.thread_on && pe < ucx.n_pes; pe++)
        if (ucx.peer[pe])
            ucx_link_open(ch, ucx.peer[pe]);
    add_open(ch);
    *out = ch;
    return 0;
}

void ucx_chan_share(struct backend_chan *ch) { ch->mode = BACKEND_CHAN_SHARED; }

/* Ends the progress thread's flush of CH, if it has one (hcomm quieted CH:
 * it completes at once). */
static void end_thread_flush(struct backend_chan *ch)
{
    pthread_mutex_lock(&ch->lock);
    if (ch->flush_req) {
        while (ucp_request_check_status(ch->flush_req) == UCS_INPROGRESS)
            ucp_worker_progress(ch->worker);
        ucp_request_free(ch->flush_req);
        ch->flush_req = NULL;
    }
    atomic_store_explicit(&ch->held, false, memory_order_relaxed);
    pthread_mutex_unlock(&ch->lock);
}

/* Forgets CH's connections. The endpoints themselves go with the worker:
 * a close with flush waits for peers that may have left already (UCX then
 * reports an endpoint timeout after seconds), and UCX 1.13 refuses a forced
 * close for endpoints without peer error handling. hcomm has made sure that
 * nothing is in flight. */
static void close_links(struct backend_chan *ch)
{
    for (int pe = 0; pe < ucx.n_pes; pe++) {
        struct ucx_link *l = ch->link[pe];
        if (!l)
            continue;
        for (int s = 0; s < BACKEND_MAX_SEGS; s++) {
            for (int i = 0; l->rkey[s] && i < UCX_MAX_RANGES; i++)
                if (l->rkey[s][i])
                    ucp_rkey_destroy(l->rkey[s][i]);
            free(l->rkey[s]);
        }
        free(l);
        ch->link[pe] = NULL;
    }
}

static void free_chan(struct chan_pool_entry *e)
{
    struct backend_chan *ch = UCX_CHAN_OF(e);
    end_thread_flush(ch);
    close_links(ch);
    ucp_worker_destroy(ch->worker);
    pthread_mutex_destroy(&ch->lock);
    free(ch->link);
    free(ch);
}

/* hcomm has quieted CH: it is kept, connections and all, for the next
 * context, unless enough are kept already. */
void ucx_chan_close(struct backend_chan *ch)
{
    if (!ch)
        return;
    end_thread_flush(ch);
    if (!chan_pool_retire(&ucx.chans, &ch->pooled, true))
        free_chan(&ch->pooled);
}

void ucx_chan_close_all(void) { chan_pool_drain(&ucx.chans, free_chan); }

/* Moves CH's queued sends along, unless another thread holds it now. */
static unsigned chan_progress(struct backend_chan *ch)
{
    if (!atomic_load_explicit(&ch->pending, memory_order_relaxed) ||
        pthread_mutex_trylock(&ch->lock) != 0)
        return 0;
    unsigned n = ucp_worker_progress(ch->worker);
    pthread_mutex_unlock(&ch->lock);
    return n;
}

unsigned ucx_progress(void)
{
    unsigned n = ucx_target_progress();
    if (pthread_mutex_trylock(&ucx.chans.lock) != 0)
        return n;
    for (struct chan_pool_entry *e = ucx.chans.open; e; e = e->next)
        n += chan_progress(UCX_CHAN_OF(e));
    pthread_mutex_unlock(&ucx.chans.lock);
    return n;
}

/* ---- the progress thread (transport/progress_thread.h) ----
 *
 * Between bursts it sleeps in the target worker's event descriptor, armed,
 * until a peer's message arrives, and in those of the held channels' workers
 * until the replies they wait for arrive. It never arms a worker while the
 * program polls: every sender would then signal and wake it for messages
 * the program handles anyway (measured: 12 times slower at 4 PEs on 2
 * cores). */

static int target_efd = -1;

static unsigned thread_poll(void)
{
    pthread_mutex_lock(&ucx.target_lock);
    unsigned n = ucp_worker_progress(ucx.target);
    pthread_mutex_unlock(&ucx.target_lock);
    return n;
}

/* Under CH's lock: progresses its worker, and flushes it until everything
 * that made it held has completed (the flush that covers the newest held
 * operation ends the hold). */
static unsigned drive_chan(struct backend_chan *ch)
{
    unsigned n = ucp_worker_progress(ch->worker);
    if (ch->flush_req) {
        if (ucp_request_check_status(ch->flush_req) == UCS_INPROGRESS)
            return n;
        ucp_request_free(ch->flush_req);
        ch->flush_req = NULL;
        n++;
        if (ch->flush_gen == ch->held_gen) {
            atomic_store_explicit(&ch->held, false, memory_order_relaxed);
            return n;
        }
    }
    ch->flush_gen = ch->held_gen;
    ucp_request_param_t prm = {0};
    void *req = ucp_worker_flush_nbx(ch->worker, &prm);
    if (req == NULL || UCS_PTR_IS_ERR(req)) /* done; or failed, which the program's quiet says */
        atomic_store_explicit(&ch->held, false, memory_order_relaxed);
    else
        ch->flush_req = req;
    return n;
}

static unsigned thread_drive(void)
{
    if (pthread_mutex_trylock(&ucx.chans.lock) != 0) /* a context opens or closes */
        return 0;
    unsigned n = 0;
    for (struct chan_pool_entry *e = ucx.chans.open; e; e = e->next) {
        struct backend_chan *ch = UCX_CHAN_OF(e);
        if (!atomic_load_explicit(&ch->held, memory_order_relaxed))
            continue;
        if (pthread_mutex_trylock(&ch->lock) == 0) {
            n += drive_chan(ch);
            pthread_mutex_unlock(&ch->lock);
        }
    }
    pthread_mutex_unlock(&ucx.chans.lock);
    return n;
}

/* Arms the held channels' workers into FDS from N on; the new count, or
 * PROGRESS_ARM_BUSY. */
static int arm_held(struct pollfd *fds, int n, int max, bool *partial)
{
    if (pthread_mutex_trylock(&ucx.chans.lock) != 0) {
        *partial = true;
        return n;
    }
    for (struct chan_pool_entry *e = ucx.chans.open; e; e = e->next) {
        struct backend_chan *ch = UCX_CHAN_OF(e);
        if (!atomic_load_explicit(&ch->held, memory_order_relaxed))
            continue;
        if (n == max || ch->efd < 0 || pthread_mutex_trylock(&ch->lock) != 0) {
            *partial = true;
            continue;
        }
        ucs_status_t st = ucp_worker_arm(ch->worker);
        pthread_mutex_unlock(&ch->lock);
        if (st == UCS_ERR_BUSY) {
            n = PROGRESS_ARM_BUSY;
            break;
        }
        if (st != UCS_OK)
            *partial = true;
        else
            fds[n++] = (struct pollfd){.fd = ch->efd, .events = POLLIN};
    }
    pthread_mutex_unlock(&ucx.chans.lock);
    return n;
}

static int thread_arm(struct pollfd *fds, int max, bool *partial)
{
    if (target_efd < 0)
        return PROGRESS_ARM_NONE;
    pthread_mutex_lock(&ucx.target_lock);
    ucs_status_t st = ucp_worker_arm(ucx.target);
    pthread_mutex_unlock(&ucx.target_lock);
    if (st == UCS_ERR_BUSY)
        return PROGRESS_ARM_BUSY;
    if (st != UCS_OK) {
        oshm_warn("UCX cannot arm the progress thread's wake-up (%s): it polls instead",
                  ucs_status_string(st));
        target_efd = -1;
        ucx.thread.waits_for_message = false; /* the driver lowers its priority */
        return PROGRESS_ARM_NONE;
    }
    fds[0] = (struct pollfd){.fd = target_efd, .events = POLLIN};
    return arm_held(fds, 1, max, partial);
}

static void thread_begin(void)
{
    target_efd = -1;
    pthread_mutex_lock(&ucx.target_lock);
    ucs_status_t st = ucp_worker_get_efd(ucx.target, &target_efd);
    pthread_mutex_unlock(&ucx.target_lock);
    if (st != UCS_OK) {
        oshm_warn("UCX offers no event descriptor (%s): the progress thread polls",
                  ucs_status_string(st));
        target_efd = -1;
        ucx.thread.waits_for_message = false; /* it naps and polls */
    }
}

int ucx_thread_start(void)
{
    ucx.thread = (struct progress_thread){.poll = thread_poll, .drive = thread_drive,
                                          .arm = thread_arm, .begin = thread_begin,
                                          .oversubscribed = ucx.oversubscribed,
                                          .waits_for_message = true};
    if (progress_thread_start(&ucx.thread, "UCX") != 0) {
        ucx.thread_on = false;
        return -1;
    }
    return 0;
}

void ucx_thread_stop(void)
{
    if (!ucx.thread_on)
        return;
    progress_thread_stop(&ucx.thread);
    ucx.thread_on = false;
}
