/*
 * Communication resources of one PE:
 *   domain   which PEs exist, which node each is on, which backend reaches it;
 *   segment  a symmetric address range of this process (heap, data segment);
 *   endpoint how this PE reaches one peer: backend ops plus, per segment, the
 *            address at which the peer's copy is reached and the backend's key;
 *   channel  one per context: the unit that fence and quiet complete.
 *
 * Every RMA, signal, fence and quiet goes through the endpoint's ops table;
 * the layers above never know which backend they use.
 */
#ifndef OSHM_HCOMM_H
#define OSHM_HCOMM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "vmm/vmm.h"

enum hcomm_seg_id {
    HCOMM_SEG_HEAP = 0,
    HCOMM_SEG_DATA = 1,
    HCOMM_SEG_DEVICE = 2, /* the device heap (src/device) */
    HCOMM_MAX_SEGS = 4,
};

/* Each backend keeps its per-peer state in ep->priv[id]. */
enum hcomm_backend_id {
    HCOMM_BACKEND_SHM = 0,
    HCOMM_BACKEND_UCX = 1,
    HCOMM_MAX_BACKENDS = 4,
};

enum hcomm_signal_op {
    HCOMM_SIGNAL_SET = 0,
    HCOMM_SIGNAL_ADD = 1,
};

enum hcomm_amo_op {
    HCOMM_AMO_FETCH,
    HCOMM_AMO_SET,
    HCOMM_AMO_SWAP,
    HCOMM_AMO_CSWAP,
    HCOMM_AMO_FETCH_ADD,
    HCOMM_AMO_ADD,
    HCOMM_AMO_FETCH_AND,
    HCOMM_AMO_AND,
    HCOMM_AMO_FETCH_OR,
    HCOMM_AMO_OR,
    HCOMM_AMO_FETCH_XOR,
    HCOMM_AMO_XOR,
};

struct hcomm_seg {
    uintptr_t base;         /* local address of this PE's copy */
    size_t size;            /* bytes reachable by peers */
    struct vmm_handle mem;  /* its physical memory, shared with peers */
};

struct hcomm_channel;
struct hcomm_ep;

struct hcomm_ops {
    const char *name;
    enum hcomm_backend_id id;
    /* RADDR is where the peer's memory is reached: ep->seg_base[seg] + offset.
     * Non-blocking forms complete at quiet; blocking ones on return (put:
     * the source may be reused). */
    void (*put)(struct hcomm_channel *ch, struct hcomm_ep *ep, int seg, uintptr_t raddr,
                const void *src, size_t len, bool nbi);
    void (*get)(struct hcomm_channel *ch, struct hcomm_ep *ep, int seg, void *dst,
                uintptr_t raddr, size_t len, bool nbi);
    /* Strided: NELEMS elements of ELEM bytes; strides in bytes. */
    void (*iput)(struct hcomm_channel *ch, struct hcomm_ep *ep, int seg, uintptr_t raddr,
                 ptrdiff_t rstride, const void *src, ptrdiff_t sstride, size_t elem,
                 size_t nelems);
    void (*iget)(struct hcomm_channel *ch, struct hcomm_ep *ep, int seg, void *dst,
                 ptrdiff_t dstride, uintptr_t raddr, ptrdiff_t rstride, size_t elem,
                 size_t nelems);
    /* Atomically sets or adds a 64-bit word, after every earlier put of this
     * channel to the same PE is visible (the signal of put-with-signal). */
    void (*signal)(struct hcomm_channel *ch, struct hcomm_ep *ep, int seg, uintptr_t raddr,
                   uint64_t value, enum hcomm_signal_op op);
    /* Atomic OP on the 4- or 8-byte word at RADDR; returns the old value for
     * fetching operations. Atomic with respect to every other AMO on the
     * same word from any PE. */
    uint64_t (*amo)(struct hcomm_channel *ch, struct hcomm_ep *ep, int seg, uintptr_t raddr,
                    enum hcomm_amo_op op, size_t size, uint64_t operand, uint64_t compare);
    /* A pointer for direct load/store, or NULL when the peer is not mapped. */
    void *(*ptr)(struct hcomm_ep *ep, int seg, uintptr_t raddr);
    void (*fence)(struct hcomm_channel *ch);
    void (*quiet)(struct hcomm_channel *ch);
    /* Moves this PE's share of the communication along (a backend whose
     * peers' operations are carried out by the target's CPU); NULL if none. */
    void (*progress)(void);
    /* From now on several threads may call the ops at once (called while
     * only one thread uses the library); NULL when that is always fine. */
    void (*threads)(void);
};

struct hcomm_ep {
    const struct hcomm_ops *ops;     /* RMA */
    const struct hcomm_ops *amo_ops; /* AMOs and signals: see hcomm_init */
    int pe;
    /* Where OPS address the peer's segments: the mapping in this process for
     * shm, the peer's own address for a network backend. */
    uintptr_t seg_base[HCOMM_MAX_SEGS];
    void *priv[HCOMM_MAX_BACKENDS];
};

struct hcomm_channel {
    struct hcomm_domain *domain;
    void *priv;
};

struct hcomm_domain {
    int my_pe;
    int n_pes;
    int my_node;
    bool oversubscribed;     /* a node runs more PEs than it has cores for them */
    int *node_of;            /* node index of each PE (0-based, in order of first PE) */
    pid_t *pid_of;
    struct hcomm_seg seg[HCOMM_MAX_SEGS];
    struct hcomm_ep *eps;    /* one per PE, including this one */
    const struct hcomm_ops *backends[HCOMM_MAX_BACKENDS]; /* distinct backends in use */
    int n_backends;
    bool amo_over_network;   /* every AMO and signal goes through the network backend */
    struct hcomm_channel default_channel;
};

extern struct hcomm_domain hcomm;

/* Collective over the bootstrap: learns where every PE is and connects an
 * endpoint to each. The segments must be registered first. */
int hcomm_init(void);
void hcomm_fini(void);

/* Makes a local range symmetric; peers reach it at the same offset. */
void hcomm_register_seg(int seg, uintptr_t base, size_t size, const struct vmm_handle *mem);

_Noreturn void hcomm_bad_pe(int pe, const char *routine);
_Noreturn void hcomm_bad_addr(const void *addr, size_t len, int pe, const char *routine);

/* Which segment holds [addr, addr+len); -1 if none. */
static inline int hcomm_seg_of(const void *addr, size_t len)
{
    uintptr_t a = (uintptr_t)addr;
    for (int s = HCOMM_SEG_HEAP; s <= HCOMM_SEG_DEVICE; s++) {
        const struct hcomm_seg *g = &hcomm.seg[s];
        if (a - g->base < g->size && len <= g->size - (a - g->base))
            return s;
    }
    return -1;
}

static inline struct hcomm_ep *hcomm_ep_of(int pe, const char *routine)
{
    if (__builtin_expect((unsigned)pe >= (unsigned)hcomm.n_pes, 0))
        hcomm_bad_pe(pe, routine);
    return &hcomm.eps[pe];
}

/* True when this PE reaches PE's memory with plain loads and stores. */
static inline bool hcomm_load_store(int pe)
{
    struct hcomm_ep *ep = &hcomm.eps[pe];
    return ep->ops->ptr(ep, HCOMM_SEG_HEAP, ep->seg_base[HCOMM_SEG_HEAP]) != NULL;
}

/* Resolves a symmetric address of this PE to where PE's copy is reached. */
static inline uintptr_t hcomm_remote(struct hcomm_ep *ep, const void *addr, size_t len, int *seg,
                                     const char *routine)
{
    int s = hcomm_seg_of(addr, len);
    if (__builtin_expect(s < 0, 0))
        hcomm_bad_addr(addr, len, ep->pe, routine);
    *seg = s;
    return ep->seg_base[s] + ((uintptr_t)addr - hcomm.seg[s].base);
}

static inline void hcomm_put(struct hcomm_channel *ch, void *dest, const void *src, size_t len,
                             int pe, bool nbi, const char *routine)
{
    struct hcomm_ep *ep = hcomm_ep_of(pe, routine);
    if (__builtin_expect(!len, 0))
        return;
    int seg;
    uintptr_t r = hcomm_remote(ep, dest, len, &seg, routine);
    ep->ops->put(ch, ep, seg, r, src, len, nbi);
}

static inline void hcomm_get(struct hcomm_channel *ch, void *dest, const void *src, size_t len,
                             int pe, bool nbi, const char *routine)
{
    struct hcomm_ep *ep = hcomm_ep_of(pe, routine);
    if (__builtin_expect(!len, 0))
        return;
    int seg;
    uintptr_t r = hcomm_remote(ep, src, len, &seg, routine);
    ep->ops->get(ch, ep, seg, dest, r, len, nbi);
}

static inline void hcomm_signal(struct hcomm_channel *ch, uint64_t *sig, uint64_t value,
                                enum hcomm_signal_op op, int pe, const char *routine)
{
    struct hcomm_ep *ep = hcomm_ep_of(pe, routine);
    int seg;
    uintptr_t r = hcomm_remote(ep, sig, sizeof *sig, &seg, routine);
    ep->amo_ops->signal(ch, ep, seg, r, value, op);
}

static inline uint64_t hcomm_amo(struct hcomm_channel *ch, void *dest, size_t size,
                                 enum hcomm_amo_op op, uint64_t operand, uint64_t compare,
                                 int pe, const char *routine)
{
    struct hcomm_ep *ep = hcomm_ep_of(pe, routine);
    int seg;
    uintptr_t r = hcomm_remote(ep, dest, size, &seg, routine);
    return ep->amo_ops->amo(ch, ep, seg, r, op, size, operand, compare);
}

/* Byte extent of NELEMS elements of ELEM bytes STRIDE elements apart. */
static inline size_t hcomm_strided_extent(ptrdiff_t stride, size_t elem, size_t nelems)
{
    size_t step = (size_t)(stride < 0 ? -stride : stride);
    return nelems ? (nelems - 1) * step * elem + elem : 0;
}

static inline void hcomm_iput(struct hcomm_channel *ch, void *dest, const void *src,
                              ptrdiff_t dst, ptrdiff_t sst, size_t elem, size_t nelems, int pe,
                              const char *routine)
{
    struct hcomm_ep *ep = hcomm_ep_of(pe, routine);
    if (!nelems)
        return;
    int seg;
    uintptr_t r = hcomm_remote(ep, dest, hcomm_strided_extent(dst, elem, nelems), &seg, routine);
    ep->ops->iput(ch, ep, seg, r, dst * (ptrdiff_t)elem, src, sst * (ptrdiff_t)elem, elem, nelems);
}

static inline void hcomm_iget(struct hcomm_channel *ch, void *dest, const void *src,
                              ptrdiff_t dst, ptrdiff_t sst, size_t elem, size_t nelems, int pe,
                              const char *routine)
{
    struct hcomm_ep *ep = hcomm_ep_of(pe, routine);
    if (!nelems)
        return;
    int seg;
    uintptr_t r = hcomm_remote(ep, src, hcomm_strided_extent(sst, elem, nelems), &seg, routine);
    ep->ops->iget(ch, ep, seg, dest, dst * (ptrdiff_t)elem, r, sst * (ptrdiff_t)elem, elem, nelems);
}

/* Fence and quiet reach every backend the channel uses. */
void hcomm_fence(struct hcomm_channel *ch);
void hcomm_quiet(struct hcomm_channel *ch);
/* Progresses every backend that needs it; waits call it while they poll. */
void hcomm_progress(void);
/* Several threads will use the backends at once from now on: before they
 * start. */
void hcomm_threads_begin(void);

#endif
