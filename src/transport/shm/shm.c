#include "transport/shm/shm.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "ipc/ipc.h"

/* What a peer needs to map this PE's segments. */
struct shm_blob {
    struct ipc_key key[HCOMM_MAX_SEGS];
    uint32_t nsegs;
};

/* Per-endpoint mappings of the peer's segments, for unmapping. */
struct shm_peer {
    void *va[HCOMM_MAX_SEGS];
    struct vmm_handle mem[HCOMM_MAX_SEGS];
};

static struct shm_blob published;

static void shm_put(struct hcomm_channel *ch, struct hcomm_ep *ep, int seg, uintptr_t raddr,
                    const void *src, size_t len, bool nbi)
{
    (void)ch, (void)ep, (void)seg, (void)nbi;
    memcpy((void *)raddr, src, len);
}

static void shm_get(struct hcomm_channel *ch, struct hcomm_ep *ep, int seg, void *dst,
                    uintptr_t raddr, size_t len, bool nbi)
{
    (void)ch, (void)ep, (void)seg, (void)nbi;
    memcpy(dst, (const void *)raddr, len);
}

/* Copies with the element size known to the compiler, so each element is one
 * load and one store. */
#define SHM_STRIDED_COPY(T, d, dstride, s, sstride, n)                    \
    do {                                                                  \
        for (size_t i_ = 0; i_ < (n); i_++) {                             \
            *(T *)(d) = *(const T *)(s);                                  \
            d += (dstride);                                               \
            s += (sstride);                                               \
        }                                                                 \
    } while (0)

static void strided_copy(char *d, ptrdiff_t dstride, const char *s, ptrdiff_t sstride, size_t elem,
                         size_t n)
{
    switch (elem) {
    case 1: SHM_STRIDED_COPY(uint8_t, d, dstride, s, sstride, n); break;
    case 2: SHM_STRIDED_COPY(uint16_t, d, dstride, s, sstride, n); break;
    case 4: SHM_STRIDED_COPY(uint32_t, d, dstride, s, sstride, n); break;
    case 8: SHM_STRIDED_COPY(uint64_t, d, dstride, s, sstride, n); break;
    default:
        for (size_t i = 0; i < n; i++, d += dstride, s += sstride)
            memcpy(d, s, elem);
    }
}

static void shm_iput(struct hcomm_channel *ch, struct hcomm_ep *ep, int seg, uintptr_t raddr,
                     ptrdiff_t rstride, const void *src, ptrdiff_t sstride, size_t elem,
                     size_t nelems)
{
    (void)ch, (void)ep, (void)seg;
    strided_copy((char *)raddr, rstride, src, sstride, elem, nelems);
}

static void shm_iget(struct hcomm_channel *ch, struct hcomm_ep *ep, int seg, void *dst,
                     ptrdiff_t dstride, uintptr_t raddr, ptrdiff_t rstride, size_t elem,
                     size_t nelems)
{
    (void)ch, (void)ep, (void)seg;
    strided_copy(dst, dstride, (const char *)raddr, rstride, elem, nelems);
}

static void shm_signal(struct hcomm_channel *ch, struct hcomm_ep *ep, int seg, uintptr_t raddr,
                       uint64_t value, enum hcomm_signal_op op)
{
    (void)ch, (void)ep, (void)seg;
    _Atomic uint64_t *w = (_Atomic uint64_t *)raddr;
    /* Release: the data stored before the signal is visible to whoever sees it. */
    if (op == HCOMM_SIGNAL_ADD)
        atomic_fetch_add_explicit(w, value, memory_order_release);
    else
        atomic_store_explicit(w, value, memory_order_release);
}

/* One implementation per word size; the operand is the bit pattern. */
#define SHM_AMO(BITS)                                                                        \
    static uint64_t shm_amo##BITS(_Atomic uint##BITS##_t *w, enum hcomm_amo_op op,           \
                                  uint##BITS##_t v, uint##BITS##_t cmp)                      \
    {                                                                                        \
        switch (op) {                                                                        \
        case HCOMM_AMO_FETCH: return atomic_load_explicit(w, memory_order_acquire);          \
        case HCOMM_AMO_SET: atomic_store_explicit(w, v, memory_order_release); return 0;     \
        case HCOMM_AMO_SWAP: return atomic_exchange(w, v);                                   \
        case HCOMM_AMO_CSWAP:                                                                \
            atomic_compare_exchange_strong(w, &cmp, v);                                      \
            return cmp;                                                                      \
        case HCOMM_AMO_FETCH_ADD:                                                            \
        case HCOMM_AMO_ADD: return atomic_fetch_add(w, v);                                   \
        case HCOMM_AMO_FETCH_AND:                                                            \
        case HCOMM_AMO_AND: return atomic_fetch_and(w, v);                                   \
        case HCOMM_AMO_FETCH_OR:                                                             \
        case HCOMM_AMO_OR: return atomic_fetch_or(w, v);                                     \
        case HCOMM_AMO_FETCH_XOR:                                                            \
        case HCOMM_AMO_XOR: return atomic_fetch_xor(w, v);                                   \
        }                                                                                    \
        return 0;                                                                            \
    }
SHM_AMO(32)
SHM_AMO(64)

static uint64_t shm_amo(struct hcomm_channel *ch, struct hcomm_ep *ep, int seg, uintptr_t raddr,
                        enum hcomm_amo_op op, size_t size, uint64_t operand, uint64_t compare)
{
    (void)ch, (void)ep, (void)seg;
    if (size == 4)
        return shm_amo32((_Atomic uint32_t *)raddr, op, (uint32_t)operand, (uint32_t)compare);
    return shm_amo64((_Atomic uint64_t *)raddr, op, operand, compare);
}

static void *shm_ptr(struct hcomm_ep *ep, int seg, uintptr_t raddr)
{
    (void)ep, (void)seg;
    return (void *)raddr;
}

/* Stores to mapped memory complete when issued; ordering is all there is. */
static void shm_fence(struct hcomm_channel *ch)
{
    (void)ch;
    atomic_thread_fence(memory_order_release);
}

static void shm_quiet(struct hcomm_channel *ch)
{
    (void)ch;
    atomic_thread_fence(memory_order_seq_cst);
}

const struct hcomm_ops shm_ops = {
    .name = "shm",
    .id = HCOMM_BACKEND_SHM,
    .put = shm_put,
    .get = shm_get,
    .iput = shm_iput,
    .iget = shm_iget,
    .signal = shm_signal,
    .amo = shm_amo,
    .ptr = shm_ptr,
    .fence = shm_fence,
    .quiet = shm_quiet,
};

size_t shm_addr_size(void) { return sizeof(struct shm_blob); }

int shm_publish(const struct hcomm_domain *d, const pid_t *pids, int npids, void *blob)
{
    memset(&published, 0, sizeof published);
    for (int s = 0; s < HCOMM_MAX_SEGS; s++) {
        if (!d->seg[s].size)
            continue;
        if (ipc_export(&d->seg[s].mem, pids, npids, &published.key[s]) != 0)
            return -1;
        /* Peers map the whole range; the owner's memory may grow into it. */
        published.key[s].size = d->seg[s].size;
        published.nsegs = (uint32_t)s + 1;
    }
    memcpy(blob, &published, sizeof published);
    return 0;
}

void shm_unpublish(void)
{
    for (uint32_t s = 0; s < published.nsegs; s++)
        if (published.key[s].id)
            ipc_unexport(&published.key[s]);
    memset(&published, 0, sizeof published);
}

int shm_connect(struct hcomm_domain *d, struct hcomm_ep *ep, const void *blob)
{
    ep->ops = &shm_ops;
    ep->amo_ops = &shm_ops;
    if (!blob) { /* this PE: its own segments, as they are */
        for (int s = 0; s < HCOMM_MAX_SEGS; s++)
            ep->seg_base[s] = d->seg[s].base;
        return 0;
    }
    struct shm_blob b;
    memcpy(&b, blob, sizeof b);
    struct shm_peer *peer = calloc(1, sizeof *peer);
    if (!peer)
        return -1;
    ep->priv[HCOMM_BACKEND_SHM] = peer;
    for (uint32_t s = 0; s < b.nsegs && s < HCOMM_MAX_SEGS; s++) {
        if (!b.key[s].id)
            continue;
        peer->va[s] = ipc_map(&b.key[s], &peer->mem[s]);
        if (!peer->va[s])
            return -1;
        ep->seg_base[s] = (uintptr_t)peer->va[s];
    }
    return 0;
}

void shm_disconnect(struct hcomm_ep *ep)
{
    struct shm_peer *peer = ep->priv[HCOMM_BACKEND_SHM];
    if (!peer)
        return;
    for (int s = 0; s < HCOMM_MAX_SEGS; s++)
        if (peer->va[s])
            ipc_unmap(peer->va[s], &peer->mem[s]);
    free(peer);
    ep->priv[HCOMM_BACKEND_SHM] = NULL;
}
