/*
 * UCX data operations: RMA, AMOs, signals, fence and quiet of a channel.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"
#include "transport/mailbox.h"
#include "transport/ucx/ucx_int.h"

static inline void mark_pending(struct backend_chan *ch)
{
    if (!atomic_load_explicit(&ch->pending, memory_order_relaxed))
        atomic_store_explicit(&ch->pending, true, memory_order_relaxed);
}

/* A blocking put on an endpoint still wiring up would wait for the peer to
 * answer, a scheduler round trip on a crowded node, once per new peer in
 * turn: a put to every PE of 128 as 16 nodes over tcp took 24 s, nearly
 * all of it context switches. A small one is copied and posted instead
 * (its source is free on return all the same), so that the wire-ups of
 * many peers overlap and the program waits for them, if at all, in its
 * next quiet or barrier. Once a put on the link has completed, puts go
 * straight from the source again. */
#define UCX_BOUNCE_MAX 8192
/* Copies in flight on one link at most: a loop of puts to a new peer waits
 * from the 65th on, as before, instead of copying until the wire-up ends. */
#define UCX_BOUNCE_DEPTH 64

struct bounce {
    struct ucx_link *link;
    int pe;
    char data[];
};

/* In the channel worker's progress, under the channel's lock. The request
 * is freed here, not when posted: UCX calls no callback of a request freed
 * before it completes. */
static void bounce_done(void *req, ucs_status_t st, void *arg)
{
    struct bounce *b = arg;
    /* Canceled: the worker is going away, after its channel was quieted. */
    if (st != UCS_OK && st != UCS_ERR_CANCELED)
        ucx_failed("put", b->pe, st);
    if (st == UCS_OK)
        b->link->wired = true;
    b->link->bounced--;
    free(b);
    ucp_request_free(req);
}

static void put_bounced(struct backend_chan *ch, struct ucx_link *l, int pe, const void *src,
                        size_t n, uint64_t at, ucp_rkey_h key)
{
    struct bounce *b = malloc(sizeof *b + n);
    if (!b)
        oshm_fatal("out of memory for a put to PE %d", pe);
    b->link = l;
    b->pe = pe;
    memcpy(b->data, src, n);
    ucp_request_param_t prm = {.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK |
                                               UCP_OP_ATTR_FIELD_USER_DATA,
                               .cb.send = bounce_done,
                               .user_data = b};
    void *req = ucp_put_nbx(l->ep, b->data, n, at, key, &prm);
    if (req == NULL) { /* done at once: no callback */
        l->wired = true;
        free(b);
    } else if (UCS_PTR_IS_ERR(req)) {
        free(b);
        ucx_failed("put", pe, UCS_PTR_STATUS(req));
    } else {
        l->bounced++;
    }
    ucx_held(ch);
}

/* One contiguous transfer, split where it crosses from one registered range
 * of the peer's segment into the next. */
static void transfer(bool put, struct backend_chan *ch, struct backend_peer *p, int seg,
                     size_t off, char *local, size_t len, bool nbi)
{
    struct ucx_link *l = ucx_link_of(ch, p);
    ucp_request_param_t prm = {0};
    const char *what = put ? "put" : "get";
    for (;;) {
        size_t room;
        ucp_rkey_h key = ucx_rkey(l, p, seg, off, &room);
        size_t n = len < room ? len : room;
        if (put && !nbi && !l->wired && n <= UCX_BOUNCE_MAX && l->bounced < UCX_BOUNCE_DEPTH) {
            put_bounced(ch, l, p->pe, local, n, ucx_raddr(p, seg, off), key);
        } else {
            void *req = put ? ucp_put_nbx(l->ep, local, n, ucx_raddr(p, seg, off), key, &prm)
                            : ucp_get_nbx(l->ep, local, n, ucx_raddr(p, seg, off), key, &prm);
            /* Blocking: on return the source may be reused (put) or the
             * data is here (get). */
            if (nbi)
                ucx_release(ch, req, what, p->pe);
            else
                ucx_wait(ch, req, what, p->pe);
        }
        len -= n;
        if (!len)
            return;
        off += n;
        local += n;
    }
}

void ucx_put(struct backend_chan *ch, struct backend_peer *p, int seg, size_t off,
             const void *src, size_t len, bool nbi)
{
    ucx_enter(ch);
    mark_pending(ch);
    /* UCP only reads the source of a put. */
    transfer(true, ch, p, seg, off, (char *)src, len, nbi);
    ucx_leave(ch);
}

void ucx_get(struct backend_chan *ch, struct backend_peer *p, int seg, size_t off, void *dst,
             size_t len, bool nbi)
{
    ucx_enter(ch);
    if (nbi)
        mark_pending(ch);
    transfer(false, ch, p, seg, off, dst, len, nbi);
    ucx_leave(ch);
}

static void flush_link(struct backend_chan *ch, struct ucx_link *l, const char *what, int pe)
{
    ucp_request_param_t prm = {0};
    ucx_wait(ch, ucp_ep_flush_nbx(l->ep, &prm), what, pe);
}

/* NELEMS elements of ELEM bytes, one operation each; returns once the local
 * side may be reused (iput: the sources) or holds the data (iget). */
static void strided(bool put, struct backend_chan *ch, struct backend_peer *p, int seg,
                    size_t off, ptrdiff_t rstride, char *local, ptrdiff_t lstride, size_t elem,
                    size_t nelems, const char *what)
{
    ucx_enter(ch);
    if (put)
        mark_pending(ch);
    struct ucx_link *l = ucx_link_of(ch, p);
    ucp_request_param_t prm = {0};
    bool posted = false;
    for (size_t i = 0; i < nelems; i++, off += (size_t)rstride, local += lstride) {
        size_t room;
        ucp_rkey_h key = ucx_rkey(l, p, seg, off, &room);
        if (room < elem) { /* an element across two ranges: rare, in parts */
            if (put)
                transfer(true, ch, p, seg, off, local, elem, true);
            else
                transfer(false, ch, p, seg, off, local, elem, true);
            posted = true;
            continue;
        }
        uint64_t at = ucx_raddr(p, seg, off);
        void *req = put ? ucp_put_nbx(l->ep, local, elem, at, key, &prm)
                        : ucp_get_nbx(l->ep, local, elem, at, key, &prm);
        posted |= req != NULL;
        ucx_release(ch, req, what, p->pe);
    }
    if (posted)
        flush_link(ch, l, what, p->pe);
    ucx_leave(ch);
}

void ucx_iput(struct backend_chan *ch, struct backend_peer *p, int seg, size_t off,
              ptrdiff_t rstride, const void *src, ptrdiff_t sstride, size_t elem, size_t nelems)
{
    strided(true, ch, p, seg, off, rstride, (char *)src, sstride, elem, nelems, "iput");
}

void ucx_iget(struct backend_chan *ch, struct backend_peer *p, int seg, size_t off,
              ptrdiff_t rstride, void *dst, ptrdiff_t dstride, size_t elem, size_t nelems)
{
    strided(false, ch, p, seg, off, rstride, dst, dstride, elem, nelems, "iget");
}

/* The old value of a fetching AMO whose result nobody reads (a set is a
 * swap: UCP has no atomic store). Written by UCX only. */
static uint64_t ucx_discard;

/* Posts one UCP atomic. REPLY, when not NULL, carries CSWAP's new value in
 * and the old value out; WAIT waits for it. Values of 4-byte operations
 * travel in 4-byte variables, whatever the byte order. */
static void post_atomic(struct backend_chan *ch, struct backend_peer *p, int seg, size_t off,
                        ucp_atomic_op_t op, size_t size, uint64_t operand, uint64_t *reply,
                        bool wait)
{
    struct ucx_link *l = ucx_link_of(ch, p);
    size_t room;
    ucp_rkey_h key = ucx_rkey(l, p, seg, off, &room);
    uint32_t op32 = (uint32_t)operand, reply32 = reply ? (uint32_t)*reply : 0;
    ucp_request_param_t prm = {.op_attr_mask = UCP_OP_ATTR_FIELD_DATATYPE,
                               .datatype = ucp_dt_make_contig(size)};
    if (reply) {
        prm.op_attr_mask |= UCP_OP_ATTR_FIELD_REPLY_BUFFER;
        prm.reply_buffer = size == 4 && wait ? (void *)&reply32 : (void *)reply;
    }
    /* UCP reads the operand when the operation is posted. */
    void *req = ucp_atomic_op_nbx(l->ep, op, size == 4 ? (const void *)&op32 : (const void *)&operand,
                                  1, ucx_raddr(p, seg, off), key, &prm);
    if (wait) {
        ucx_wait(ch, req, "atomic", p->pe);
        if (reply && size == 4)
            *reply = reply32;
    } else {
        ucx_release(ch, req, "atomic", p->pe);
    }
}

void ucx_signal(struct backend_chan *ch, struct backend_peer *p, int seg, size_t off,
                uint64_t value, enum backend_signal_op op)
{
    ucx_enter(ch);
    mark_pending(ch);
    /* After every earlier operation of this channel, in particular the data
     * the signal announces. */
    ucs_status_t st = ucp_worker_fence(ch->worker);
    if (st != UCS_OK)
        ucx_failed("fence", p->pe, st);
    if (op == BACKEND_SIGNAL_ADD)
        post_atomic(ch, p, seg, off, UCP_ATOMIC_OP_ADD, 8, value, NULL, false);
    else
        post_atomic(ch, p, seg, off, UCP_ATOMIC_OP_SWAP, 8, value, &ucx_discard, false);
    ucx_leave(ch);
}

/* The fetching operation with the same effect as OP. */
static enum backend_amo_op fetching_form(enum backend_amo_op op)
{
    switch (op) {
    case BACKEND_AMO_SET: return BACKEND_AMO_SWAP;
    case BACKEND_AMO_ADD: return BACKEND_AMO_FETCH_ADD;
    case BACKEND_AMO_AND: return BACKEND_AMO_FETCH_AND;
    case BACKEND_AMO_OR: return BACKEND_AMO_FETCH_OR;
    case BACKEND_AMO_XOR: return BACKEND_AMO_FETCH_XOR;
    default: return op;
    }
}

/* The UCP operation of each backend one, and whether it returns the old
 * value. Fetch is an add of 0 (UCP has no atomic load), set a swap whose
 * old value nobody reads. */
static const struct {
    ucp_atomic_op_t op;
    bool fetch;
} amo_map[] = {
    [BACKEND_AMO_FETCH] = {UCP_ATOMIC_OP_ADD, true},
    [BACKEND_AMO_SET] = {UCP_ATOMIC_OP_SWAP, false},
    [BACKEND_AMO_SWAP] = {UCP_ATOMIC_OP_SWAP, true},
    [BACKEND_AMO_CSWAP] = {UCP_ATOMIC_OP_CSWAP, true},
    [BACKEND_AMO_FETCH_ADD] = {UCP_ATOMIC_OP_ADD, true},
    [BACKEND_AMO_ADD] = {UCP_ATOMIC_OP_ADD, false},
    [BACKEND_AMO_FETCH_AND] = {UCP_ATOMIC_OP_AND, true},
    [BACKEND_AMO_AND] = {UCP_ATOMIC_OP_AND, false},
    [BACKEND_AMO_FETCH_OR] = {UCP_ATOMIC_OP_OR, true},
    [BACKEND_AMO_OR] = {UCP_ATOMIC_OP_OR, false},
    [BACKEND_AMO_FETCH_XOR] = {UCP_ATOMIC_OP_XOR, true},
    [BACKEND_AMO_XOR] = {UCP_ATOMIC_OP_XOR, false},
};

uint64_t ucx_amo(struct backend_chan *ch, struct backend_peer *p, int seg, size_t off,
                 enum backend_amo_op op, size_t size, uint64_t operand, uint64_t compare)
{
    /* The library (and many programs) read their own word right after an
     * AMO on it: to this PE, every AMO completes before it returns, which
     * only a fetching one guarantees. */
    if (p->pe == ucx.my_pe)
        op = fetching_form(op);
    ucx_enter(ch);
    uint64_t old = 0;
    if (op == BACKEND_AMO_FETCH)
        operand = 0;
    if (op == BACKEND_AMO_CSWAP) { /* the reply buffer carries the new value in */
        old = operand;
        operand = compare;
    }
    bool fetch = amo_map[op].fetch;
    if (!fetch)
        mark_pending(ch);
    uint64_t *reply = fetch ? &old : op == BACKEND_AMO_SET ? &ucx_discard : NULL;
    post_atomic(ch, p, seg, off, amo_map[op].op, size, operand, reply, fetch);
    ucx_leave(ch);
    return fetch ? old : 0;
}

/* What travels before a notify's data. */
struct ucx_notify_hdr {
    uint64_t off, sig_off, value;
    uint32_t seg, sig_seg, op, len;
};

/* One of the library's active messages, eager (its handler gets it whole,
 * never by rendezvous), sent before this returns. */
static void send_am(struct backend_chan *ch, struct backend_peer *p, unsigned id,
                    const void *hdr, size_t hdr_len, const void *src, size_t len,
                    const char *what)
{
    ucx_enter(ch);
    struct ucx_link *l = ucx_link_of(ch, p);
    ucp_request_param_t prm = {.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS,
                               .flags = UCP_AM_SEND_FLAG_EAGER};
    void *req = ucp_am_send_nbx(l->ep, id, hdr, hdr_len, src, len, &prm);
    /* Mostly sent at once; else (an endpoint wiring up, a full socket) the
     * header on the caller's stack and its source must outlive it. */
    ucx_wait(ch, req, what, p->pe);
    ucx_leave(ch);
}

void ucx_notify(struct backend_chan *ch, struct backend_peer *p, int seg, size_t off,
                const void *src, size_t len, int sig_seg, size_t sig_off, uint64_t value,
                enum backend_signal_op op)
{
    struct ucx_notify_hdr h = {.off = off, .sig_off = sig_off, .value = value,
                               .seg = (uint32_t)seg, .sig_seg = (uint32_t)sig_seg,
                               .op = (uint32_t)op, .len = (uint32_t)len};
    send_am(ch, p, UCX_AM_NOTIFY, &h, sizeof h, src, len, "notify");
}

/* In the target worker's progress (a wait of the program's, or the progress
 * thread). A peer's notify writes this PE's memory: only within a segment,
 * and only where memory is behind it. */
static ucs_status_t on_notify(void *arg, const void *header, size_t header_len, void *data,
                              size_t len, const ucp_am_recv_param_t *param)
{
    (void)arg;
    /* UCX hands the header at whatever offset it arrived: copy, never cast. */
    struct ucx_notify_hdr hdr;
    const struct ucx_notify_hdr *h = &hdr;
    if (header_len == sizeof hdr)
        memcpy(&hdr, header, sizeof hdr);
    if (header_len != sizeof *h || (param->recv_attr & UCP_AM_RECV_ATTR_FLAG_RNDV) ||
        h->seg >= BACKEND_MAX_SEGS || h->sig_seg >= BACKEND_MAX_SEGS || h->len != len) {
        oshm_warn("UCX: a malformed notify was dropped");
        return UCS_OK;
    }
    const struct backend_seg *s = &ucx.seg[h->seg], *g = &ucx.seg[h->sig_seg];
    if (h->off > s->committed || len > s->committed - h->off || h->sig_off % 8 ||
        h->sig_off > g->committed || g->committed - h->sig_off < 8) {
        oshm_warn("UCX: a notify outside this PE's memory was dropped");
        return UCS_OK;
    }
    if (len)
        memcpy((void *)(s->base + h->off), data, len);
    _Atomic uint64_t *sig = (_Atomic uint64_t *)(g->base + h->sig_off);
    if (h->op == BACKEND_SIGNAL_ADD)
        atomic_fetch_add_explicit(sig, h->value, memory_order_release);
    else
        atomic_store_explicit(sig, h->value, memory_order_release);
    return UCS_OK;
}

/* What travels before a message to a mailbox. */
struct ucx_mail_hdr {
    uint64_t tag;
    int32_t from;
    uint32_t len;
};

void ucx_mail(struct backend_chan *ch, struct backend_peer *p, uint64_t tag, const void *src,
              size_t len)
{
    struct ucx_mail_hdr h = {.tag = tag, .from = ucx.my_pe, .len = (uint32_t)len};
    send_am(ch, p, UCX_AM_MAIL, &h, sizeof h, src, len, "collective message");
}

/* In the target worker's progress, as on_notify: kept in this process's
 * memory (transport/mailbox.h), nothing of the PE's written. */
static ucs_status_t on_mail(void *arg, const void *header, size_t header_len, void *data,
                            size_t len, const ucp_am_recv_param_t *param)
{
    (void)arg;
    struct ucx_mail_hdr h;
    if (header_len != sizeof h || (param->recv_attr & UCP_AM_RECV_ATTR_FLAG_RNDV)) {
        oshm_warn("UCX: a malformed message was dropped");
        return UCS_OK;
    }
    memcpy(&h, header, sizeof h);
    if (h.len != len || h.from < 0 || h.from >= ucx.n_pes) {
        oshm_warn("UCX: a malformed message was dropped");
        return UCS_OK;
    }
    mailbox_drop(h.from, h.tag, data, len);
    return UCS_OK;
}

static int serve(unsigned id, ucp_am_recv_callback_t cb)
{
    ucp_am_handler_param_t prm = {.field_mask = UCP_AM_HANDLER_PARAM_FIELD_ID |
                                                UCP_AM_HANDLER_PARAM_FIELD_CB |
                                                UCP_AM_HANDLER_PARAM_FIELD_FLAGS,
                                  .id = id,
                                  .cb = cb,
                                  .flags = UCP_AM_FLAG_WHOLE_MSG};
    ucs_status_t st = ucp_worker_set_am_recv_handler(ucx.target, &prm);
    if (st != UCS_OK) {
        oshm_warn("UCX cannot serve the library's active messages: %s", ucs_status_string(st));
        return -1;
    }
    return 0;
}

int ucx_notify_serve(void)
{
    return serve(UCX_AM_NOTIFY, on_notify) != 0 || serve(UCX_AM_MAIL, on_mail) != 0 ? -1 : 0;
}

void *ucx_ptr(struct backend_peer *p, int seg, size_t off)
{
    (void)p, (void)seg, (void)off;
    return NULL; /* not mapped into this process */
}

void ucx_fence(struct backend_chan *ch)
{
    ucx_enter(ch);
    ucs_status_t st = ucp_worker_fence(ch->worker);
    ucx_leave(ch);
    if (st != UCS_OK)
        ucx_failed("fence", -1, st);
}

void ucx_quiet(struct backend_chan *ch)
{
    ucx_enter(ch);
    ucp_request_param_t prm = {0};
    ucx_wait(ch, ucp_worker_flush_nbx(ch->worker, &prm), "quiet", -1);
    atomic_store_explicit(&ch->pending, false, memory_order_relaxed);
    if (!ch->flush_req) /* else the thread's flush ends the hold */
        atomic_store_explicit(&ch->held, false, memory_order_relaxed);
    ucx_leave(ch);
}

/* One endpoint's flush: shmem_pe_quiet leaves the other peers' operations
 * in flight. A peer this channel never reached has nothing to complete. */
void ucx_quiet_pe(struct backend_chan *ch, struct backend_peer *p)
{
    ucx_enter(ch);
    struct ucx_link *l = ch->link[p->pe];
    if (l)
        flush_link(ch, l, "pe_quiet", p->pe);
    ucx_leave(ch);
}

const char *ucx_describe(struct backend_peer *p)
{
    (void)p;
    return "UCX";
}
