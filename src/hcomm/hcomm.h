/*
 * Communication resources of one PE:
 *   domain   which PEs exist, which node each is on, which backend reaches it;
 *   segment  a symmetric address range of this process (heap, data segment,
 *            device heap);
 *   endpoint how this PE reaches one peer: the backend that carries RMA, the
 *            one that carries AMOs and signals, and each one's peer state;
 *   channel  one per context: the unit that fence and quiet act on, with a
 *            channel of each backend inside.
 *
 * Every RMA, AMO, signal, fence and quiet goes through a backend's ops table
 * (src/transport/backend.h); the layers above never know which backend
 * they use.
 *
 * Ordering across paths. One PE may reach another through two backends
 * (stores to a same-node peer or to this PE itself, AMOs and signals through
 * the network once the job spans nodes), and the program's own memory stores
 * through shmem_ptr are a path too. Each backend orders only its own
 * operations, so a fence cannot stay an ordering-only request for network
 * operations to such a PE: what comes after it may take another path (a
 * store, which no backend sees). A channel records the backends it used
 * since the last quiet and, of those, the network backends that carried
 * operations to a PE reached by two paths; fence completes (quiets) the
 * latter and only orders the rest. A job with a single backend skips all of
 * it.
 */
#ifndef OSHM_HCOMM_H
#define OSHM_HCOMM_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "transport/backend.h"

struct fabric_exchange;

enum hcomm_seg_id {
    HCOMM_SEG_HEAP = 0,
    HCOMM_SEG_DATA = 1,
    HCOMM_SEG_DEVICE = 2, /* the device heap (src/device) */
    HCOMM_MAX_SEGS = BACKEND_MAX_SEGS,
};

#define HCOMM_MAX_BACKENDS 4

enum hcomm_signal_op {
    HCOMM_SIGNAL_SET = BACKEND_SIGNAL_SET,
    HCOMM_SIGNAL_ADD = BACKEND_SIGNAL_ADD,
};

enum hcomm_amo_op {
    HCOMM_AMO_FETCH = BACKEND_AMO_FETCH,
    HCOMM_AMO_SET = BACKEND_AMO_SET,
    HCOMM_AMO_SWAP = BACKEND_AMO_SWAP,
    HCOMM_AMO_CSWAP = BACKEND_AMO_CSWAP,
    HCOMM_AMO_FETCH_ADD = BACKEND_AMO_FETCH_ADD,
    HCOMM_AMO_ADD = BACKEND_AMO_ADD,
    HCOMM_AMO_FETCH_AND = BACKEND_AMO_FETCH_AND,
    HCOMM_AMO_AND = BACKEND_AMO_AND,
    HCOMM_AMO_FETCH_OR = BACKEND_AMO_FETCH_OR,
    HCOMM_AMO_OR = BACKEND_AMO_OR,
    HCOMM_AMO_FETCH_XOR = BACKEND_AMO_FETCH_XOR,
    HCOMM_AMO_XOR = BACKEND_AMO_XOR,
};

/* How the threads of a context may use its channel. */
enum hcomm_chan_mode {
    HCOMM_CHAN_PRIVATE = BACKEND_CHAN_PRIVATE,
    HCOMM_CHAN_SERIALIZED = BACKEND_CHAN_SERIALIZED,
    HCOMM_CHAN_SHARED = BACKEND_CHAN_SHARED,
};

struct hcomm_ep {
    int pe;
    bool dual;        /* RMA and AMOs go through different backends */
    uint8_t rma, amo; /* index of the backend in hcomm.backend[] */
    /* The peers below are set: a peer of this node is reached through
     * the local backend when this PE first addresses it (hcomm_reach), so
     * that a PE of a large node holds state only for the peers it uses. */
    _Atomic bool reached;
    const struct backend_ops *rma_ops, *amo_ops;
    struct backend_peer *rma_peer, *amo_peer;
    struct backend_peer *peer[HCOMM_MAX_BACKENDS]; /* each backend's, NULL if it does not reach PE */
};

/* A SHMEM_CTX_SESSION_BATCH session's run of small puts (hcomm_batch.c). */
#define HCOMM_BATCH_MAX_PUT 256 /* larger puts are sent as they come */
struct hcomm_batch {
    struct hcomm_channel *ch;
    pthread_t owner; /* the session's thread: its waits send the run */
    /* The run and every send of it: the progress thread sends a run the
     * program left (the program away); the program's next operation on
     * the channel sends it first, under this lock, so the two never post
     * on the channel at once. */
    pthread_mutex_t lock;
    struct hcomm_batch *next;
    int pe, seg;
    size_t off; /* where the run starts at PE */
    size_t len; /* bytes held; 0: none */
    char data[8192];
};

struct hcomm_channel {
    struct backend_chan *bch[HCOMM_MAX_BACKENDS];
    struct hcomm_batch *batch; /* while a BATCH session runs, or NULL */
    enum hcomm_chan_mode mode;
    /* Bit b stands for hcomm.backend[b]. */
    _Atomic unsigned used;    /* operations since the last quiet */
    _Atomic unsigned crossed; /* of those, operations to a PE reached by two paths */
};

struct hcomm_config {
    /* The backends there are, NULL-ended, in order of preference: hcomm
     * opens the first local one, and a network one when it needs one. */
    const struct backend_ops *const *backends;
    enum hcomm_chan_mode default_mode; /* from the thread level */
    bool progress_thread;
    /* How this PE meets the others at start-up and when the heap grows
     * (copied): the bootstrap's store, handed down by init. */
    const struct fabric_exchange *exchange;
};

struct hcomm_domain {
    int my_pe;
    int n_pes;
    int my_node;
    bool oversubscribed;     /* a node runs more PEs than it has cores for them */
    /* Some PE's default channel is used by threads at once (it runs under
     * SHMEM_THREAD_MULTIPLE): the same on every PE, from the start-up
     * exchange. */
    bool shared_somewhere;
    int *node_of;            /* node index of each PE (0-based, in order of first PE) */
    bool node_mapped;        /* PEs of a node map each other (not SHMEM_TRANSPORT=ucx/ofi) */
    pid_t *pid_of;
    struct backend_seg seg[HCOMM_MAX_SEGS];
    struct hcomm_ep *eps;    /* one per PE, including this one */
    const struct backend_ops *backend[HCOMM_MAX_BACKENDS]; /* open backends, local first */
    int n_backends;
    bool mixed;              /* several backends: operations are ordered across them */
    bool amo_over_network;   /* every AMO and signal goes through the network backend */
    unsigned grow_count;     /* exchanges of new registrations so far */
    struct hcomm_channel default_channel;
};

extern struct hcomm_domain hcomm;

/* Makes a local range symmetric; peers reach it at the same offset. Before
 * hcomm_init. COMMITTED: bytes from BASE that have memory behind them. */
void hcomm_register_seg(int seg, uintptr_t base, size_t size, size_t committed,
                        const struct vmm_handle *mem);

/* Collective over the bootstrap: learns where every PE is, opens the
 * backends it needs and connects an endpoint to each PE. */
int hcomm_init(const struct hcomm_config *cfg);
void hcomm_fini(void);

/* Collective (every PE, at the same point of a symmetric allocation): SEG
 * now has COMMITTED bytes of memory behind it; backends that must describe
 * new memory to their peers do so before this returns. No-op when it did
 * not grow; a failure ends the job. */
int hcomm_seg_grow(int seg, size_t committed);

/* A channel for a new context; destroying it completes its operations. */
int hcomm_channel_create(enum hcomm_chan_mode mode, struct hcomm_channel **ch);
void hcomm_channel_destroy(struct hcomm_channel *ch);

_Noreturn void hcomm_bad_pe(int pe, const char *routine);
_Noreturn void hcomm_bad_addr(const void *addr, size_t len, int pe, const char *routine);

/* Which segment holds [addr, addr+len); -1 if none. */
static inline int hcomm_seg_of(const void *addr, size_t len)
{
    uintptr_t a = (uintptr_t)addr;
    for (int s = HCOMM_SEG_HEAP; s <= HCOMM_SEG_DEVICE; s++) {
        const struct backend_seg *g = &hcomm.seg[s];
        if (a - g->base < g->size && len <= g->size - (a - g->base))
            return s;
    }
    return -1;
}

/* Connects EP's peers on its first use (any thread; once). */
void hcomm_reach(struct hcomm_ep *ep);

static inline struct hcomm_ep *hcomm_ep_of(int pe, const char *routine)
{
    if (__builtin_expect((unsigned)pe >= (unsigned)hcomm.n_pes, 0))
        hcomm_bad_pe(pe, routine);
    struct hcomm_ep *ep = &hcomm.eps[pe];
    if (__builtin_expect(!atomic_load_explicit(&ep->reached, memory_order_acquire), 0))
        hcomm_reach(ep);
    return ep;
}

/* Which PEs map each other's memory: those of one node, unless
 * SHMEM_TRANSPORT sends everything through the network (then each PE is a
 * group of its own). The same answer on every PE. */
static inline int hcomm_map_group(int pe) { return hcomm.node_mapped ? hcomm.node_of[pe] : -1 - pe; }

/* True when this PE reaches PE's memory with plain loads and stores. */
static inline bool hcomm_load_store(int pe)
{
    return (hcomm.eps[pe].rma_ops->flags & BACKEND_LOCAL) != 0;
}

/* The name of the backend that carries RMA to PE. */
static inline const char *hcomm_backend_name(int pe) { return hcomm.eps[pe].rma_ops->name; }

/* Where a symmetric address lies: its segment and offset. */
static inline size_t hcomm_offset(const void *addr, size_t len, int *seg, int pe,
                                  const char *routine)
{
    int s = hcomm_seg_of(addr, len);
    if (__builtin_expect(s < 0, 0))
        hcomm_bad_addr(addr, len, pe, routine);
    *seg = s;
    return (uintptr_t)addr - hcomm.seg[s].base;
}

/* A local pointer to PE's copy of ADDR, or NULL. */
static inline void *hcomm_ptr(const void *addr, int pe, const char *routine)
{
    struct hcomm_ep *ep = hcomm_ep_of(pe, routine);
    int s = hcomm_seg_of(addr, 1);
    if (s < 0)
        return NULL;
    return ep->rma_ops->ptr(ep->rma_peer, s, (uintptr_t)addr - hcomm.seg[s].base);
}

/* ---- ordering across paths (see the top of this file) ---- */

static inline void hcomm_set_bit(_Atomic unsigned *mask, unsigned b)
{
    unsigned bit = 1u << b;
    if (!(atomic_load_explicit(mask, memory_order_relaxed) & bit))
        atomic_fetch_or_explicit(mask, bit, memory_order_relaxed);
}

/* CH used backend B: quiet must reach it. */
static inline void hcomm_mark(struct hcomm_channel *ch, unsigned b)
{
    if (__builtin_expect(hcomm.mixed, 0))
        hcomm_set_bit(&ch->used, b);
}

/* An AMO or signal through EP's AMO backend. */
static inline void hcomm_mark_amo(struct hcomm_channel *ch, const struct hcomm_ep *ep)
{
    if (__builtin_expect(hcomm.mixed, 0)) {
        hcomm_set_bit(&ch->used, ep->amo);
        if (ep->dual)
            hcomm_set_bit(&ch->crossed, ep->amo);
    }
}

/* ---- batches of a BATCH session (hcomm_batch.c) ---- */
/* Starts or ends batching on CH (no-op where it would not help or is not
 * safe: a channel shared by threads at once, a job without a network). */
void hcomm_batch_begin(struct hcomm_channel *ch);
void hcomm_batch_end(struct hcomm_channel *ch);
/* Takes a put into CH's run; false when it must go as it is (the run was
 * sent first). */
bool hcomm_batch_put(struct hcomm_channel *ch, const struct hcomm_ep *ep, int seg, size_t off,
                     const void *src, size_t len);
/* Sends CH's run. */
void hcomm_batch_flush(struct hcomm_channel *ch);
/* Sends the runs of the calling thread's sessions (from its waits). */
unsigned hcomm_batch_progress(void);
/* The progress thread's: sends every run that waits (the program away),
 * and says whether one still does. */
unsigned hcomm_batch_drive(void);
bool hcomm_batch_held(void);

/* Every operation but a batched put sends the run first. */
static inline void hcomm_unbatch(struct hcomm_channel *ch)
{
    if (__builtin_expect(ch->batch != NULL, 0))
        hcomm_batch_flush(ch);
}

static inline void hcomm_put(struct hcomm_channel *ch, void *dest, const void *src, size_t len,
                             int pe, bool nbi, const char *routine)
{
    struct hcomm_ep *ep = hcomm_ep_of(pe, routine);
    if (__builtin_expect(!len, 0))
        return;
    int seg;
    size_t off = hcomm_offset(dest, len, &seg, pe, routine);
    if (__builtin_expect(ch->batch != NULL, 0) && hcomm_batch_put(ch, ep, seg, off, src, len))
        return;
    hcomm_mark(ch, ep->rma);
    ep->rma_ops->put(ch->bch[ep->rma], ep->rma_peer, seg, off, src, len, nbi);
}

static inline void hcomm_get(struct hcomm_channel *ch, void *dest, const void *src, size_t len,
                             int pe, bool nbi, const char *routine)
{
    struct hcomm_ep *ep = hcomm_ep_of(pe, routine);
    if (__builtin_expect(!len, 0))
        return;
    int seg;
    size_t off = hcomm_offset(src, len, &seg, pe, routine);
    hcomm_unbatch(ch);
    hcomm_mark(ch, ep->rma);
    ep->rma_ops->get(ch->bch[ep->rma], ep->rma_peer, seg, off, dest, len, nbi);
}

/* The signal of put-with-signal: after the data, whichever backend carried
 * it. */
static inline void hcomm_signal(struct hcomm_channel *ch, uint64_t *sig, uint64_t value,
                                enum hcomm_signal_op op, int pe, const char *routine)
{
    struct hcomm_ep *ep = hcomm_ep_of(pe, routine);
    int seg;
    size_t off = hcomm_offset(sig, sizeof *sig, &seg, pe, routine);
    hcomm_unbatch(ch);
    /* The data went through the RMA backend (a local one, when the two
     * differ: its stores are done, they need only be ordered first). */
    if (ep->dual)
        ep->rma_ops->fence(ch->bch[ep->rma]);
    hcomm_mark_amo(ch, ep);
    ep->amo_ops->signal(ch->bch[ep->amo], ep->amo_peer, seg, off, value,
                        (enum backend_signal_op)op);
}

/* LEN bytes of SRC to PE's DEST (symmetric), and PE's *SIG grows by
 * hcomm_notify_units(LEN) once all of them are visible: over a network as
 * few messages as the backend allows (each of its notifies carries a piece
 * and adds that piece's length), else a put and one signal. For the
 * library's own protocols: not ordered with CH's other operations (fence
 * first where that matters), and complete, at quiet, only as far as this PE
 * goes: the signal is what the target waits for. SRC may be reused on
 * return. */
void hcomm_notify(struct hcomm_channel *ch, void *dest, const void *src, size_t len,
                  uint64_t *sig, int pe, const char *routine);

/* Mail: LEN bytes (at most HCOMM_MAIL_MAX) of SRC that land in PE's own
 * memory, not at a symmetric address, kept under this PE's number and TAG
 * until PE takes them (hcomm_mail_take), however early they arrive: for
 * the library's collectives, whose receive space at a target is not free
 * before the target is in the call. Only where hcomm_mail_between(this PE,
 * PE), which any PE answers alike for any pair of world PEs. SRC may be
 * reused on return. */
#define HCOMM_MAIL_MAX 65536
bool hcomm_mail_between(int a, int b);
void hcomm_mail(struct hcomm_channel *ch, int pe, uint64_t tag, const void *src, size_t len,
                const char *routine);
/* Waits for PE's mail under TAG (as any wait: progressing, yielding as the
 * wait policy says), copies its LEN bytes to DST and forgets it. */
void hcomm_mail_take(int pe, uint64_t tag, void *dst, size_t len);

/* What a notify of LEN bytes adds to its signal word. */
static inline int64_t hcomm_notify_units(size_t len) { return len ? (int64_t)len : 1; }

static inline uint64_t hcomm_amo(struct hcomm_channel *ch, void *dest, size_t size,
                                 enum hcomm_amo_op op, uint64_t operand, uint64_t compare,
                                 int pe, const char *routine)
{
    struct hcomm_ep *ep = hcomm_ep_of(pe, routine);
    int seg;
    size_t off = hcomm_offset(dest, size, &seg, pe, routine);
    hcomm_unbatch(ch);
    hcomm_mark_amo(ch, ep);
    return ep->amo_ops->amo(ch->bch[ep->amo], ep->amo_peer, seg, off, (enum backend_amo_op)op,
                            size, operand, compare);
}

/* Byte extent of NBLOCKS blocks of BLOCK bytes whose starts are STRIDE
 * elements of ELEM bytes apart; SIZE_MAX (no segment holds it) when that
 * does not fit in a size_t or a stride in bytes would not fit in a
 * ptrdiff_t. */
static inline size_t hcomm_blocks_extent(ptrdiff_t stride, size_t elem, size_t block,
                                         size_t nblocks)
{
    size_t step = stride < 0 ? (size_t)0 - (size_t)stride : (size_t)stride, ext;
    if (!nblocks)
        return 0;
    if (__builtin_mul_overflow(step, elem, &step) || step > (size_t)PTRDIFF_MAX ||
        __builtin_mul_overflow(nblocks - 1, step, &ext) || __builtin_add_overflow(ext, block, &ext))
        return SIZE_MAX;
    return ext;
}

/* Byte extent of NELEMS elements of ELEM bytes STRIDE elements apart. */
static inline size_t hcomm_strided_extent(ptrdiff_t stride, size_t elem, size_t nelems)
{
    return hcomm_blocks_extent(stride, elem, elem, nelems);
}

/* The offset of a strided transfer's first block at ADDR, once every block
 * is known to lie in one segment (a negative stride runs downwards). */
static inline size_t hcomm_strided_offset(const void *addr, ptrdiff_t stride, size_t elem,
                                          size_t block, size_t nblocks, int *seg, int pe,
                                          const char *routine)
{
    size_t ext = hcomm_blocks_extent(stride, elem, block, nblocks);
    size_t below = stride < 0 && ext != SIZE_MAX ? ext - block : 0;
    return hcomm_offset((const void *)((uintptr_t)addr - below), ext, seg, pe, routine) + below;
}

/* Strided transfers: NBLOCKS blocks of BLOCK bytes, the blocks' starts DST
 * (remote: SST for gets) and SST elements of ELEM bytes apart. A block is
 * one element of the backend's strided transfer, so iput (BLOCK = ELEM)
 * and the blocked ibput of OpenSHMEM 1.6 share one path. */
static inline void hcomm_ibput(struct hcomm_channel *ch, void *dest, const void *src,
                               ptrdiff_t dst, ptrdiff_t sst, size_t elem, size_t block,
                               size_t nblocks, int pe, const char *routine)
{
    struct hcomm_ep *ep = hcomm_ep_of(pe, routine);
    if (!nblocks || !block)
        return;
    int seg;
    size_t off = hcomm_strided_offset(dest, dst, elem, block, nblocks, &seg, pe, routine);
    hcomm_unbatch(ch);
    hcomm_mark(ch, ep->rma);
    ep->rma_ops->iput(ch->bch[ep->rma], ep->rma_peer, seg, off, dst * (ptrdiff_t)elem, src,
                      sst * (ptrdiff_t)elem, block, nblocks);
}

static inline void hcomm_ibget(struct hcomm_channel *ch, void *dest, const void *src,
                               ptrdiff_t dst, ptrdiff_t sst, size_t elem, size_t block,
                               size_t nblocks, int pe, const char *routine)
{
    struct hcomm_ep *ep = hcomm_ep_of(pe, routine);
    if (!nblocks || !block)
        return;
    int seg;
    size_t off = hcomm_strided_offset(src, sst, elem, block, nblocks, &seg, pe, routine);
    hcomm_unbatch(ch);
    hcomm_mark(ch, ep->rma);
    ep->rma_ops->iget(ch->bch[ep->rma], ep->rma_peer, seg, off, sst * (ptrdiff_t)elem, dest,
                      dst * (ptrdiff_t)elem, block, nblocks);
}

static inline void hcomm_iput(struct hcomm_channel *ch, void *dest, const void *src,
                              ptrdiff_t dst, ptrdiff_t sst, size_t elem, size_t nelems, int pe,
                              const char *routine)
{
    hcomm_ibput(ch, dest, src, dst, sst, elem, elem, nelems, pe, routine);
}

static inline void hcomm_iget(struct hcomm_channel *ch, void *dest, const void *src,
                              ptrdiff_t dst, ptrdiff_t sst, size_t elem, size_t nelems, int pe,
                              const char *routine)
{
    hcomm_ibget(ch, dest, src, dst, sst, elem, elem, nelems, pe, routine);
}

/* Fence and quiet reach every backend the channel used. */
void hcomm_fence(struct hcomm_channel *ch);
void hcomm_quiet(struct hcomm_channel *ch);
/* Completes CH's operations to the NPES world PEs of PES (valid numbers);
 * a backend that cannot single out a PE completes all of its own. */
void hcomm_pe_quiet(struct hcomm_channel *ch, const int *pes, size_t npes);
/* Progresses every backend that needs it; waits call it while they poll. */
unsigned hcomm_progress(void);
/* Threads other than the program's will use the default channel from now
 * on (the device's): before they start. */
void hcomm_threads_begin(void);

#endif
