#include "transport/shm/shm.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "ipc/ipc.h"
#include "util/copy.h"
#include "util/log.h"

/* What a peer needs to map this PE's segments, or to reach them before it
 * maps them: where they lie in the owner's address space. */
struct shm_card {
    struct ipc_key key[BACKEND_MAX_SEGS];
    uint64_t owner_base[BACKEND_MAX_SEGS];
    uint32_t nsegs;
};

/* A put or get to a peer's segment not yet mapped goes through the kernel
 * (cross-memory attach: process_vm_writev/readv, one copy), up to this many
 * times a segment; then the segment is mapped. Mapping costs an open, an
 * mmap, a page-table page and a fault on first touch (100-150 us a peer on
 * the VMs measured, 3 us for a copy through the kernel), and every mapped
 * peer page counts in this PE's RSS: a program that puts once to every PE
 * of a node of N (start-up exchanges, a ring's neighbour) would otherwise
 * pay N of them in every PE, N^2 on the node. Like renting before buying:
 * a peer used more often than this pays the mapping once and then stores
 * directly. AMOs, signals and shmem_ptr map at once. */
#define SHM_KERNEL_COPIES 16

/* Where a peer's segments are mapped here (this PE's own: where they are).
 * A peer's segment is mapped when first touched: most programs reach most
 * peers' heap and few peers' data or device heap, and at N PEs a node each
 * mapping is N^2 opens and mmaps. */
struct backend_peer {
    _Atomic(char *) base[BACKEND_MAX_SEGS];
    struct ipc_key key[BACKEND_MAX_SEGS]; /* to map from; id 0: no such segment */
    uint64_t owner_base[BACKEND_MAX_SEGS];
    _Atomic uint32_t kernel_copies[BACKEND_MAX_SEGS]; /* left before mapping */
    int pe;
    bool mapped; /* another PE's: unmapped at disconnect */
};

static struct {
    const struct backend_seg *seg;
    int my_pe;
    struct shm_card published;
} shm;

/* Maps segment SEG of peer P, once, whichever thread asks first. */
static pthread_mutex_t map_lock = PTHREAD_MUTEX_INITIALIZER;

static __attribute__((noinline, cold)) char *map_segment(struct backend_peer *p, int seg)
{
    pthread_mutex_lock(&map_lock);
    char *b = atomic_load_explicit(&p->base[seg], memory_order_relaxed);
    if (!b && p->key[seg].id) {
        struct vmm_handle h;
        b = ipc_map(&p->key[seg], &h);
        if (!b)
            oshm_fatal("cannot map PE %d's memory (segment %d): %s", p->pe, seg,
                       strerror(errno));
        atomic_store_explicit(&p->base[seg], b, memory_order_release);
    }
    pthread_mutex_unlock(&map_lock);
    if (!b)
        oshm_fatal("PE %d has no segment %d to reach", p->pe, seg);
    return b;
}

static inline char *at(struct backend_peer *p, int seg, size_t off)
{
    char *b = atomic_load_explicit(&p->base[seg], memory_order_acquire);
    if (__builtin_expect(!b, 0))
        b = map_segment(p, seg);
    return b + off;
}

/* Cleared when the kernel refuses a copy for a reason that holds for every
 * peer (a seccomp filter, Yama): mapping is then the only way. */
static _Atomic bool kernel_copy_allowed = true;

/* LEN bytes between LOCAL and offset OFF of P's unmapped segment SEG, through
 * the kernel (WRITE: to the peer); false when not done that way (used up,
 * not host memory, refused, or beyond what the owner has mapped: the caller
 * maps, and a bad offset fails there as it would have). Complete on
 * return, like a store. */
static __attribute__((noinline, cold)) bool kernel_copy(struct backend_peer *p, int seg, size_t off,
                                                        void *local, size_t len, bool write)
{
    if (!atomic_load_explicit(&kernel_copy_allowed, memory_order_relaxed) || !p->owner_base[seg] ||
        p->key[seg].kind != VMM_KIND_HOST ||
        atomic_load_explicit(&p->kernel_copies[seg], memory_order_relaxed) == 0)
        return false;
    atomic_fetch_sub_explicit(&p->kernel_copies[seg], 1, memory_order_relaxed);
    size_t done = 0;
    while (done < len) {
        struct iovec mine = {.iov_base = (char *)local + done, .iov_len = len - done};
        struct iovec theirs = {.iov_base = (void *)(uintptr_t)(p->owner_base[seg] + off + done),
                               .iov_len = len - done};
        pid_t pid = (pid_t)p->key[seg].owner_pid;
        ssize_t n = write ? process_vm_writev(pid, &mine, 1, &theirs, 1, 0)
                          : process_vm_readv(pid, &mine, 1, &theirs, 1, 0);
        if (n <= 0) {
            if (n < 0 && (errno == EPERM || errno == ENOSYS || errno == EACCES))
                atomic_store_explicit(&kernel_copy_allowed, false, memory_order_relaxed);
            /* A partial copy is redone whole through the mapping: same
             * bytes, and the mapping is what fails if any can. */
            atomic_store_explicit(&p->kernel_copies[seg], 0, memory_order_relaxed);
            return false;
        }
        done += (size_t)n;
    }
    return true;
}

static inline bool unmapped(struct backend_peer *p, int seg)
{
    return __builtin_expect(!atomic_load_explicit(&p->base[seg], memory_order_acquire), 0);
}

static void shm_put(struct backend_chan *ch, struct backend_peer *p, int seg, size_t off,
                    const void *src, size_t len, bool nbi)
{
    (void)ch, (void)nbi;
    if (unmapped(p, seg) && kernel_copy(p, seg, off, (void *)src, len, true))
        return;
    oshm_copy(at(p, seg, off), src, len);
}

static void shm_get(struct backend_chan *ch, struct backend_peer *p, int seg, size_t off,
                    void *dst, size_t len, bool nbi)
{
    (void)ch, (void)nbi;
    if (unmapped(p, seg) && kernel_copy(p, seg, off, dst, len, false))
        return;
    oshm_copy(dst, at(p, seg, off), len);
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

static void shm_iput(struct backend_chan *ch, struct backend_peer *p, int seg, size_t off,
                     ptrdiff_t rstride, const void *src, ptrdiff_t sstride, size_t elem,
                     size_t nelems)
{
    (void)ch;
    strided_copy(at(p, seg, off), rstride, src, sstride, elem, nelems);
}

static void shm_iget(struct backend_chan *ch, struct backend_peer *p, int seg, size_t off,
                     ptrdiff_t rstride, void *dst, ptrdiff_t dstride, size_t elem, size_t nelems)
{
    (void)ch;
    strided_copy(dst, dstride, at(p, seg, off), rstride, elem, nelems);
}

static void shm_signal(struct backend_chan *ch, struct backend_peer *p, int seg, size_t off,
                       uint64_t value, enum backend_signal_op op)
{
    (void)ch;
    _Atomic uint64_t *w = (_Atomic uint64_t *)at(p, seg, off);
    /* Release: the data stored before the signal is visible to whoever sees it. */
    if (op == BACKEND_SIGNAL_ADD)
        atomic_fetch_add_explicit(w, value, memory_order_release);
    else
        atomic_store_explicit(w, value, memory_order_release);
}

/* One implementation per word size; the operand is the bit pattern.
 * The read-modify-writes that compile to one locked instruction read the
 * word first: the word usually sits in the owner's cache, and on the AMD
 * machines measured a plain load fetches the line while earlier work is
 * still in flight, where a locked instruction waits until it is the oldest
 * and then fetches. In amo_bench (each call on a line the target has just
 * written) add/inc/swap/compare_swap went from 0.013-0.025 to 0.010-0.014
 * us a call, alternating runs; one word fetch-added by two PEs at once
 * stayed at 36-42 ns. The bitwise operations are compare-exchange loops
 * that begin with that load anyway. */
#define SHM_AMO(BITS)                                                                        \
    static uint64_t shm_amo##BITS(_Atomic uint##BITS##_t *w, enum backend_amo_op op,         \
                                  uint##BITS##_t v, uint##BITS##_t cmp)                      \
    {                                                                                        \
        if (op == BACKEND_AMO_SWAP || op == BACKEND_AMO_CSWAP || op == BACKEND_AMO_ADD ||    \
            op == BACKEND_AMO_FETCH_ADD)                                                     \
            (void)atomic_load_explicit(w, memory_order_relaxed);                             \
        switch (op) {                                                                        \
        case BACKEND_AMO_FETCH: return atomic_load_explicit(w, memory_order_acquire);        \
        case BACKEND_AMO_SET: atomic_store_explicit(w, v, memory_order_release); return 0;   \
        case BACKEND_AMO_SWAP: return atomic_exchange(w, v);                                 \
        case BACKEND_AMO_CSWAP:                                                              \
            atomic_compare_exchange_strong(w, &cmp, v);                                      \
            return cmp;                                                                      \
        case BACKEND_AMO_FETCH_ADD:                                                          \
        case BACKEND_AMO_ADD: return atomic_fetch_add(w, v);                                 \
        case BACKEND_AMO_FETCH_AND:                                                          \
        case BACKEND_AMO_AND: return atomic_fetch_and(w, v);                                 \
        case BACKEND_AMO_FETCH_OR:                                                           \
        case BACKEND_AMO_OR: return atomic_fetch_or(w, v);                                   \
        case BACKEND_AMO_FETCH_XOR:                                                          \
        case BACKEND_AMO_XOR: return atomic_fetch_xor(w, v);                                 \
        }                                                                                    \
        return 0;                                                                            \
    }
SHM_AMO(32)
SHM_AMO(64)

static uint64_t shm_amo(struct backend_chan *ch, struct backend_peer *p, int seg, size_t off,
                        enum backend_amo_op op, size_t size, uint64_t operand, uint64_t compare)
{
    (void)ch;
    void *w = at(p, seg, off);
    if (size == 4)
        return shm_amo32(w, op, (uint32_t)operand, (uint32_t)compare);
    return shm_amo64(w, op, operand, compare);
}

static void *shm_ptr(struct backend_peer *p, int seg, size_t off) { return at(p, seg, off); }

static void *shm_peek(struct backend_peer *p, int seg)
{
    return atomic_load_explicit(&p->base[seg], memory_order_relaxed);
}

/* Stores to mapped memory complete when issued; ordering is all there is. */
static void shm_fence(struct backend_chan *ch)
{
    (void)ch;
    atomic_thread_fence(memory_order_release);
}

static void shm_quiet(struct backend_chan *ch)
{
    (void)ch;
    atomic_thread_fence(memory_order_seq_cst);
}

static int shm_open(const struct backend_config *cfg)
{
    shm.seg = cfg->seg;
    shm.my_pe = cfg->my_pe;
    return 0;
}

static int shm_card(const pid_t *pids, int npids, void **blob, size_t *len)
{
    memset(&shm.published, 0, sizeof shm.published);
    for (int s = 0; s < BACKEND_MAX_SEGS; s++) {
        if (!shm.seg[s].size)
            continue;
        if (ipc_export(&shm.seg[s].mem, pids, npids, &shm.published.key[s]) != 0)
            return -1;
        /* The node's PEs are this user's processes: N^2 imports at an open
         * each, not a wake-up of the owner each (src/ipc/ipc.h). */
        if (ipc_export_direct(&shm.published.key[s]) != 0)
            return -1;
        /* Peers map the whole range; the owner's memory may grow into it. */
        shm.published.key[s].size = shm.seg[s].size;
        shm.published.owner_base[s] = (uint64_t)shm.seg[s].base;
        shm.published.nsegs = (uint32_t)s + 1;
    }
    *blob = malloc(sizeof shm.published);
    if (!*blob)
        return -1;
    memcpy(*blob, &shm.published, sizeof shm.published);
    *len = sizeof shm.published;
    return 0;
}

static int shm_connect(int pe, const void *blob, size_t len, struct backend_peer **out)
{
    struct backend_peer *p = calloc(1, sizeof *p);
    if (!p)
        return -1;
    *out = p;
    p->pe = pe;
    if (pe == shm.my_pe) { /* its own segments, as they are */
        for (int s = 0; s < BACKEND_MAX_SEGS; s++)
            atomic_init(&p->base[s], (char *)shm.seg[s].base);
        return 0;
    }
    struct shm_card c;
    if (len != sizeof c)
        return -1;
    memcpy(&c, blob, sizeof c);
    if (c.nsegs > BACKEND_MAX_SEGS)
        return -1;
    p->mapped = true;
    for (uint32_t s = 0; s < c.nsegs; s++) {
        p->key[s] = c.key[s];
        p->owner_base[s] = c.owner_base[s];
        atomic_init(&p->kernel_copies[s], SHM_KERNEL_COPIES);
    }
    return 0;
}

/* Peers' mappings that disconnect left for close to unmap together
 * (ipc_unmap_all: one TLB flush for many). */
static struct {
    struct ipc_mapping *m;
    size_t n, cap;
} retired;

static void retire(char *b, size_t size)
{
    if (retired.n == retired.cap) {
        size_t cap = retired.cap ? 2 * retired.cap : 64;
        struct ipc_mapping *m = realloc(retired.m, cap * sizeof *m);
        if (!m) { /* unmapped alone, as before */
            struct vmm_handle h = {.fd = -1, .size = size};
            ipc_unmap(b, &h);
            return;
        }
        retired.m = m;
        retired.cap = cap;
    }
    retired.m[retired.n++] = (struct ipc_mapping){.va = b, .size = size};
}

static void shm_disconnect(struct backend_peer *p)
{
    if (!p)
        return;
    for (int s = 0; p->mapped && s < BACKEND_MAX_SEGS; s++) {
        char *b = atomic_load_explicit(&p->base[s], memory_order_relaxed);
        if (b)
            retire(b, (size_t)p->key[s].size);
    }
    free(p);
}

static void shm_close(void)
{
    ipc_unmap_all(retired.m, retired.n);
    free(retired.m);
    memset(&retired, 0, sizeof retired);
    for (uint32_t s = 0; s < shm.published.nsegs; s++)
        if (shm.published.key[s].id)
            ipc_unexport(&shm.published.key[s]);
    memset(&shm, 0, sizeof shm);
}

/* No per-channel state: every operation completes as it is issued. */
static int shm_chan_open(enum backend_chan_mode mode, bool eager, struct backend_chan **ch)
{
    (void)mode, (void)eager;
    *ch = NULL;
    return 0;
}

static void shm_chan_close(struct backend_chan *ch) { (void)ch; }

static const char *shm_describe(struct backend_peer *p)
{
    (void)p;
    return "shared memory";
}

const struct backend_ops shm_backend = {
    .name = "shm",
    .flags = BACKEND_LOCAL,
    .open = shm_open,
    .card = shm_card,
    .connect = shm_connect,
    .disconnect = shm_disconnect,
    .close = shm_close,
    .chan_open = shm_chan_open,
    .chan_close = shm_chan_close,
    .put = shm_put,
    .get = shm_get,
    .iput = shm_iput,
    .iget = shm_iget,
    .signal = shm_signal,
    .amo = shm_amo,
    .ptr = shm_ptr,
    .peek = shm_peek,
    .fence = shm_fence,
    .quiet = shm_quiet,
    .describe = shm_describe,
};
