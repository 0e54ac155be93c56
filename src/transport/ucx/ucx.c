#include "transport/ucx/ucx.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucp/api/ucp.h>

#include "util/log.h"
#include "util/spin.h"
#include "fabric/fabric.h"

/* What this PE keeps about one peer. */
struct ucx_peer {
    ucp_ep_h ep;
    uint64_t base[HCOMM_MAX_SEGS]; /* the peer's own segment addresses */
    ucp_rkey_h rkey[HCOMM_MAX_SEGS];
};

static struct {
    ucp_context_h context;
    ucp_worker_h worker;
    ucp_address_t *addr;
    size_t addr_len;
    ucp_mem_h mem[HCOMM_MAX_SEGS];
    void *rkey[HCOMM_MAX_SEGS];
    size_t rkey_len[HCOMM_MAX_SEGS];
    uint64_t base[HCOMM_MAX_SEGS];
    uint64_t size[HCOMM_MAX_SEGS];
    int my_pe;
} ucx;

/* The old value of a fetching AMO whose result nobody reads (a set is a
 * swap: UCP has no atomic store). Written by UCX only. */
static uint64_t ucx_discard;

static _Noreturn void ucx_failed(const char *what, int pe, ucs_status_t st)
{
    oshm_fatal("UCX %s to PE %d failed: %s", what, pe, ucs_status_string(st));
}

static inline struct ucx_peer *peer_of(struct hcomm_ep *ep)
{
    return ep->priv[HCOMM_BACKEND_UCX];
}

/* The peer's own address of RADDR (RADDR is relative to ep->seg_base). */
static inline uint64_t remote_addr(const struct hcomm_ep *ep, const struct ucx_peer *p, int seg,
                                   uintptr_t raddr)
{
    return p->base[seg] + (uint64_t)(raddr - ep->seg_base[seg]);
}

/* The worker is single-threaded (UCX's own locking costs a quarter of the
 * tcp bandwidth); once several threads may use it (SHMEM_THREAD_MULTIPLE,
 * the device's engines and streams) every entry takes this lock, recursive
 * because a wait progresses the worker from inside an operation. */
static bool ucx_threaded;
static pthread_mutex_t ucx_lock;

static inline bool ucx_enter(void)
{
    if (!ucx_threaded)
        return false;
    pthread_mutex_lock(&ucx_lock);
    return true;
}

static inline void ucx_leave(bool locked)
{
    if (locked)
        pthread_mutex_unlock(&ucx_lock);
}

static void ucx_progress(void)
{
    bool l = ucx_enter();
    ucp_worker_progress(ucx.worker);
    ucx_leave(l);
}

/* Waits for a request to complete, progressing the worker. */
static void wait_request(void *req, const char *what, int pe)
{
    if (req == NULL)
        return;
    if (UCS_PTR_IS_ERR(req))
        ucx_failed(what, pe, UCS_PTR_STATUS(req));
    ucs_status_t st;
    uint32_t spins = 0;
    while ((st = ucp_request_check_status(req)) == UCS_INPROGRESS)
        if (!ucp_worker_progress(ucx.worker))
            oshm_spin_pause(&spins);
    ucp_request_free(req);
    if (st != UCS_OK)
        ucx_failed(what, pe, st);
}

/* Lets a request finish in the background: the next flush completes it. */
static void release_request(void *req, const char *what, int pe)
{
    if (req == NULL)
        return;
    if (UCS_PTR_IS_ERR(req))
        ucx_failed(what, pe, UCS_PTR_STATUS(req));
    ucp_request_free(req);
}

static void ucx_put_unlocked(struct hcomm_channel *ch, struct hcomm_ep *ep, int seg,
                             uintptr_t raddr, const void *src, size_t len, bool nbi)
{
    (void)ch;
    struct ucx_peer *p = peer_of(ep);
    ucp_request_param_t prm = {0};
    void *req = ucp_put_nbx(p->ep, src, len, remote_addr(ep, p, seg, raddr), p->rkey[seg], &prm);
    /* Blocking: the source may be reused on return (local completion). */
    if (nbi)
        release_request(req, "put", ep->pe);
    else
        wait_request(req, "put", ep->pe);
}

static void ucx_get_unlocked(struct hcomm_channel *ch, struct hcomm_ep *ep, int seg, void *dst,
                             uintptr_t raddr, size_t len, bool nbi)
{
    (void)ch;
    struct ucx_peer *p = peer_of(ep);
    ucp_request_param_t prm = {0};
    void *req = ucp_get_nbx(p->ep, dst, len, remote_addr(ep, p, seg, raddr), p->rkey[seg], &prm);
    if (nbi)
        release_request(req, "get", ep->pe);
    else
        wait_request(req, "get", ep->pe);
}

static void flush_ep(struct ucx_peer *p, const char *what, int pe)
{
    ucp_request_param_t prm = {0};
    wait_request(ucp_ep_flush_nbx(p->ep, &prm), what, pe);
}

/* NELEMS elements of ELEM bytes, one operation each; returns once the local
 * side may be reused (iput: the sources) or holds the data (iget). */
static void strided(bool put, struct hcomm_ep *ep, int seg, uintptr_t raddr, ptrdiff_t rstride,
                    char *local, ptrdiff_t lstride, size_t elem, size_t nelems, const char *what)
{
    struct ucx_peer *p = peer_of(ep);
    ucp_request_param_t prm = {0};
    bool pending = false;
    for (size_t i = 0; i < nelems; i++, raddr += (uintptr_t)rstride, local += lstride) {
        uint64_t at = remote_addr(ep, p, seg, raddr);
        void *req = put ? ucp_put_nbx(p->ep, local, elem, at, p->rkey[seg], &prm)
                        : ucp_get_nbx(p->ep, local, elem, at, p->rkey[seg], &prm);
        pending |= req != NULL;
        release_request(req, what, ep->pe);
    }
    if (pending)
        flush_ep(p, what, ep->pe);
}

static void ucx_iput_unlocked(struct hcomm_channel *ch, struct hcomm_ep *ep, int seg,
                              uintptr_t raddr, ptrdiff_t rstride, const void *src,
                              ptrdiff_t sstride, size_t elem, size_t nelems)
{
    (void)ch;
    /* UCP only reads the sources of a put. */
    strided(true, ep, seg, raddr, rstride, (char *)src, sstride, elem, nelems, "iput");
}

static void ucx_iget_unlocked(struct hcomm_channel *ch, struct hcomm_ep *ep, int seg, void *dst,
                              ptrdiff_t dstride, uintptr_t raddr, ptrdiff_t rstride, size_t elem,
                              size_t nelems)
{
    (void)ch;
    strided(false, ep, seg, raddr, rstride, dst, dstride, elem, nelems, "iget");
}

/* Posts one UCP atomic. REPLY, when not NULL, carries CSWAP's new value in
 * and the old value out; WAIT waits for it. Values of 4-byte operations
 * travel in 4-byte variables, whatever the byte order. */
static void post_atomic(struct hcomm_ep *ep, int seg, uintptr_t raddr, ucp_atomic_op_t op,
                        size_t size, uint64_t operand, uint64_t *reply, bool wait)
{
    struct ucx_peer *p = peer_of(ep);
    uint32_t op32 = (uint32_t)operand, reply32 = reply ? (uint32_t)*reply : 0;
    ucp_request_param_t prm = {.op_attr_mask = UCP_OP_ATTR_FIELD_DATATYPE,
                               .datatype = ucp_dt_make_contig(size)};
    if (reply) {
        prm.op_attr_mask |= UCP_OP_ATTR_FIELD_REPLY_BUFFER;
        prm.reply_buffer = size == 4 && wait ? (void *)&reply32 : (void *)reply;
    }
    /* UCP reads the operand when the operation is posted. */
    void *req = ucp_atomic_op_nbx(p->ep, op, size == 4 ? (const void *)&op32 : (const void *)&operand,
                                  1, remote_addr(ep, p, seg, raddr), p->rkey[seg], &prm);
    if (wait) {
        wait_request(req, "atomic", ep->pe);
        if (reply && size == 4)
            *reply = reply32;
    } else {
        release_request(req, "atomic", ep->pe);
    }
}

static void ucx_signal_unlocked(struct hcomm_channel *ch, struct hcomm_ep *ep, int seg,
                                uintptr_t raddr, uint64_t value, enum hcomm_signal_op op)
{
    (void)ch;
    /* After every earlier operation of this PE, in particular the data
     * the signal announces. */
    ucs_status_t st = ucp_worker_fence(ucx.worker);
    if (st != UCS_OK)
        ucx_failed("fence", ep->pe, st);
    if (op == HCOMM_SIGNAL_ADD)
        post_atomic(ep, seg, raddr, UCP_ATOMIC_OP_ADD, 8, value, NULL, false);
    else
        post_atomic(ep, seg, raddr, UCP_ATOMIC_OP_SWAP, 8, value, &ucx_discard, false);
}

/* The fetching operation with the same effect as OP. */
static enum hcomm_amo_op fetching_form(enum hcomm_amo_op op)
{
    switch (op) {
    case HCOMM_AMO_SET: return HCOMM_AMO_SWAP;
    case HCOMM_AMO_ADD: return HCOMM_AMO_FETCH_ADD;
    case HCOMM_AMO_AND: return HCOMM_AMO_FETCH_AND;
    case HCOMM_AMO_OR: return HCOMM_AMO_FETCH_OR;
    case HCOMM_AMO_XOR: return HCOMM_AMO_FETCH_XOR;
    default: return op;
    }
}

/* UCX 1.13's loopback ("self") transport leaves the word unchanged on
 * fetch-and/or and zeroes it on fetch-xor: to this PE, bitwise operations
 * are compare-and-swap loops, which it does right. */
static uint64_t bitwise_by_cswap(struct hcomm_ep *ep, int seg, uintptr_t raddr,
                                 enum hcomm_amo_op op, size_t size, uint64_t operand)
{
    uint64_t mask = size == 4 ? UINT32_MAX : UINT64_MAX;
    uint64_t seen = 0, old;
    post_atomic(ep, seg, raddr, UCP_ATOMIC_OP_ADD, size, 0, &seen, true);
    for (;;) {
        uint64_t want = op == HCOMM_AMO_FETCH_AND ? seen & operand
                        : op == HCOMM_AMO_FETCH_OR ? seen | operand
                                                   : seen ^ operand;
        old = want & mask;
        post_atomic(ep, seg, raddr, UCP_ATOMIC_OP_CSWAP, size, seen, &old, true);
        if (old == seen)
            return old;
        seen = old;
    }
}

static uint64_t ucx_amo_unlocked(struct hcomm_channel *ch, struct hcomm_ep *ep, int seg,
                                 uintptr_t raddr, enum hcomm_amo_op op, size_t size, uint64_t operand, uint64_t compare)
{
    (void)ch;
    uint64_t old = 0;
    /* The library (and many programs) read their own word right after an
     * AMO on it: to this PE, every AMO completes before it returns, which
     * only a fetching one guarantees. */
    if (ep->pe == ucx.my_pe && fetching_form(op) != op) {
        ucx_amo_unlocked(ch, ep, seg, raddr, fetching_form(op), size, operand, compare);
        return 0;
    }
    if (ep->pe == ucx.my_pe && (op == HCOMM_AMO_FETCH_AND || op == HCOMM_AMO_FETCH_OR ||
                                op == HCOMM_AMO_FETCH_XOR))
        return bitwise_by_cswap(ep, seg, raddr, op, size, operand);
    /* The UCP operation of each hcomm one, and whether it returns the old
     * value. Fetch is an add of 0 (UCP has no atomic load), set a swap
     * whose old value nobody reads. */
    static const struct {
        ucp_atomic_op_t op;
        bool fetch;
    } map[] = {
        [HCOMM_AMO_FETCH] = {UCP_ATOMIC_OP_ADD, true},
        [HCOMM_AMO_SET] = {UCP_ATOMIC_OP_SWAP, false},
        [HCOMM_AMO_SWAP] = {UCP_ATOMIC_OP_SWAP, true},
        [HCOMM_AMO_CSWAP] = {UCP_ATOMIC_OP_CSWAP, true},
        [HCOMM_AMO_FETCH_ADD] = {UCP_ATOMIC_OP_ADD, true},
        [HCOMM_AMO_ADD] = {UCP_ATOMIC_OP_ADD, false},
        [HCOMM_AMO_FETCH_AND] = {UCP_ATOMIC_OP_AND, true},
        [HCOMM_AMO_AND] = {UCP_ATOMIC_OP_AND, false},
        [HCOMM_AMO_FETCH_OR] = {UCP_ATOMIC_OP_OR, true},
        [HCOMM_AMO_OR] = {UCP_ATOMIC_OP_OR, false},
        [HCOMM_AMO_FETCH_XOR] = {UCP_ATOMIC_OP_XOR, true},
        [HCOMM_AMO_XOR] = {UCP_ATOMIC_OP_XOR, false},
    };
    if (op == HCOMM_AMO_FETCH)
        operand = 0;
    if (op == HCOMM_AMO_CSWAP) { /* the reply buffer carries the new value in */
        old = operand;
        operand = compare;
    }
    uint64_t *reply = map[op].fetch ? &old : op == HCOMM_AMO_SET ? &ucx_discard : NULL;
    post_atomic(ep, seg, raddr, map[op].op, size, operand, reply, map[op].fetch);
    return map[op].fetch ? old : 0;
}

static void *ucx_ptr(struct hcomm_ep *ep, int seg, uintptr_t raddr)
{
    (void)ep, (void)seg, (void)raddr;
    return NULL; /* not mapped into this process */
}

static void ucx_fence_unlocked(struct hcomm_channel *ch)
{
    (void)ch;
    ucs_status_t st = ucp_worker_fence(ucx.worker);
    if (st != UCS_OK)
        ucx_failed("fence", -1, st);
}

/* One worker serves every context, so quiet on any context completes the
 * operations of all: stronger than required, never weaker. */
static void ucx_quiet_unlocked(struct hcomm_channel *ch)
{
    (void)ch;
    ucp_request_param_t prm = {0};
    wait_request(ucp_worker_flush_nbx(ucx.worker, &prm), "quiet", -1);
}

/* The entry points, under the lock when threads share the worker. */
#define UCX_LOCKED(NAME, PARAMS, ARGS)                                                         \
    static void NAME PARAMS                                                                    \
    {                                                                                          \
        bool l = ucx_enter();                                                                  \
        NAME##_unlocked ARGS;                                                                  \
        ucx_leave(l);                                                                          \
    }
UCX_LOCKED(ucx_put, (struct hcomm_channel *ch, struct hcomm_ep *ep, int seg, uintptr_t raddr,
                     const void *src, size_t len, bool nbi), (ch, ep, seg, raddr, src, len, nbi))
UCX_LOCKED(ucx_get, (struct hcomm_channel *ch, struct hcomm_ep *ep, int seg, void *dst,
                     uintptr_t raddr, size_t len, bool nbi), (ch, ep, seg, dst, raddr, len, nbi))
UCX_LOCKED(ucx_iput, (struct hcomm_channel *ch, struct hcomm_ep *ep, int seg, uintptr_t raddr,
                      ptrdiff_t rstride, const void *src, ptrdiff_t sstride, size_t elem,
                      size_t nelems), (ch, ep, seg, raddr, rstride, src, sstride, elem, nelems))
UCX_LOCKED(ucx_iget, (struct hcomm_channel *ch, struct hcomm_ep *ep, int seg, void *dst,
                      ptrdiff_t dstride, uintptr_t raddr, ptrdiff_t rstride, size_t elem,
                      size_t nelems), (ch, ep, seg, dst, dstride, raddr, rstride, elem, nelems))
UCX_LOCKED(ucx_signal, (struct hcomm_channel *ch, struct hcomm_ep *ep, int seg, uintptr_t raddr,
                        uint64_t value, enum hcomm_signal_op op), (ch, ep, seg, raddr, value, op))
UCX_LOCKED(ucx_fence, (struct hcomm_channel *ch), (ch))
UCX_LOCKED(ucx_quiet, (struct hcomm_channel *ch), (ch))

static uint64_t ucx_amo(struct hcomm_channel *ch, struct hcomm_ep *ep, int seg, uintptr_t raddr,
                        enum hcomm_amo_op op, size_t size, uint64_t operand, uint64_t compare)
{
    bool l = ucx_enter();
    uint64_t old = ucx_amo_unlocked(ch, ep, seg, raddr, op, size, operand, compare);
    ucx_leave(l);
    return old;
}

static void ucx_threads(void)
{
    if (ucx_threaded)
        return;
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&ucx_lock, &a);
    pthread_mutexattr_destroy(&a);
    ucx_threaded = true;
}

const struct hcomm_ops ucx_ops = {
    .name = "ucx",
    .id = HCOMM_BACKEND_UCX,
    .put = ucx_put,
    .get = ucx_get,
    .iput = ucx_iput,
    .iget = ucx_iget,
    .signal = ucx_signal,
    .amo = ucx_amo,
    .ptr = ucx_ptr,
    .fence = ucx_fence,
    .quiet = ucx_quiet,
    .progress = ucx_progress,
    .threads = ucx_threads,
};

int ucx_open(const struct hcomm_domain *d)
{
    ucx.my_pe = d->my_pe;
    ucp_config_t *config;
    ucs_status_t st = ucp_config_read(NULL, NULL, &config);
    if (st != UCS_OK)
        goto fail;
    ucp_params_t params = {.field_mask = UCP_PARAM_FIELD_FEATURES,
                           .features = UCP_FEATURE_RMA | UCP_FEATURE_AMO32 | UCP_FEATURE_AMO64};
    st = ucp_init(&params, config, &ucx.context);
    ucp_config_release(config);
    if (st != UCS_OK)
        goto fail;
    ucp_worker_params_t wp = {.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE,
                              .thread_mode = UCS_THREAD_MODE_SINGLE};
    st = ucp_worker_create(ucx.context, &wp, &ucx.worker);
    if (st != UCS_OK)
        goto fail;
    st = ucp_worker_get_address(ucx.worker, &ucx.addr, &ucx.addr_len);
    if (st != UCS_OK)
        goto fail;
    for (int s = 0; s < HCOMM_MAX_SEGS; s++) {
        if (!d->seg[s].size)
            continue;
        /* The heap's range is reserved in full but backed as it grows:
         * NONBLOCK lets a fabric that pins memory register it on demand. */
        ucp_mem_map_params_t mp = {.field_mask = UCP_MEM_MAP_PARAM_FIELD_ADDRESS |
                                                 UCP_MEM_MAP_PARAM_FIELD_LENGTH |
                                                 UCP_MEM_MAP_PARAM_FIELD_FLAGS,
                                   .address = (void *)d->seg[s].base,
                                   .length = d->seg[s].size,
                                   .flags = UCP_MEM_MAP_NONBLOCK};
        st = ucp_mem_map(ucx.context, &mp, &ucx.mem[s]);
        if (st != UCS_OK)
            goto fail;
        st = ucp_rkey_pack(ucx.context, ucx.mem[s], &ucx.rkey[s], &ucx.rkey_len[s]);
        if (st != UCS_OK)
            goto fail;
        ucx.base[s] = d->seg[s].base;
        ucx.size[s] = d->seg[s].size;
    }
    return 0;
fail:
    oshm_warn("cannot open UCX: %s", ucs_status_string(st));
    ucx_close();
    return -1;
}

int ucx_card(void **blob, size_t *len)
{
    struct fabric_card card = {.addr = ucx.addr, .addr_len = (uint32_t)ucx.addr_len,
                               .ntokens = HCOMM_MAX_SEGS};
    for (int s = 0; s < HCOMM_MAX_SEGS; s++)
        card.token[s] = (struct fabric_token){.base = ucx.base[s], .size = ucx.size[s],
                                              .key = ucx.rkey[s],
                                              .key_len = (uint32_t)ucx.rkey_len[s]};
    return fabric_card_pack(&card, blob, len);
}

int ucx_connect(struct hcomm_ep *ep, const void *blob, size_t len)
{
    struct fabric_card card;
    if (fabric_card_unpack(blob, len, &card) != 0) {
        oshm_warn("malformed fabric card from PE %d", ep->pe);
        return -1;
    }
    struct ucx_peer *p = calloc(1, sizeof *p);
    if (!p)
        return -1;
    ep->priv[HCOMM_BACKEND_UCX] = p;
    ucp_ep_params_t prm = {.field_mask = UCP_EP_PARAM_FIELD_REMOTE_ADDRESS,
                           .address = card.addr};
    ucs_status_t st = ucp_ep_create(ucx.worker, &prm, &p->ep);
    if (st != UCS_OK) {
        oshm_warn("cannot reach PE %d through UCX: %s", ep->pe, ucs_status_string(st));
        return -1;
    }
    bool rma = ep->ops == NULL;
    for (uint32_t s = 0; s < card.ntokens && s < HCOMM_MAX_SEGS; s++) {
        if (!card.token[s].key_len)
            continue;
        st = ucp_ep_rkey_unpack(p->ep, card.token[s].key, &p->rkey[s]);
        if (st != UCS_OK) {
            oshm_warn("cannot use the memory key of PE %d: %s", ep->pe, ucs_status_string(st));
            return -1;
        }
        p->base[s] = card.token[s].base;
        if (rma)
            ep->seg_base[s] = (uintptr_t)card.token[s].base;
    }
    if (rma)
        ep->ops = &ucx_ops;
    return 0;
}

void ucx_disconnect_all(struct hcomm_domain *d)
{
    if (!ucx.worker)
        return;
    /* The caller made sure that nothing is in flight: closing needs no
     * reply from the peer, which may be gone. */
    ucp_request_param_t prm = {.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS,
                               .flags = UCP_EP_CLOSE_FLAG_FORCE};
    for (int pe = 0; pe < d->n_pes; pe++) {
        struct ucx_peer *p = d->eps[pe].priv[HCOMM_BACKEND_UCX];
        if (!p)
            continue;
        for (int s = 0; s < HCOMM_MAX_SEGS; s++)
            if (p->rkey[s])
                ucp_rkey_destroy(p->rkey[s]);
        if (p->ep) {
            void *req = ucp_ep_close_nbx(p->ep, &prm);
            if (req && !UCS_PTR_IS_ERR(req)) {
                while (ucp_request_check_status(req) == UCS_INPROGRESS)
                    ucp_worker_progress(ucx.worker);
                ucp_request_free(req);
            }
        }
        free(p);
        d->eps[pe].priv[HCOMM_BACKEND_UCX] = NULL;
    }
}

void ucx_close(void)
{
    for (int s = 0; s < HCOMM_MAX_SEGS; s++) {
        if (ucx.rkey[s])
            ucp_rkey_buffer_release(ucx.rkey[s]);
        if (ucx.mem[s])
            ucp_mem_unmap(ucx.context, ucx.mem[s]);
    }
    if (ucx.addr)
        ucp_worker_release_address(ucx.worker, ucx.addr);
    if (ucx.worker)
        ucp_worker_destroy(ucx.worker);
    if (ucx.context)
        ucp_cleanup(ucx.context);
    memset(&ucx, 0, sizeof ucx);
    if (ucx_threaded) {
        pthread_mutex_destroy(&ucx_lock);
        ucx_threaded = false;
    }
}
