/*
 * libfabric data operations: RMA, AMOs, signals, fence and quiet of a
 * channel. Every operation is counted (a channel's write or read counter)
 * and carries FI_DELIVERY_COMPLETE where the provider has it, so that a
 * completed put is in the target's memory.
 */
#include <stdlib.h>
#include <string.h>

#include "util/log.h"
#include "transport/ofi/ofi_int.h"

/* The range of P's segment SEG that holds OFF; *ROOM: bytes from OFF to its
 * end. */
static const struct ofi_rrange *rrange(struct backend_peer *p, int seg, size_t off, size_t *room)
{
    uint32_t n = atomic_load_explicit(&p->nranges[seg], memory_order_acquire);
    uint32_t i = 0;
    while (i < n && off >= ofi_peer_range(p, seg, i)->end)
        i++;
    if (i == n)
        oshm_fatal("offset %zu of segment %d of PE %d is outside the memory it registered with "
                   "libfabric (%zu bytes)", off, seg, p->pe,
                   n ? ofi_peer_range(p, seg, n - 1)->end : 0);
    *room = ofi_peer_range(p, seg, i)->end - off;
    return ofi_peer_range(p, seg, i);
}

static inline uint64_t raddr(const struct ofi_rrange *r, size_t off)
{
    return r->addr0 + (off - r->start);
}

/* The flags of CH's next operation: FI_FENCE once after a fence. */
static inline uint64_t next_flags(struct backend_chan *ch)
{
    uint64_t f = ofi.op_flags;
    if (ch->fence_next) {
        f |= FI_FENCE;
        ch->fence_next = false;
    }
    return f;
}

/* A read sees this PE's earlier writes to the same place (the library, and
 * programs, read back what they just wrote): where the provider does not
 * keep reads after writes of every kind (tcp;ofi_rxm orders RMA after RMA
 * and atomics after atomics only), the writes complete first. */
static inline void reads_after_writes(struct backend_chan *ch, int pe)
{
    if (!ofi.raw_ordered)
        ofi_wait(ch, OFI_WRITES, "a read after writes", pe);
}

/* FI_MR_LOCAL: a registration of a local buffer for one operation (closed
 * once it completed); NULL otherwise, or when *DESC is the registration of
 * the symmetric memory that holds the buffer. */
static struct fid_mr *local_mr(struct backend_chan *ch, const void *buf, size_t len, int pe,
                               void **desc)
{
    *desc = NULL;
    if (!(ofi.mr_mode & FI_MR_LOCAL) || (*desc = ofi_heap_desc(buf, len)) != NULL)
        return NULL;
    struct fid_mr *mr;
    uint64_t key = atomic_fetch_add(&ofi.next_key, 1);
    int rc = fi_mr_reg(ofi.domain, buf, len, FI_READ | FI_WRITE, 0, key, 0, &mr, NULL);
    if (rc == 0)
        rc = ofi_mr_ready(mr, ch->ep);
    if (rc != 0)
        ofi_failed("registering a local buffer", pe, rc);
    *desc = fi_mr_desc(mr);
    return mr;
}

/* One contiguous transfer, split at the peer's range boundaries and the
 * provider's largest message. Returns whether the caller must wait before
 * the local buffer may be reused (nothing injected). */
static bool transfer(bool put, struct backend_chan *ch, struct backend_peer *p, int seg,
                     size_t off, char *local, size_t len)
{
    void *desc;
    struct fid_mr *mr = local_mr(ch, local, len, p->pe, &desc);
    bool must_wait = mr != NULL;
    const char *what = put ? "put" : "get";
    char *at = local;
    while (len) {
        size_t room;
        const struct ofi_rrange *r = rrange(p, seg, off, &room);
        size_t n = len < room ? len : room;
        if (n > ofi.max_msg)
            n = ofi.max_msg;
        struct iovec iov = {.iov_base = at, .iov_len = n};
        struct fi_rma_iov rma = {.addr = raddr(r, off), .len = n, .key = r->key};
        struct fi_msg_rma msg = {.msg_iov = &iov, .desc = &desc, .iov_count = 1,
                                 .addr = p->addr, .rma_iov = &rma, .rma_iov_count = 1};
        uint64_t flags = next_flags(ch);
        if (put && n <= ofi.inject_size) {
            ofi_park_put(ch, &msg, flags | FI_INJECT, p->pe);
        } else if (put) {
            must_wait = true;
            ofi_park_drain(ch);
            OFI_POST(ch, fi_writemsg(ch->ep, &msg, flags), what, p->pe);
            ofi_issued(ch, OFI_WRITES);
        } else {
            OFI_POST(ch, fi_readmsg(ch->ep, &msg, flags), what, p->pe);
            ofi_issued(ch, OFI_READS);
        }
        len -= n;
        off += n;
        at += n;
    }
    if (mr) { /* the registration lives until the data moved */
        ofi_wait(ch, put ? OFI_WRITES : OFI_READS, what, p->pe);
        fi_close(&mr->fid);
    }
    return must_wait;
}

void ofi_put(struct backend_chan *ch, struct backend_peer *p, int seg, size_t off,
             const void *src, size_t len, bool nbi)
{
    ofi_enter(ch);
    /* A blocking put returns when the source may be reused. */
    if (transfer(true, ch, p, seg, off, (char *)src, len) && !nbi)
        ofi_wait(ch, OFI_WRITES, "put", p->pe);
    ofi_leave(ch);
}

void ofi_get(struct backend_chan *ch, struct backend_peer *p, int seg, size_t off, void *dst,
             size_t len, bool nbi)
{
    ofi_enter(ch);
    ofi_park_drain(ch);
    reads_after_writes(ch, p->pe);
    transfer(false, ch, p, seg, off, dst, len);
    if (!nbi)
        ofi_wait(ch, OFI_READS, "get", p->pe);
    ofi_leave(ch);
}

/* NELEMS elements of ELEM bytes, one operation each; returns once the local
 * side may be reused (iput: the sources) or holds the data (iget). */
static void strided(bool put, struct backend_chan *ch, struct backend_peer *p, int seg,
                    size_t off, ptrdiff_t rstride, char *local, ptrdiff_t lstride, size_t elem,
                    size_t nelems)
{
    ofi_enter(ch);
    ofi_park_drain(ch);
    if (!put)
        reads_after_writes(ch, p->pe);
    bool must_wait = false;
    for (size_t i = 0; i < nelems; i++, off += (size_t)rstride, local += lstride)
        must_wait |= transfer(put, ch, p, seg, off, local, elem);
    if (put && must_wait)
        ofi_wait(ch, OFI_WRITES, "iput", p->pe);
    if (!put)
        ofi_wait(ch, OFI_READS, "iget", p->pe);
    ofi_leave(ch);
}

void ofi_iput(struct backend_chan *ch, struct backend_peer *p, int seg, size_t off,
              ptrdiff_t rstride, const void *src, ptrdiff_t sstride, size_t elem, size_t nelems)
{
    strided(true, ch, p, seg, off, rstride, (char *)src, sstride, elem, nelems);
}

void ofi_iget(struct backend_chan *ch, struct backend_peer *p, int seg, size_t off,
              ptrdiff_t rstride, void *dst, ptrdiff_t dstride, size_t elem, size_t nelems)
{
    strided(false, ch, p, seg, off, rstride, dst, dstride, elem, nelems);
}

/* ---- atomics ---- */

enum amo_form { FORM_PLAIN, FORM_FETCH, FORM_COMPARE };

/* One atomic of libfabric on the SIZE-byte word at OFF of P. PLAIN posts
 * and returns (the operand is injected); FETCH and COMPARE wait and return
 * the old value. */
static uint64_t post_amo(struct backend_chan *ch, struct backend_peer *p, int seg, size_t off,
                         enum fi_op fop, size_t size, enum amo_form form, uint64_t operand,
                         uint64_t compare, uint64_t extra_flags)
{
    size_t room;
    const struct ofi_rrange *r = rrange(p, seg, off, &room);
    if (room < size)
        oshm_fatal("an atomic on offset %zu of segment %d of PE %d crosses the end of the "
                   "memory it registered", off, seg, p->pe);
    /* Values travel in variables of their own size, whatever the byte order. */
    union word { uint32_t u32; uint64_t u64; };
    union word local[3] = {{0}}; /* operand, compare, result */
    union word *w = ch->scratch ? (union word *)ch->scratch : local;
    if (size == 4) {
        w[0].u32 = (uint32_t)operand;
        w[1].u32 = (uint32_t)compare;
    } else {
        w[0].u64 = operand;
        w[1].u64 = compare;
    }
    void *desc = ch->scratch_desc;
    struct fi_ioc ioc = {.addr = &w[0], .count = 1};
    struct fi_ioc cmp = {.addr = &w[1], .count = 1};
    struct fi_ioc res = {.addr = &w[2], .count = 1};
    struct fi_rma_ioc rma = {.addr = raddr(r, off), .count = 1, .key = r->key};
    struct fi_msg_atomic msg = {.msg_iov = &ioc, .desc = &desc, .iov_count = 1, .addr = p->addr,
                                .rma_iov = &rma, .rma_iov_count = 1,
                                .datatype = size == 4 ? FI_UINT32 : FI_UINT64, .op = fop};
    uint64_t flags = next_flags(ch) | extra_flags;
    switch (form) {
    case FORM_PLAIN:
        flags |= size <= ofi.inject_size ? FI_INJECT : 0;
        OFI_POST(ch, fi_atomicmsg(ch->ep, &msg, flags), "atomic", p->pe);
        ofi_issued(ch, OFI_WRITES);
        if (!(flags & FI_INJECT))
            ofi_wait(ch, OFI_WRITES, "atomic", p->pe);
        return 0;
    case FORM_FETCH:
        reads_after_writes(ch, p->pe);
        OFI_POST(ch, fi_fetch_atomicmsg(ch->ep, &msg, &res, &desc, 1, flags), "fetching atomic",
                 p->pe);
        break;
    case FORM_COMPARE:
        reads_after_writes(ch, p->pe);
        OFI_POST(ch, fi_compare_atomicmsg(ch->ep, &msg, &cmp, &desc, 1, &res, &desc, 1, flags),
                 "compare-and-swap", p->pe);
        break;
    }
    ofi_issued(ch, OFI_READS);
    ofi_wait(ch, OFI_READS, "atomic", p->pe);
    return size == 4 ? w[2].u32 : w[2].u64;
}

static inline bool have(enum fi_op fop, size_t size, enum amo_form form)
{
    return ofi.amo_ok[size == 8][fop][form];
}

/* Compare-and-swap of SIZE bytes, on the 8-byte word around a 4-byte one
 * where the provider has no 4-byte form (the neighbour is compared too, so
 * a concurrent change to it only makes the caller try again). */
static uint64_t cswap(struct backend_chan *ch, struct backend_peer *p, int seg, size_t off,
                      size_t size, uint64_t want_old, uint64_t new_value, uint64_t extra_flags)
{
    if (have(FI_CSWAP, size, FORM_COMPARE))
        return post_amo(ch, p, seg, off, FI_CSWAP, size, FORM_COMPARE, new_value, want_old,
                        extra_flags);
    size_t base = off & ~(size_t)7;
    unsigned shift = (unsigned)(off - base) * 8; /* little-endian: the low half first */
    uint64_t mask = (uint64_t)0xffffffffu << shift;
    uint64_t whole = post_amo(ch, p, seg, base, FI_CSWAP, 8, FORM_COMPARE, 0, 0, extra_flags);
    for (;;) {
        if (((whole & mask) >> shift) != (want_old & 0xffffffffu))
            return (whole & mask) >> shift;
        uint64_t next = (whole & ~mask) | ((new_value & 0xffffffffu) << shift);
        uint64_t seen = post_amo(ch, p, seg, base, FI_CSWAP, 8, FORM_COMPARE, next, whole, 0);
        if (seen == whole)
            return want_old & 0xffffffffu;
        whole = seen;
    }
}

static uint64_t apply(enum fi_op fop, uint64_t old, uint64_t operand)
{
    switch (fop) {
    case FI_SUM: return old + operand;
    case FI_BAND: return old & operand;
    case FI_BOR: return old | operand;
    case FI_BXOR: return old ^ operand;
    case FI_ATOMIC_WRITE: return operand;
    default: return old; /* FI_ATOMIC_READ */
    }
}

/* FOP as a compare-and-swap loop: what a provider without it gets. */
static uint64_t emulate(struct backend_chan *ch, struct backend_peer *p, int seg, size_t off,
                        enum fi_op fop, size_t size, uint64_t operand, uint64_t extra_flags)
{
    uint64_t mask = size == 4 ? 0xffffffffu : ~(uint64_t)0;
    /* A swap of 0 for 0 reads the word without changing it. */
    uint64_t old = cswap(ch, p, seg, off, size, 0, 0, extra_flags);
    if (fop == FI_ATOMIC_READ)
        return old;
    for (;;) {
        uint64_t seen = cswap(ch, p, seg, off, size, old, apply(fop, old, operand) & mask, 0);
        if (seen == old)
            return old;
        old = seen;
    }
}

static const enum fi_op fi_op_of[] = {
    [BACKEND_AMO_FETCH] = FI_ATOMIC_READ,  [BACKEND_AMO_SET] = FI_ATOMIC_WRITE,
    [BACKEND_AMO_SWAP] = FI_ATOMIC_WRITE,  [BACKEND_AMO_CSWAP] = FI_CSWAP,
    [BACKEND_AMO_FETCH_ADD] = FI_SUM,      [BACKEND_AMO_ADD] = FI_SUM,
    [BACKEND_AMO_FETCH_AND] = FI_BAND,     [BACKEND_AMO_AND] = FI_BAND,
    [BACKEND_AMO_FETCH_OR] = FI_BOR,       [BACKEND_AMO_OR] = FI_BOR,
    [BACKEND_AMO_FETCH_XOR] = FI_BXOR,     [BACKEND_AMO_XOR] = FI_BXOR,
};

/* OP through the provider's own atomic where it has one, else through the
 * nearest form it has; EXTRA_FLAGS go on the first operation. */
static uint64_t do_amo(struct backend_chan *ch, struct backend_peer *p, int seg, size_t off,
                       enum backend_amo_op op, size_t size, uint64_t operand, uint64_t compare,
                       uint64_t extra_flags)
{
    enum fi_op fop = fi_op_of[op];
    if (op == BACKEND_AMO_CSWAP)
        return cswap(ch, p, seg, off, size, compare, operand, extra_flags);
    /* To this PE every AMO completes before it returns: the library reads
     * its own words right after. */
    bool fetch = backend_amo_fetches(op) || p->pe == ofi.my_pe;
    if (!fetch && have(fop, size, FORM_PLAIN))
        return post_amo(ch, p, seg, off, fop, size, FORM_PLAIN, operand, 0, extra_flags);
    if (have(fop, size, FORM_FETCH))
        return post_amo(ch, p, seg, off, fop, size, FORM_FETCH, operand, 0, extra_flags);
    return emulate(ch, p, seg, off, fop, size, operand, extra_flags);
}

uint64_t ofi_amo(struct backend_chan *ch, struct backend_peer *p, int seg, size_t off,
                 enum backend_amo_op op, size_t size, uint64_t operand, uint64_t compare)
{
    ofi_enter(ch);
    ofi_park_drain(ch);
    uint64_t old = do_amo(ch, p, seg, off, op, size, operand, compare, 0);
    ofi_leave(ch);
    return backend_amo_fetches(op) ? old : 0;
}

/* Orders CH's later writes after its earlier ones; returns the flags the
 * next operation needs for that. */
static uint64_t order_writes(struct backend_chan *ch)
{
    switch (ofi.fence) {
    case OFI_FENCE_ORDERED:
        return 0;
    case OFI_FENCE_FLAG:
        return ofi_in_flight(ch, OFI_WRITES) ? FI_FENCE : 0;
    case OFI_FENCE_WAIT:
        ofi_wait(ch, OFI_WRITES, "fence", -1);
        return 0;
    }
    return 0;
}

void ofi_signal(struct backend_chan *ch, struct backend_peer *p, int seg, size_t off,
                uint64_t value, enum backend_signal_op op)
{
    ofi_enter(ch);
    ofi_park_drain(ch);
    uint64_t flags = order_writes(ch);
    do_amo(ch, p, seg, off, op == BACKEND_SIGNAL_ADD ? BACKEND_AMO_ADD : BACKEND_AMO_SET, 8,
           value, 0, flags);
    ofi_leave(ch);
}

void ofi_fence(struct backend_chan *ch)
{
    ofi_enter(ch);
    ofi_park_drain(ch);
    if (order_writes(ch))
        ch->fence_next = true;
    ofi_leave(ch);
}

void ofi_quiet(struct backend_chan *ch)
{
    ofi_enter(ch);
    ofi_wait(ch, OFI_WRITES, "quiet", -1);
    ofi_wait(ch, OFI_READS, "quiet", -1);
    ch->fence_next = false;
    ofi_leave(ch);
}
