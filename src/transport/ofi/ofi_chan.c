/*
 * libfabric channels, waits and progress.
 *
 * A channel is an endpoint of its own (with its counters and an error
 * queue) on the PE's one domain and address vector: contexts complete
 * independently, and a private context's endpoint is used by one thread
 * only. A shared channel takes a lock of its own once per operation.
 *
 * Progress. With a provider of manual progress (tcp;ofi_rxm) a peer's
 * operation on this PE's memory happens only while this PE reads its target
 * endpoint's completion queue, and this PE's own operations move only while
 * it reads its channels'. Every wait of the library does both; the progress
 * thread (SHMEM_PROGRESS_THREAD) takes over while the program computes: it
 * polls the target and the channels with operations in flight, and sleeps
 * in their completion queues' wait descriptors (a queue that gets only
 * errors costs nothing per operation; tcp;ofi_rxm's descriptor fires on
 * any message for the endpoint).
 */
#include <sched.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/log.h"
#include "util/spin.h"
#include "transport/ofi/ofi_int.h"

/* Reports the failed operation that CH's error queue holds. */
static _Noreturn void chan_error(struct backend_chan *ch, const char *what, int pe)
{
    struct fi_cq_err_entry e = {0};
    if (fi_cq_readerr(ch->cq, &e, 0) == 1) {
        const char *why = fi_cq_strerror(ch->cq, e.prov_errno, e.err_data, NULL, 0);
        oshm_fatal("libfabric (provider %s): %s by PE %d to PE %d failed: %s (%s)", ofi.prov,
                   what, ofi.my_pe, pe, fi_strerror(e.err), why ? why : "no detail");
    }
    ofi_failed(what, pe, FI_EIO);
}

unsigned ofi_target_progress(void)
{
    progress_app_polled();
    if (pthread_mutex_trylock(&ofi.target_lock) != 0)
        return 0;
    struct fi_cq_entry ent[4];
    ssize_t n = fi_cq_read(ofi.target_cq, ent, 4);
    pthread_mutex_unlock(&ofi.target_lock);
    return n > 0 ? (unsigned)n : 0;
}

unsigned ofi_chan_poll(struct backend_chan *ch)
{
    struct fi_cq_entry ent[4];
    ssize_t n = fi_cq_read(ch->cq, ent, 4);
    if (n == -FI_EAVAIL)
        chan_error(ch, "an operation", -1);
    return n > 0 ? (unsigned)n : 0;
}

/* Idle polls of the channel's counter per poll of the target endpoint, and
 * per look at the counter's errors. Each of them is a round of the
 * provider's progress (fi_cntr_readerr progresses too, and over
 * tcp;ofi_rxm a round is a poll(2) or more): one round a poll keeps the
 * loop short, so that it sees a reply soon after it arrives. Measured with
 * the three rounds a poll of before, 8 alternating runs at load 30-50:
 * put + quiet 20.8 -> 15.8 us, get 20.1 -> 16.0, fetch-add 23.7 -> 21.1. */
#define OFI_WAIT_TARGET_EVERY 4
#define OFI_WAIT_ERRORS_EVERY 16

/* Reads KIND's counter of CH (a round of progress) and records the count. */
static uint64_t read_count(struct backend_chan *ch, int kind)
{
    uint64_t n = fi_cntr_read(kind == OFI_READS ? ch->rcntr : ch->wcntr);
    _Atomic uint64_t *seen = &ch->count[kind].seen;
    uint64_t old = ofi_load(seen);
    while (old < n && !atomic_compare_exchange_weak_explicit(seen, &old, n, memory_order_relaxed,
                                                             memory_order_relaxed))
        ;
    return n;
}

void ofi_wait(struct backend_chan *ch, int kind, const char *what, int pe)
{
    if (kind == OFI_WRITES)
        ofi_park_drain(ch);
    uint64_t want = ofi_load(&ch->count[kind].issued);
    uint32_t idle = 0, polls = 0;
    if (ofi_load(&ch->count[kind].seen) >= want)
        return;
    while (read_count(ch, kind) < want) {
        polls++;
        if (polls % OFI_WAIT_ERRORS_EVERY == 0 &&
            fi_cntr_readerr(kind == OFI_READS ? ch->rcntr : ch->wcntr) != 0)
            chan_error(ch, what, pe);
        /* A peer may wait for this PE's target (a reply, a connection);
         * where PEs outnumber cores each poll may be the last before a
         * yield. */
        unsigned work = 0;
        if (polls % OFI_WAIT_TARGET_EVERY == 0 || ofi.oversubscribed)
            work = ofi_target_progress();
        oshm_spin_after(work, &idle);
    }
}

int ofi_cq_open(struct fid_cq **cq, int *fd)
{
    *fd = -1;
    if (ofi.thread_on) {
        struct fi_cq_attr cqa = {.format = FI_CQ_FORMAT_CONTEXT, .wait_obj = FI_WAIT_FD};
        if (fi_cq_open(ofi.domain, &cqa, cq, NULL) == 0) {
            if (fi_control(&(*cq)->fid, FI_GETWAIT, fd) == 0 && *fd >= 0)
                return 0;
            fi_close(&(*cq)->fid);
            *fd = -1;
        }
    }
    /* The thread then naps between polls. */
    struct fi_cq_attr cqa = {.format = FI_CQ_FORMAT_CONTEXT, .wait_obj = FI_WAIT_NONE};
    return fi_cq_open(ofi.domain, &cqa, cq, NULL);
}

static void add_open(struct backend_chan *ch) { chan_pool_add(&ofi.chans, &ch->pooled); }

static struct backend_chan *take_idle(void)
{
    struct chan_pool_entry *e = chan_pool_take(&ofi.chans);
    return e ? OFI_CHAN_OF(e) : NULL;
}

static void free_chan(struct chan_pool_entry *e);

int ofi_chan_open(enum backend_chan_mode mode, bool eager, struct backend_chan **out)
{
    (void)eager; /* connections are made by the provider on first use */
    struct backend_chan *ch = take_idle();
    if (ch) { /* its endpoint, counters and connections, quiet */
        ch->mode = mode;
        ch->locked = mode == BACKEND_CHAN_SHARED;
        add_open(ch);
        *out = ch;
        return 0;
    }
    ch = calloc(1, sizeof *ch);
    if (!ch)
        return -1;
    ch->mode = mode;
    ch->locked = mode == BACKEND_CHAN_SHARED;
    pthread_mutexattr_t ma;
    pthread_mutexattr_init(&ma);
    pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&ch->lock, &ma);
    pthread_mutexattr_destroy(&ma);
    pthread_mutex_init(&ch->park_lock, NULL);
    ch->cq_fd = -1;
    /* Never waited on in the kernel: a counter with a wait object makes
     * rxm signal it (a write and a read of a pipe) for every completion. */
    struct fi_cntr_attr ca = {.events = FI_CNTR_EVENTS_COMP, .wait_obj = FI_WAIT_NONE};
    const char *step = "opening a context's endpoint";
    int rc;
    if ((rc = fi_endpoint(ofi.domain, ofi.info, &ch->ep, NULL)) != 0 ||
        (rc = ofi_cq_open(&ch->cq, &ch->cq_fd)) != 0 ||
        (rc = fi_cntr_open(ofi.domain, &ca, &ch->wcntr, NULL)) != 0 ||
        (rc = fi_cntr_open(ofi.domain, &ca, &ch->rcntr, NULL)) != 0 ||
        (rc = fi_ep_bind(ch->ep, &ofi.av->fid, 0)) != 0 ||
        (rc = fi_ep_bind(ch->ep, &ch->cq->fid, FI_TRANSMIT | FI_RECV | FI_SELECTIVE_COMPLETION)) != 0 ||
        (rc = fi_ep_bind(ch->ep, &ch->wcntr->fid, FI_WRITE)) != 0 ||
        (rc = fi_ep_bind(ch->ep, &ch->rcntr->fid, FI_READ)) != 0 || (rc = fi_enable(ch->ep)) != 0)
        goto fail;
    if (ofi.mr_mode & FI_MR_LOCAL) {
        step = "registering a context's scratch words";
        ch->scratch = calloc(4, sizeof *ch->scratch);
        if (!ch->scratch) {
            rc = -FI_ENOMEM;
            goto fail;
        }
        uint64_t key = atomic_fetch_add(&ofi.next_key, 1);
        rc = fi_mr_reg(ofi.domain, ch->scratch, 4 * sizeof *ch->scratch, FI_READ | FI_WRITE, 0,
                       key, 0, &ch->scratch_mr, NULL);
        if (rc == 0 && (rc = ofi_mr_ready(ch->scratch_mr, ch->ep)) != 0)
            ch->scratch_mr = NULL;
        if (rc != 0)
            goto fail;
        ch->scratch_desc = fi_mr_desc(ch->scratch_mr);
    }
    add_open(ch);
    *out = ch;
    return 0;
fail:
    oshm_warn("libfabric (provider %s): %s failed on PE %d: %s", ofi.prov, step, ofi.my_pe,
              fi_strerror(-rc));
    free_chan(&ch->pooled); /* never kept: it may be half made */
    return -1;
}

static void free_chan(struct chan_pool_entry *e)
{
    struct backend_chan *ch = OFI_CHAN_OF(e);
    if (ch->scratch_mr)
        fi_close(&ch->scratch_mr->fid);
    if (ch->ep)
        fi_close(&ch->ep->fid);
    if (ch->wcntr)
        fi_close(&ch->wcntr->fid);
    if (ch->rcntr)
        fi_close(&ch->rcntr->fid);
    if (ch->cq)
        fi_close(&ch->cq->fid);
    free(ch->scratch);
    ofi_park_free(ch);
    pthread_mutex_destroy(&ch->park_lock);
    pthread_mutex_destroy(&ch->lock);
    free(ch);
}

/* hcomm has quieted CH: kept for the next context, unless enough are (a
 * channel that failed to open was freed there, never kept). */
void ofi_chan_close(struct backend_chan *ch)
{
    if (!chan_pool_retire(&ofi.chans, &ch->pooled, true))
        free_chan(&ch->pooled);
}

void ofi_chan_close_all(void) { chan_pool_drain(&ofi.chans, free_chan); }

void ofi_chan_share(struct backend_chan *ch)
{
    ch->locked = true;
    ch->mode = BACKEND_CHAN_SHARED;
}

/* The channels with operations in flight, whose queued sends move only
 * while this PE polls them. */
static unsigned chans_progress(void)
{
    unsigned n = 0;
    if (pthread_mutex_trylock(&ofi.chans.lock) != 0)
        return 0;
    /* The domain is thread-safe (FI_THREAD_SAFE): any thread may read a
     * channel's counters. */
    for (struct chan_pool_entry *e = ofi.chans.open; e; e = e->next) {
        struct backend_chan *ch = OFI_CHAN_OF(e);
        n += ofi_park_progress(ch);
        for (int kind = OFI_WRITES; kind <= OFI_READS; kind++)
            if (ofi_in_flight(ch, kind)) {
                uint64_t before = ofi_load(&ch->count[kind].seen);
                n += read_count(ch, kind) > before;
                /* A failed operation is reported, even to a program that
                 * waits on memory rather than in quiet. */
                if (ofi_in_flight(ch, kind) &&
                    atomic_fetch_add_explicit(&ch->idle_looks, 1, memory_order_relaxed) %
                            OFI_WAIT_ERRORS_EVERY == 0)
                    ofi_chan_poll(ch);
            }
    }
    pthread_mutex_unlock(&ofi.chans.lock);
    return n;
}

/* The target endpoint, and the channels with operations in flight. */
unsigned ofi_progress(void)
{
    return ofi_target_progress() + chans_progress();
}

/* ---- the progress thread (transport/progress_thread.h) ---- */

static unsigned thread_poll(void)
{
    pthread_mutex_lock(&ofi.target_lock);
    struct fi_cq_entry ent[4];
    ssize_t n = fi_cq_read(ofi.target_cq, ent, 4);
    pthread_mutex_unlock(&ofi.target_lock);
    return n > 0 ? (unsigned)n : 0;
}

static unsigned thread_drive(void) { return chans_progress(); }

/* The target's wait descriptor and those of the channels with operations
 * in flight, once fi_trywait says that nothing is waiting. */
static int thread_arm(struct pollfd *fds, int max, bool *partial)
{
    if (ofi.target_fd < 0)
        return PROGRESS_ARM_NONE;
    struct fid *fids[PROGRESS_THREAD_MAX_FDS];
    int n = 0;
    fids[n] = &ofi.target_cq->fid;
    fds[n++] = (struct pollfd){.fd = ofi.target_fd, .events = POLLIN};
    bool listed = pthread_mutex_trylock(&ofi.chans.lock) == 0;
    *partial |= !listed;
    for (struct chan_pool_entry *e = listed ? ofi.chans.open : NULL; e; e = e->next) {
        struct backend_chan *ch = OFI_CHAN_OF(e);
        /* Parked puts wait for a connection that no descriptor announces. */
        *partial |= atomic_load_explicit(&ch->n_parked, memory_order_relaxed) != 0;
        if (!ofi_in_flight(ch, OFI_WRITES) && !ofi_in_flight(ch, OFI_READS))
            continue;
        if (n == max || ch->cq_fd < 0) {
            *partial = true;
            continue;
        }
        fids[n] = &ch->cq->fid;
        fds[n++] = (struct pollfd){.fd = ch->cq_fd, .events = POLLIN};
    }
    pthread_mutex_lock(&ofi.target_lock);
    int rc = fi_trywait(ofi.fabric, fids, n);
    pthread_mutex_unlock(&ofi.target_lock);
    if (listed)
        pthread_mutex_unlock(&ofi.chans.lock);
    return rc == 0 ? n : PROGRESS_ARM_BUSY;
}

int ofi_thread_start(void)
{
    ofi.thread = (struct progress_thread){.poll = thread_poll, .drive = thread_drive,
                                          .arm = thread_arm,
                                          .oversubscribed = ofi.oversubscribed,
                                          .waits_for_message = ofi.target_fd >= 0};
    if (progress_thread_start(&ofi.thread, "libfabric") != 0) {
        ofi.thread_on = false;
        return -1;
    }
    return 0;
}

void ofi_thread_stop(void)
{
    if (!ofi.thread_on)
        return;
    progress_thread_stop(&ofi.thread);
    ofi.thread_on = false;
}
