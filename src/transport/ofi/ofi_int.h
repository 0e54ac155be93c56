/*
 * The libfabric backend's own state, shared by its files:
 *   ofi_setup.c   provider choice, domain, registration, cards, peers, growth;
 *   ofi_chan.c    channels (an endpoint each), waits, progress, its thread;
 *   ofi_rma.c     the data operations and the ops table;
 *   ofi_park.c    small puts that wait for their peer's connection.
 *
 * Two kinds of endpoint, as in the UCX backend. The PE's *target endpoint*
 * is the one whose address peers put in their address vectors and the one
 * its memory registrations are bound to (FI_MR_ENDPOINT): with a provider
 * of manual progress (tcp;ofi_rxm) it carries out peers' operations only
 * while someone reads its completion queue, so the library's waits and the
 * progress thread poll it, serialized by target_lock. Each *channel* (one
 * per context) has an endpoint of its own for the operations it initiates,
 * with two completion counters (writes: puts, non-fetching AMOs, signals;
 * reads: gets and fetching AMOs): quiet waits for a counter to reach what
 * the channel issued, as libfabric's RMA model intends, and touches no
 * other context. Every operation asks for delivery completion, so that a
 * counted put is visible at its target, not merely sent.
 */
#ifndef OSHM_TRANSPORT_OFI_INT_H
#define OSHM_TRANSPORT_OFI_INT_H

#include <pthread.h>
#include <rdma/fabric.h>
#include <rdma/fi_atomic.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "transport/backend.h"
#include "transport/chan_pool.h"
#include "transport/progress_thread.h"
#include "util/spin.h"

/* libfabric's exported entry points, loaded at run time (ofi_dl.c). The
 * names below make the backend's calls go through the table. */
struct ofi_dl {
    int (*getinfo)(uint32_t version, const char *node, const char *service, uint64_t flags,
                   const struct fi_info *hints, struct fi_info **info);
    void (*freeinfo)(struct fi_info *info);
    struct fi_info *(*dupinfo)(const struct fi_info *info);
    int (*fabric)(struct fi_fabric_attr *attr, struct fid_fabric **fabric, void *context);
    const char *(*strerror)(int errnum);
};
extern struct ofi_dl ofi_dl;
/* 0 once libfabric is loaded; -1 after saying why it cannot be. */
int ofi_dl_open(void);
#define fi_getinfo ofi_dl.getinfo
#define fi_freeinfo ofi_dl.freeinfo
#define fi_dupinfo ofi_dl.dupinfo
#define fi_fabric ofi_dl.fabric
#define fi_strerror ofi_dl.strerror

/* Registered ranges per segment (the heap at least doubles each time). */
#define OFI_MAX_RANGES 48
/* Raw keys (FI_MR_RAW) longer than this are refused. */
#define OFI_MAX_RAW_KEY 64

/* How fence (and the signal of put-with-signal) orders a channel's writes. */
enum ofi_fence_mode {
    OFI_FENCE_ORDERED, /* the provider keeps RMA and atomics in order */
    OFI_FENCE_FLAG,    /* the next operation carries FI_FENCE */
    OFI_FENCE_WAIT,    /* wait for the earlier writes to complete */
};

/* A registered range of one of this PE's segments. */
struct ofi_range {
    size_t start;
    size_t end;
    struct fid_mr *mr;
    uint64_t key;
    uint64_t raw_base;              /* FI_MR_RAW: what fi_mr_map_raw needs */
    uint8_t raw[OFI_MAX_RAW_KEY];
    size_t raw_len;
    /* The key as it travels in cards: the raw base, then the raw key (or
     * the 8-byte key). */
    uint8_t packed[8 + OFI_MAX_RAW_KEY];
    uint32_t packed_len;
};

/* A peer's registered range as this PE addresses it. */
struct ofi_rrange {
    size_t start;
    size_t end;
    uint64_t key;   /* usable with this PE's domain (mapped when raw) */
    uint64_t addr0; /* the remote address of START: virtual or 0 (offsets) */
    bool mapped;
};

struct backend_peer {
    int pe;
    fi_addr_t addr;
    uint64_t base[BACKEND_MAX_SEGS];
    uint64_t size[BACKEND_MAX_SEGS];
    /* The first range of each segment here, the others (a heap that grew)
     * in MORE, made with the second: every network peer has this from
     * start-up (as ucx_int.h's backend_peer). */
    struct ofi_rrange first[BACKEND_MAX_SEGS];
    struct ofi_rrange *more[BACKEND_MAX_SEGS]; /* OFI_MAX_RANGES - 1 each, or NULL */
    _Atomic uint32_t nranges[BACKEND_MAX_SEGS];
};

/* Range I (< nranges) of P's segment SEG. */
static inline struct ofi_rrange *ofi_peer_range(struct backend_peer *p, int seg, uint32_t i)
{
    return i ? &p->more[seg][i - 1] : &p->first[seg];
}

/* A channel's count of one kind of operation (OFI_WRITES: puts,
 * non-fetching AMOs, signals; OFI_READS: gets, fetching AMOs): how many it
 * posted (its user's thread writes it), and the most that any thread has
 * seen its counter count. A counter read is a round of the provider's
 * progress (a system call or more over tcp): a wait that finds SEEN level
 * with ISSUED reads nothing, and ofi_progress moves along only channels
 * with something in flight. SEEN only grows (seen_at_least), so a thread
 * that saw an older count never hides an operation posted since. */
enum { OFI_WRITES, OFI_READS };
struct ofi_count {
    _Atomic uint64_t issued;
    _Atomic uint64_t seen;
};

struct backend_chan {
    struct fid_ep *ep;
    struct fid_cq *cq;      /* errors only (selective completion) */
    int cq_fd;              /* CQ's wait descriptor (progress thread on), or -1 */
    struct fid_cntr *wcntr; /* writes and non-fetching atomics */
    struct fid_cntr *rcntr; /* reads and fetching atomics */
    /* Operations posted and completions seen, of writes and of reads (see
     * ofi_count). */
    struct ofi_count count[2];
    _Atomic uint32_t idle_looks; /* ofi_progress's looks at it in vain */
    enum backend_chan_mode mode;
    bool locked;           /* SHARED: every entry takes LOCK */
    pthread_mutex_t lock;  /* recursive */
    bool fence_next;       /* OFI_FENCE_FLAG: the next write carries FI_FENCE */
    /* FI_MR_LOCAL: a registered word pair for fetched values. */
    uint64_t *scratch;
    struct fid_mr *scratch_mr;
    void *scratch_desc;
    struct chan_pool_entry pooled;
    /* Small puts waiting for their peer's connection (ofi_park.c): a list
     * under PARK_LOCK, its length (read without the lock), each PE's
     * state (n_pes bytes, made at the channel's first small put), and how
     * many puts were parked. */
    pthread_mutex_t park_lock;
    struct ofi_parked *park_head, *park_tail;
    _Atomic uint32_t n_parked;
    uint8_t *park_state;
    uint32_t park_count;
};

#define OFI_CHAN_OF(E) CHAN_POOL_OWNER(E, struct backend_chan, pooled)

struct ofi_state {
    struct fi_info *info;
    struct fid_fabric *fabric;
    struct fid_domain *domain;
    struct fid_av *av;
    struct fid_ep *target;
    struct fid_cq *target_cq;
    int target_fd;          /* its wait descriptor (progress thread on), or -1 */
    pthread_mutex_t target_lock;
    uint8_t addr[256];
    size_t addr_len;
    const char *prov;   /* the provider's name, for messages */
    uint64_t mr_mode;
    uint64_t forced;    /* FI_MR_* bits imposed by SHMEM_OFI_FORCE */
    uint64_t op_flags;  /* FI_DELIVERY_COMPLETE where the provider has it */
    size_t inject_size;
    size_t max_msg;
    bool manual;        /* FI_PROGRESS_MANUAL (said by SHMEM_INFO; polled either way) */
    enum ofi_fence_mode fence;
    bool raw_ordered;   /* reads (and fetching AMOs) stay after earlier writes */
    /* fi_query_atomic: [size 4/8][op][0 plain, 1 fetching, 2 compare] */
    bool amo_ok[2][FI_ATOMIC_OP_LAST][3];
    int my_pe;
    int n_pes;
    const struct backend_seg *seg;
    bool oversubscribed;
    struct ofi_range range[BACKEND_MAX_SEGS][OFI_MAX_RANGES];
    uint32_t nranges[BACKEND_MAX_SEGS];
    _Atomic uint64_t next_key; /* requested keys of local registrations */
    /* Open channels, and closed ones kept for the next context: an
     * endpoint costs tens of milliseconds to open (tcp;ofi_rxm sets up its
     * buffer pools then), and its connections as much again each. */
    struct chan_pool chans;
    bool thread_on;
    struct progress_thread thread;
};

extern struct ofi_state ofi;

/* A provider's error: names the provider, the routine and the PE. */
_Noreturn void ofi_failed(const char *what, int pe, int err);
/* FI_MR_LOCAL: the descriptor of this PE's own registration that holds
 * [BUF, BUF + LEN) (the symmetric heap and data are registered already);
 * NULL when none does or when it cannot serve (FI_MR_ENDPOINT binds it to
 * the target endpoint only). */
void *ofi_heap_desc(const void *buf, size_t len);
/* Binds MR to the endpoint when the provider wants it (FI_MR_ENDPOINT) and
 * enables it; closes MR and returns the error otherwise. */
int ofi_mr_ready(struct fid_mr *mr, struct fid_ep *ep);

/* ---- ofi_chan.c ---- */
/* Opens a completion queue for errors and progress; with the progress
 * thread on, with a wait descriptor in *FD where the provider has one
 * (else -1). */
int ofi_cq_open(struct fid_cq **cq, int *fd);
int ofi_chan_open(enum backend_chan_mode mode, bool eager, struct backend_chan **ch);
void ofi_chan_close(struct backend_chan *ch);
/* Closes every channel, open or kept (the backend is closing). */
void ofi_chan_close_all(void);
void ofi_chan_share(struct backend_chan *ch);
/* Waits until every operation of KIND (OFI_WRITES, OFI_READS) that CH
 * posted has completed, progressing; a failed operation is fatal with the
 * provider's reason. */
void ofi_wait(struct backend_chan *ch, int kind, const char *what, int pe);
/* One step of progress of CH's endpoint (and of the target endpoint). */
unsigned ofi_chan_poll(struct backend_chan *ch);
unsigned ofi_target_progress(void);
unsigned ofi_progress(void);
int ofi_thread_start(void);
void ofi_thread_stop(void);

/* Retries while the provider's queues are full or the connection to the
 * peer is still being made (tcp;ofi_rxm answers -FI_EAGAIN until the peer
 * accepted), moving them along. The retries wait as any wait does
 * (util/spin.h): where PEs outnumber cores the peer that must accept may
 * need this core. */
#define OFI_POST(ch, call, what, pe)                                                             \
    do {                                                                                         \
        ssize_t rc_;                                                                             \
        uint32_t idle_ = 0;                                                                      \
        while ((rc_ = (call)) == -FI_EAGAIN)                                                     \
            oshm_spin_after(ofi_chan_poll(ch) + ofi_target_progress(), &idle_);                \
        if (rc_ != 0)                                                                            \
            ofi_failed(what, pe, (int)rc_);                                                      \
    } while (0)

/* ---- ofi_park.c ---- */
/* Posts MSG, a put of at most the inject size with FLAGS, or, while the
 * connection to PE is being made, parks a copy of it. */
void ofi_park_put(struct backend_chan *ch, const struct fi_msg_rma *msg, uint64_t flags, int pe);
/* Posts every put CH parked, waiting for their connections: before any
 * other operation, wait for writes or fence of CH. */
void ofi_park_drain(struct backend_chan *ch);
/* Posts what it can of CH's parked puts without waiting (any thread);
 * returns how many. */
unsigned ofi_park_progress(struct backend_chan *ch);
/* Frees what CH parked (the channel is being freed). */
void ofi_park_free(struct backend_chan *ch);

/* ---- ofi_rma.c ---- */
void ofi_put(struct backend_chan *ch, struct backend_peer *p, int seg, size_t off,
             const void *src, size_t len, bool nbi);
void ofi_get(struct backend_chan *ch, struct backend_peer *p, int seg, size_t off, void *dst,
             size_t len, bool nbi);
void ofi_iput(struct backend_chan *ch, struct backend_peer *p, int seg, size_t off,
              ptrdiff_t rstride, const void *src, ptrdiff_t sstride, size_t elem, size_t nelems);
void ofi_iget(struct backend_chan *ch, struct backend_peer *p, int seg, size_t off,
              ptrdiff_t rstride, void *dst, ptrdiff_t dstride, size_t elem, size_t nelems);
void ofi_signal(struct backend_chan *ch, struct backend_peer *p, int seg, size_t off,
                uint64_t value, enum backend_signal_op op);
uint64_t ofi_amo(struct backend_chan *ch, struct backend_peer *p, int seg, size_t off,
                 enum backend_amo_op op, size_t size, uint64_t operand, uint64_t compare);
void ofi_fence(struct backend_chan *ch);
void ofi_quiet(struct backend_chan *ch);

static inline uint64_t ofi_load(const _Atomic uint64_t *v)
{
    return atomic_load_explicit(v, memory_order_relaxed);
}

/* Counts an operation CH just posted. A channel that had nothing in flight
 * now holds work that only progress completes (over tcp;ofi_rxm a first
 * connection, a send that did not fit the socket, the acknowledgement of
 * delivery): the progress thread sees it through while the program is
 * away. */
static inline void ofi_issued(struct backend_chan *ch, int kind)
{
    _Atomic uint64_t *n = &ch->count[kind].issued;
    uint64_t was = ofi_load(n);
    atomic_store_explicit(n, was + 1, memory_order_relaxed); /* one writer at a time */
    if (ofi_load(&ch->count[kind].seen) >= was)
        progress_thread_kick(&ofi.thread);
}

/* Whether operations of KIND that CH posted may still be in flight. */
static inline bool ofi_in_flight(const struct backend_chan *ch, int kind)
{
    return ofi_load(&ch->count[kind].seen) < ofi_load(&ch->count[kind].issued);
}

static inline void ofi_enter(struct backend_chan *ch)
{
    if (ch->locked)
        pthread_mutex_lock(&ch->lock);
    progress_app_active();
}

static inline void ofi_leave(struct backend_chan *ch)
{
    if (ch->locked)
        pthread_mutex_unlock(&ch->lock);
}

#endif
