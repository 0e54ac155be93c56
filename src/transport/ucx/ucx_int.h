/*
 * The UCX backend's own state, shared by its files:
 *   ucx_setup.c     context, registration, cards, peers, growth;
 *   ucx_chan.c      channels (a UCP worker each), links to peers, progress;
 *   ucx_rma.c       the data operations and the ops table.
 *
 * Two kinds of worker. The PE's *target worker* is the one whose address
 * peers connect to: it carries out what UCX emulates in software on the
 * target (every operation over tcp, wire-up everywhere), so it must be
 * progressed while the program computes; a progress thread or the
 * library's waits do that, serialized by target_lock. Each *channel* (one
 * per context) has its own worker for the operations it initiates, so that
 * quiet on a context waits only for that context, private contexts take no
 * lock, and replies to this PE's requests never wake the progress thread.
 */
#ifndef OSHM_TRANSPORT_UCX_INT_H
#define OSHM_TRANSPORT_UCX_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include "transport/ucx/ucx_dl.h"

#include "transport/backend.h"
#include "transport/chan_pool.h"
#include "transport/progress_thread.h"

/* Registered ranges per segment and PE. The heap at least doubles what it
 * backs each time it grows, so a range count this high would need a heap
 * of 2^60 bytes. */
#define UCX_MAX_RANGES 48

/* A registered range of a segment, as offsets from the segment's start. */
struct ucx_range {
    size_t start;
    size_t end;
    void *rkey; /* packed; peers unpack it per endpoint */
    size_t rkey_len;
};

/* What this PE knows of a peer: the address of its target worker, where
 * its segments are, and the ranges it registered. Ranges are appended
 * while other threads may read them: NRANGES is published last, and a
 * range never moves. Every network peer has one of these from start-up:
 * the first range of each segment is kept here, the others (a heap that
 * grew) in MORE, made with the second (1,024 PEs: 1.5 kB a segment and
 * peer when every peer had room for UCX_MAX_RANGES). */
struct backend_peer {
    int pe;
    void *addr;
    size_t addr_len;
    uint64_t base[BACKEND_MAX_SEGS];
    uint64_t size[BACKEND_MAX_SEGS];
    struct ucx_range first[BACKEND_MAX_SEGS];
    struct ucx_range *more[BACKEND_MAX_SEGS]; /* UCX_MAX_RANGES - 1 each, or NULL */
    _Atomic uint32_t nranges[BACKEND_MAX_SEGS];
};

/* Range I (< nranges) of P's segment SEG. */
static inline struct ucx_range *ucx_peer_range(struct backend_peer *p, int seg, uint32_t i)
{
    return i ? &p->more[seg][i - 1] : &p->first[seg];
}

/* A channel's connection to one peer, made on first use. */
struct ucx_link {
    ucp_ep_h ep;
    /* WIRED: a put on EP has completed, so its wire-up is over; until
     * then blocking puts are copied and posted, BOUNCED of them not yet
     * complete (ucx_rma.c, transfer). Under the channel's lock, as every
     * use of the link. */
    bool wired;
    uint32_t bounced;
    ucp_rkey_h *rkey[BACKEND_MAX_SEGS]; /* UCX_MAX_RANGES each, unpacked on first use */
};

/* A channel. Every entry takes LOCK, whatever its mode: the progress thread
 * drives a held channel while the program is away (an uncontended lock
 * costs some 20 ns, an operation over UCX from 150 ns to microseconds). */
struct backend_chan {
    ucp_worker_h worker;
    int efd;                  /* the worker's event descriptor (progress thread on), or -1 */
    enum backend_chan_mode mode;
    pthread_mutex_t lock;     /* recursive: a wait progresses from inside an operation */
    _Atomic bool pending;     /* it may hold work that only progress moves on (the waits') */
    /* An operation left work that needs progress before it leaves or
     * completes (a request UCX kept, an endpoint wiring up): the progress
     * thread flushes the worker until everything up to HELD_GEN is done.
     * Written under LOCK. */
    _Atomic bool held;
    uint64_t held_gen;        /* operations that left held work */
    uint64_t flush_gen;       /* HELD_GEN when the thread's flush began */
    void *flush_req;          /* the thread's flush of the worker, or NULL */
    struct ucx_link **link;   /* per PE */
    struct chan_pool_entry pooled;
};

#define UCX_CHAN_OF(E) CHAN_POOL_OWNER(E, struct backend_chan, pooled)

struct ucx_state {
    ucp_context_h context;
    ucp_worker_h target;
    pthread_mutex_t target_lock;
    ucp_address_t *addr;
    size_t addr_len;
    int my_pe;
    int n_pes;
    const struct backend_seg *seg;
    bool debug;
    bool oversubscribed;
    /* This PE's registrations. */
    ucp_mem_h mem[BACKEND_MAX_SEGS][UCX_MAX_RANGES];
    struct ucx_range range[BACKEND_MAX_SEGS][UCX_MAX_RANGES];
    uint32_t nranges[BACKEND_MAX_SEGS];
    struct backend_peer **peer; /* per PE, once connected */
    /* Open channels, and closed ones kept for the next context (a worker
     * and its connections cost milliseconds). */
    struct chan_pool chans;
    /* The progress thread, when there is one. */
    bool thread_on;
    struct progress_thread thread;
};

extern struct ucx_state ucx;

_Noreturn void ucx_failed(const char *what, int pe, ucs_status_t st);

/* ---- ucx_chan.c ---- */
struct ucx_link *ucx_link_open(struct backend_chan *ch, struct backend_peer *p);
/* The unpacked key of the range of P's segment SEG that holds OFF; *ROOM:
 * bytes from OFF to the end of that range. */
ucp_rkey_h ucx_rkey_slow(struct ucx_link *l, struct backend_peer *p, int seg, size_t off,
                         size_t *room);
/* Waits for REQ (a UCP request or status pointer), progressing CH. */
void ucx_wait(struct backend_chan *ch, void *req, const char *what, int pe);
/* Lets REQ (a UCP request or status pointer) of a posted operation finish
 * in the background: the channel is held until it has. */
void ucx_release(struct backend_chan *ch, void *req, const char *what, int pe);
/* One step of progress of the target worker, unless another thread holds it. */
unsigned ucx_target_progress(void);
int ucx_thread_start(void);
void ucx_thread_stop(void);
int ucx_chan_open(enum backend_chan_mode mode, bool eager, struct backend_chan **ch);
void ucx_chan_close(struct backend_chan *ch);
/* Closes every channel, open or kept (the backend is closing). */
void ucx_chan_close_all(void);
void ucx_chan_share(struct backend_chan *ch);
unsigned ucx_progress(void);

/* ---- ucx_rma.c: the data operations of the ops table ---- */
void ucx_put(struct backend_chan *ch, struct backend_peer *p, int seg, size_t off,
             const void *src, size_t len, bool nbi);
void ucx_get(struct backend_chan *ch, struct backend_peer *p, int seg, size_t off, void *dst,
             size_t len, bool nbi);
void ucx_iput(struct backend_chan *ch, struct backend_peer *p, int seg, size_t off,
              ptrdiff_t rstride, const void *src, ptrdiff_t sstride, size_t elem, size_t nelems);
void ucx_iget(struct backend_chan *ch, struct backend_peer *p, int seg, size_t off,
              ptrdiff_t rstride, void *dst, ptrdiff_t dstride, size_t elem, size_t nelems);
void ucx_signal(struct backend_chan *ch, struct backend_peer *p, int seg, size_t off,
                uint64_t value, enum backend_signal_op op);
uint64_t ucx_amo(struct backend_chan *ch, struct backend_peer *p, int seg, size_t off,
                 enum backend_amo_op op, size_t size, uint64_t operand, uint64_t compare);
void *ucx_ptr(struct backend_peer *p, int seg, size_t off);
void ucx_notify(struct backend_chan *ch, struct backend_peer *p, int seg, size_t off,
                const void *src, size_t len, int sig_seg, size_t sig_off, uint64_t value,
                enum backend_signal_op op);
void ucx_mail(struct backend_chan *ch, struct backend_peer *p, uint64_t tag, const void *src,
              size_t len);
/* The target worker's handlers of peers' notifies and mail (ucx_rma.c). */
int ucx_notify_serve(void);
/* Active message ids of the library's own. */
#define UCX_AM_NOTIFY 1
#define UCX_AM_MAIL 2
/* The most data a notify carries. Above a transport's segment (8 KiB for
 * tcp and shared memory) UCX sends it in eager fragments and hands the
 * handler the whole message; pieces of 4 KiB, each its own send and wait,
 * made a 32 KiB step of a reduction over tcp 2.5x slower (64 KiB sum at 2
 * PEs: 215 us against 80). */
#define UCX_NOTIFY_MAX 65536
void ucx_fence(struct backend_chan *ch);
void ucx_quiet(struct backend_chan *ch);
void ucx_quiet_pe(struct backend_chan *ch, struct backend_peer *p);
const char *ucx_describe(struct backend_peer *p);

static inline struct ucx_link *ucx_link_of(struct backend_chan *ch, struct backend_peer *p)
{
    struct ucx_link *l = ch->link[p->pe];
    return __builtin_expect(l != NULL, 1) ? l : ucx_link_open(ch, p);
}

/* The key for [OFF, OFF + *ROOM) of P's segment SEG; the first range,
 * which holds the library's own words and most small allocations, without
 * a call. */
static inline ucp_rkey_h ucx_rkey(struct ucx_link *l, struct backend_peer *p, int seg, size_t off,
                                  size_t *room)
{
    ucp_rkey_h *k = l->rkey[seg];
    if (__builtin_expect(k && k[0] && off < p->first[seg].end, 1)) {
        *room = p->first[seg].end - off;
        return k[0];
    }
    return ucx_rkey_slow(l, p, seg, off, room);
}

static inline uint64_t ucx_raddr(const struct backend_peer *p, int seg, size_t off)
{
    return p->base[seg] + off;
}

static inline void ucx_enter(struct backend_chan *ch)
{
    pthread_mutex_lock(&ch->lock);
    progress_app_active();
}

static inline void ucx_leave(struct backend_chan *ch) { pthread_mutex_unlock(&ch->lock); }

/* Under CH's lock: an operation was posted whose completion the program
 * does not wait for (an nbi transfer, a non-fetching AMO, a signal), or an
 * endpoint began to wire up. UCX may keep such work until the channel's
 * worker is progressed again (wire-up, queued sends, fragments, the
 * peer's acknowledgement): the progress thread sees it through, whatever
 * the program does next. Only the first since the channel was last seen
 * through costs a fence (and a wake-up, when the thread sleeps). */
static inline void ucx_held(struct backend_chan *ch)
{
    ch->held_gen++;
    if (atomic_load_explicit(&ch->held, memory_order_relaxed))
        return;
    atomic_store_explicit(&ch->pending, true, memory_order_relaxed);
    atomic_store_explicit(&ch->held, true, memory_order_relaxed);
    progress_thread_kick(&ucx.thread);
}

#endif
