/*
 * UCX channels and progress.
 *
 * A channel's worker serves the thread(s) of its context, in the UCX
 * thread mode its sharing allows: a private context's worker is
 * single-threaded and takes no lock; a serialized one is UCX-serialized;
 * a shared one (SHMEM_THREAD_MULTIPLE without a context option, or the
 * default context once the device's threads use it) is UCX-serialized
 * under a lock of the channel's own, taken once per operation: UCX's
 * multi-threaded mode locks inside every call and cost a quarter of the
 * tcp put bandwidth. Links (an endpoint and unpacked keys per peer) are made
 * on a channel's first operation to that peer.
 *
 * Progress. The target worker carries out peers' operations that UCX
 * emulates in software. Every wait of the library progresses it (and this
 * PE's own channels that may hold queued sends) while it polls; the
 * progress thread takes over while the program is away (below).
 */
#include <errno.h>
#include <poll.h>
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
    /* Wire-up goes on in the background: let waits move it along. */
    atomic_store_explicit(&ch->pending, true, memory_order_relaxed);
    return l;
}

ucp_rkey_h ucx_rkey_slow(struct ucx_link *l, struct backend_peer *p, int seg, size_t off,
                         size_t *room)
{
    uint32_t n = atomic_load_explicit(&p->nranges[seg], memory_order_acquire);
    uint32_t i = 0;
    while (i < n && off >= p->range[seg][i].end)
        i++;
    if (i == n)
        oshm_fatal("offset %zu of segment %d of PE %d is outside the memory it registered (%zu "
                   "bytes)", off, seg, p->pe, n ? p->range[seg][n - 1].end : 0);
    if (!l->rkey[seg] && !(l->rkey[seg] = calloc(UCX_MAX_RANGES, sizeof(ucp_rkey_h))))
        oshm_fatal("out of memory unpacking a memory key of PE %d", p->pe);
    if (!l->rkey[seg][i]) {
        ucs_status_t st = ucp_ep_rkey_unpack(l->ep, p->range[seg][i].rkey, &l->rkey[seg][i]);
        if (st != UCS_OK)
            oshm_fatal("cannot use the memory key of PE %d: %s", p->pe, ucs_status_string(st));
    }
    *room = p->range[seg][i].end - off;
    return l->rkey[seg][i];
}

unsigned ucx_target_progress(void)
{
    /* The program is here: the progress thread may stay away. */
    progress_thread_app_polled(&ucx.thread);
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

/* Closed channels kept for reuse, at most this many. */
#define UCX_IDLE_CHANNELS 4

static void set_mode(struct backend_chan *ch, enum backend_chan_mode mode)
{
    ch->mode = mode;
    ch->owner = pthread_self();
    ch->locked = mode == BACKEND_CHAN_SHARED;
}

static void add_open(struct backend_chan *ch)
{
    pthread_mutex_lock(&ucx.chans_lock);
    ch->next = ucx.chans;
    ucx.chans = ch;
    pthread_mutex_unlock(&ucx.chans_lock);
}

static void unlink_from(struct backend_chan **list, struct backend_chan *ch)
{
    for (struct backend_chan **c = list; *c; c = &(*c)->next)
        if (*c == ch) {
            *c = ch->next;
            return;
        }
}

/* A kept channel whose worker's thread mode suits MODE: a single-threaded
 * worker only for the thread it served. */
static struct backend_chan *take_idle(enum backend_chan_mode mode)
{
    pthread_mutex_lock(&ucx.chans_lock);
    struct backend_chan *found = NULL;
    for (struct backend_chan *c = ucx.idle; c && !found; c = c->next)
        if (mode == BACKEND_CHAN_PRIVATE ? c->mode == BACKEND_CHAN_PRIVATE &&
                                               pthread_equal(c->owner, pthread_self())
                                         : c->mode != BACKEND_CHAN_PRIVATE)
            found = c;
    if (found) {
        unlink_from(&ucx.idle, found);
        ucx.nidle--;
    }
    pthread_mutex_unlock(&ucx.chans_lock);
    return found;
}

int ucx_chan_open(enum backend_chan_mode mode, bool eager, struct backend_chan **out)
{
    struct backend_chan *ch = take_idle(mode);
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
    ucp_worker_params_t wp = {.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE,
                              .thread_mode = mode == BACKEND_CHAN_PRIVATE
                                                 ? UCS_THREAD_MODE_SINGLE
                                                 : UCS_THREAD_MODE_SERIALIZED};
    ucs_status_t st = ucp_worker_create(ucx.context, &wp, &ch->worker);
    if (st != UCS_OK) {
        oshm_warn("cannot create a UCX worker for a context: %s", ucs_status_string(st));
        free(ch->link);
        free(ch);
        return -1;
    }
    for (int pe = 0; eager && pe < ucx.n_pes; pe++)
        if (ucx.peer[pe])
            ucx_link_open(ch, ucx.peer[pe]);
    add_open(ch);
    *out = ch;
    return 0;
}

void ucx_chan_share(struct backend_chan *ch)
{
    ch->mode = BACKEND_CHAN_SHARED;
    ch->locked = true;
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

static void free_chan(struct backend_chan *ch)
{
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
    pthread_mutex_lock(&ucx.chans_lock);
    unlink_from(&ucx.chans, ch);
    bool keep = ucx.nidle < UCX_IDLE_CHANNELS;
    if (keep) {
        ch->next = ucx.idle;
        ucx.idle = ch;
        ucx.nidle++;
    }
    pthread_mutex_unlock(&ucx.chans_lock);
    if (!keep)
        free_chan(ch);
}

void ucx_chan_close_all(void)
{
    for (struct backend_chan **list = &ucx.chans; list; list = list == &ucx.chans ? &ucx.idle : NULL)
        while (*list) {
            struct backend_chan *ch = *list;
            *list = ch->next;
            free_chan(ch);
        }
    ucx.nidle = 0;
}

/* Moves CH's queued sends along, if this thread may touch it now: a shared
 * channel when no other thread holds it, any other only from the thread
 * that used it last. */
static unsigned chan_progress(struct backend_chan *ch)
{
    unsigned n = 0;
    if (!atomic_load_explicit(&ch->pending, memory_order_relaxed))
        return 0;
    if (ch->mode == BACKEND_CHAN_SHARED) {
        if (pthread_mutex_trylock(&ch->lock) != 0)
            return 0;
        n = ucp_worker_progress(ch->worker);
        pthread_mutex_unlock(&ch->lock);
    } else if (pthread_equal(ch->owner, pthread_self())) {
        n = ucp_worker_progress(ch->worker);
    }
    return n;
}

unsigned ucx_progress(void)
{
    unsigned n = ucx_target_progress();
    if (pthread_mutex_trylock(&ucx.chans_lock) != 0)
        return n;
    for (struct backend_chan *ch = ucx.chans; ch; ch = ch->next)
        n += chan_progress(ch);
    pthread_mutex_unlock(&ucx.chans_lock);
    return n;
}

/* ---- the progress thread (transport/progress_thread.h) ----
 *
 * Between bursts it sleeps in the target worker's event descriptor, armed,
 * until a peer's message arrives. It never arms the worker while the
 * program polls: every sender would then signal and wake it for messages
 * the program handles anyway (measured: 12 times slower at 4 PEs on 2
 * cores). */

static int thread_efd = -1;

static unsigned thread_poll(void)
{
    pthread_mutex_lock(&ucx.target_lock);
    unsigned n = ucp_worker_progress(ucx.target);
    pthread_mutex_unlock(&ucx.target_lock);
    return n;
}

/* Sleeps until a peer's message may be waiting (or a while, without an
 * event descriptor). */
static void sleep_for_message(void)
{
    if (thread_efd >= 0) {
        pthread_mutex_lock(&ucx.target_lock);
        ucs_status_t st = ucp_worker_arm(ucx.target);
        pthread_mutex_unlock(&ucx.target_lock);
        if (st == UCS_ERR_BUSY)
            return;
        if (st == UCS_OK) {
            struct pollfd pfd = {.fd = thread_efd, .events = POLLIN};
            while (poll(&pfd, 1, -1) < 0 && errno == EINTR)
                ;
            return;
        }
        oshm_warn("UCX cannot arm the progress thread's wake-up (%s): it polls instead",
                  ucs_status_string(st));
        thread_efd = -1;
        ucx.thread.waits_for_message = false; /* the driver lowers its priority */
    }
    struct timespec pause = {0, 50000};
    nanosleep(&pause, NULL);
}

static void thread_begin(void)
{
    thread_efd = -1;
    pthread_mutex_lock(&ucx.target_lock);
    ucs_status_t st = ucp_worker_get_efd(ucx.target, &thread_efd);
    pthread_mutex_unlock(&ucx.target_lock);
    if (st != UCS_OK) {
        oshm_warn("UCX offers no event descriptor (%s): the progress thread polls",
                  ucs_status_string(st));
        thread_efd = -1;
        ucx.thread.waits_for_message = false; /* it naps and polls */
    }
}

/* Wakes the thread from its sleep in the event descriptor. */
static void thread_wake(void) { ucp_worker_signal(ucx.target); }

int ucx_thread_start(void)
{
    ucx.thread = (struct progress_thread){.poll = thread_poll, .sleep = sleep_for_message,
                                          .begin = thread_begin, .wake = thread_wake,
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
