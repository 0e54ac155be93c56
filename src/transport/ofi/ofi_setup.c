/*
 * libfabric set-up: which provider, its fabric, domain and address vector,
 * the target endpoint, memory registration as the segments grow, the card
 * peers connect with, and what this PE keeps of each peer.
 *
 * Registration follows what the provider says it requires (the FI_MR_*
 * bits of mr_mode): keys the provider picks (PROV_KEY) or this PE picks,
 * virtual addresses (VIRT_ADDR) or offsets into the registration, keys
 * bound to the target endpoint (ENDPOINT), raw keys that peers map
 * (RAW), and registered local buffers (LOCAL: see ofi_rma.c). Only memory
 * that exists is registered (ALLOCATED, and any fabric that pins pages): a
 * segment is registered range by range as its backed part grows, and every
 * new range's key reaches every peer before anyone may use the memory
 * (grow/peer_grow, driven by hcomm during the collective allocation).
 */
#include "transport/ofi/ofi.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/env.h"
#include "util/log.h"
#include "fabric/fabric.h"
#include "fabric/fabric_ranges.h"
#include "transport/net_card.h"
#include "transport/ofi/ofi_int.h"

struct ofi_state ofi = {.target_fd = -1, .target_lock = PTHREAD_MUTEX_INITIALIZER,
                        .chans = CHAN_POOL_INIT};

void ofi_failed(const char *what, int pe, int err)
{
    const char *prov = ofi.prov ? ofi.prov : "(no provider)";
    if (err < 0)
        err = -err;
    if (pe >= 0)
        oshm_fatal("libfabric (provider %s): %s by PE %d to PE %d failed: %s", prov, what,
                   ofi.my_pe, pe, fi_strerror(err));
    oshm_fatal("libfabric (provider %s): %s on PE %d failed: %s", prov, what, ofi.my_pe,
               fi_strerror(err));
}

int ofi_mr_ready(struct fid_mr *mr, struct fid_ep *ep)
{
    if (!(ofi.mr_mode & FI_MR_ENDPOINT))
        return 0;
    int rc = fi_mr_bind(mr, &ep->fid, 0);
    if (rc == 0)
        rc = fi_mr_enable(mr);
    /* Imposed by SHMEM_OFI_FORCE on a provider without bindings: the path
     * ran, the provider refuses a binding it does not need. */
    if ((rc == -FI_ENOSYS || rc == -FI_EOPNOTSUPP || rc == -FI_EINVAL) &&
        (ofi.forced & FI_MR_ENDPOINT))
        rc = 0;
    if (rc != 0)
        fi_close(&mr->fid);
    return rc;
}

static struct net_ranges ranges(void);

/* A range's key as it travels: the raw base, then the key (8 bytes, or the
 * raw key). */
static void pack_key(struct ofi_range *r)
{
    memcpy(r->packed, &r->raw_base, 8);
    if (r->raw_len) {
        memcpy(r->packed + 8, r->raw, r->raw_len);
        r->packed_len = (uint32_t)(8 + r->raw_len);
    } else {
        memcpy(r->packed + 8, &r->key, 8);
        r->packed_len = 16;
    }
}

/* Registers [start, end) of this PE's segment SEG as its next range. */
static int register_range(int seg, size_t start, size_t end)
{
    const struct net_ranges nr = ranges();
    if (!net_range_allowed(&nr, seg, start, end))
        return -1;
    uint32_t n = ofi.nranges[seg];
    const struct backend_seg *s = &ofi.seg[seg];
    struct ofi_range *r = &ofi.range[seg][n];
    uint64_t access = FI_REMOTE_READ | FI_REMOTE_WRITE;
    if (ofi.mr_mode & FI_MR_LOCAL)
        access |= FI_READ | FI_WRITE;
    void *addr = (void *)(s->base + start);
    /* Keys this PE picks are unique in its domain: one per range. Where the
     * provider is taken to pick them (SHMEM_OFI_FORCE=prov_key), they are
     * ones no peer could guess, so only the published key can work. */
    uint64_t want = (uint64_t)seg * OFI_MAX_RANGES + n + 1;
    if (ofi.forced & FI_MR_PROV_KEY)
        want |= (uint64_t)getpid() << 10;
    int rc = fi_mr_reg(ofi.domain, addr, end - start, access, 0, want, 0, &r->mr, NULL);
    if (rc == 0)
        rc = ofi_mr_ready(r->mr, ofi.target);
    if (rc != 0) {
        oshm_warn("libfabric (provider %s) cannot register %zu bytes at %p: %s", ofi.prov,
                  end - start, addr, fi_strerror(-rc));
        return -1;
    }
    r->key = fi_mr_key(r->mr);
    r->raw_len = 0;
    if (ofi.mr_mode & FI_MR_RAW) {
        r->raw_len = sizeof r->raw;
        rc = fi_mr_raw_attr(r->mr, &r->raw_base, r->raw, &r->raw_len, 0);
        if (rc != 0) {
            fi_close(&r->mr->fid);
            oshm_warn("libfabric (provider %s) gives no raw key of %zu bytes: %s", ofi.prov,
                      end - start, fi_strerror(-rc));
            return -1;
        }
    }
    pack_key(r);
    r->start = start;
    r->end = end;
    ofi.nranges[seg] = n + 1;
    oshm_debug("libfabric: registered [%p, +%zu) of segment %d", addr, end - start, seg);
    return 0;
}

void *ofi_heap_desc(const void *buf, size_t len)
{
    if (!(ofi.mr_mode & FI_MR_LOCAL) || (ofi.mr_mode & FI_MR_ENDPOINT))
        return NULL; /* not needed; or bound to the target endpoint only */
    uintptr_t a = (uintptr_t)buf;
    for (int s = 0; s < BACKEND_MAX_SEGS; s++) {
        uintptr_t base = ofi.seg[s].base;
        for (uint32_t i = 0; i < ofi.nranges[s]; i++) {
            const struct ofi_range *r = &ofi.range[s][i];
            if (a >= base + r->start && a - (base + r->start) + len <= r->end - r->start)
                return fi_mr_desc(r->mr);
        }
    }
    return NULL;
}

/* What the program may ask of the provider, and which provider. */
static struct fi_info *hints(void)
{
    struct fi_info *h = fi_dupinfo(NULL); /* fi_allocinfo, through the loaded library */
    if (!h)
        return NULL;
    h->ep_attr->type = FI_EP_RDM;
    h->caps = FI_RMA | FI_ATOMIC | FI_READ | FI_WRITE | FI_REMOTE_READ | FI_REMOTE_WRITE;
    h->mode = 0;
    h->domain_attr->mr_mode = FI_MR_LOCAL | FI_MR_VIRT_ADDR | FI_MR_ALLOCATED | FI_MR_PROV_KEY |
                              FI_MR_ENDPOINT | FI_MR_RAW;
    h->domain_attr->threading = FI_THREAD_SAFE;
    /* The library's waits and its thread drive progress: a provider that can
     * leave it to them (sockets) needs no thread of its own, which on a busy
     * node is descheduled for milliseconds per completion (measured: 15 ms a
     * fetching atomic over sockets in automatic mode, 2 PEs on 2 cores). */
    h->domain_attr->data_progress = FI_PROGRESS_MANUAL;
    h->domain_attr->control_progress = FI_PROGRESS_MANUAL;
    h->domain_attr->av_type = FI_AV_TABLE;
    h->tx_attr->op_flags = FI_DELIVERY_COMPLETE;
    const char *want = oshm_env.ofi_provider;
    if (want && *want && !(h->fabric_attr->prov_name = strdup(want))) {
        fi_freeinfo(h);
        return NULL;
    }
    return h;
}

static bool has_all(uint64_t have, uint64_t want) { return (have & want) == want; }

/* libfabric 1.17's reliable-datagram layer over udp (ofi_rxd) offers RMA
 * and atomics but does not carry them: a fetching atomic crashes the target
 * in fi_cq_read and writes end in truncation errors (ofiwg/libfabric#11814,
 * #11481; seen here from 2 PEs on 2 nodes). A job on it would die at its
 * first atomic, so it is never chosen. */
static bool provider_unusable(const struct fi_info *i)
{
    return strstr(i->fabric_attr->prov_name, "ofi_rxd") != NULL;
}

/* The first usable provider of fi_getinfo's list, alone (the rest freed). */
static struct fi_info *first_usable(struct fi_info *list)
{
    struct fi_info *i = list;
    while (i && provider_unusable(i))
        i = i->next;
    if (!i) {
        oshm_warn("libfabric offers only %s for reliable datagram endpoints here, whose RMA and "
                  "atomics crash in libfabric (ofiwg/libfabric#11814): not used; "
                  "FI_PROVIDER=tcp (or verbs, cxi, psm3) reaches the same peers",
                  list->fabric_attr->prov_name);
        fi_freeinfo(list);
        return NULL;
    }
    struct fi_info *one = i == list && !i->next ? i : fi_dupinfo(i);
    if (one != list)
        fi_freeinfo(list);
    if (!one)
        oshm_warn("libfabric: no memory to keep the provider's description");
    return one;
}

/* Which AMOs the provider carries out itself, per size, op and form. */
static void query_atomics(void)
{
    static const enum fi_op ops[] = {FI_ATOMIC_READ, FI_ATOMIC_WRITE, FI_CSWAP, FI_SUM,
                                     FI_BAND, FI_BOR, FI_BXOR};
    static const uint64_t forms[] = {0, FI_FETCH_ATOMIC, FI_COMPARE_ATOMIC};
    for (int z = 0; z < 2; z++)
        for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++)
            for (int f = 0; f < 3; f++) {
                struct fi_atomic_attr attr;
                int rc = fi_query_atomic(ofi.domain, z ? FI_UINT64 : FI_UINT32, ops[o], &attr,
                                         forms[f]);
                ofi.amo_ok[z][ops[o]][f] = rc == 0 && attr.count >= 1;
            }
}

/* The cheapest way the provider's ordering allows to order writes. */
static enum ofi_fence_mode fence_mode(const struct fi_info *i)
{
    uint64_t all = FI_ORDER_RAR | FI_ORDER_RAW | FI_ORDER_WAR | FI_ORDER_WAW;
    size_t big = (size_t)1 << 40;
    if (has_all(i->tx_attr->msg_order, all) && i->ep_attr->max_order_waw_size >= big &&
        i->ep_attr->max_order_raw_size >= big && i->ep_attr->max_order_war_size >= big)
        return OFI_FENCE_ORDERED;
    if (i->caps & FI_FENCE)
        return OFI_FENCE_FLAG;
    return OFI_FENCE_WAIT;
}

static int open_target(void)
{
    struct fi_av_attr ava = {.type = FI_AV_TABLE, .count = (size_t)ofi.n_pes};
    int rc;
    if ((rc = fi_av_open(ofi.domain, &ava, &ofi.av, NULL)) != 0)
        return rc;
    if ((rc = fi_endpoint(ofi.domain, ofi.info, &ofi.target, NULL)) != 0)
        return rc;
    if ((rc = ofi_cq_open(&ofi.target_cq, &ofi.target_fd)) != 0)
        return rc;
    if ((rc = fi_ep_bind(ofi.target, &ofi.av->fid, 0)) != 0 ||
        (rc = fi_ep_bind(ofi.target, &ofi.target_cq->fid,
                         FI_TRANSMIT | FI_RECV | FI_SELECTIVE_COMPLETION)) != 0 ||
        (rc = fi_enable(ofi.target)) != 0)
        return rc;
    ofi.addr_len = sizeof ofi.addr;
    return fi_getname(&ofi.target->fid, ofi.addr, &ofi.addr_len);
}

static void print_choice(void)
{
    if (!oshm_env.info || ofi.my_pe != 0)
        return;
    printf("libfabric: provider %s, fabric %s, domain %s; mr_mode 0x%llx, %s progress, "
           "fence by %s\n", ofi.prov, ofi.info->fabric_attr->name, ofi.info->domain_attr->name,
           (unsigned long long)ofi.mr_mode, ofi.manual ? "manual" : "automatic",
           ofi.fence == OFI_FENCE_ORDERED ? "order" : ofi.fence == OFI_FENCE_FLAG ? "FI_FENCE"
                                                                                  : "completion");
    fflush(stdout);
}

/* SHMEM_OFI_FORCE: the FI_MR_* bits and the lack of ordering that tests
 * impose on a provider that needs none of them (tcp, sockets), so that the
 * paths real fabrics take run, and must give right values, on any machine.
 * FI_MR_VIRT_ADDR cannot be imposed: a provider that takes offsets would
 * read virtual addresses as offsets. */
static int apply_forced(void)
{
    ofi.forced = 0;
    const char *list = oshm_env.ofi_force;
    if (!list || !*list)
        return 0;
    char words[128];
    snprintf(words, sizeof words, "%s", list);
    for (char *save, *w = strtok_r(words, ", ", &save); w; w = strtok_r(NULL, ", ", &save)) {
        bool all = strcmp(w, "all") == 0;
        if (all || strcmp(w, "local") == 0)
            ofi.forced |= FI_MR_LOCAL;
        if (all || strcmp(w, "prov_key") == 0)
            ofi.forced |= FI_MR_PROV_KEY;
        if (all || strcmp(w, "endpoint") == 0)
            ofi.forced |= FI_MR_ENDPOINT;
        if (all || strcmp(w, "nofence") == 0) {
            ofi.fence = OFI_FENCE_WAIT;
            ofi.raw_ordered = false;
        } else if (!all && strcmp(w, "local") != 0 && strcmp(w, "prov_key") != 0 &&
                   strcmp(w, "endpoint") != 0) {
            oshm_warn("SHMEM_OFI_FORCE: unknown word '%s' (local, prov_key, endpoint, nofence, "
                      "all)", w);
            return -1;
        }
    }
    ofi.mr_mode |= ofi.forced;
    return 0;
}

static int ofi_open(const struct backend_config *cfg)
{
    ofi.my_pe = cfg->my_pe;
    ofi.n_pes = cfg->n_pes;
    ofi.seg = cfg->seg;
    ofi.oversubscribed = cfg->oversubscribed;
    atomic_store(&ofi.next_key, (uint64_t)1 << 32);
    if (ofi_dl_open() != 0)
        return -1;
    struct fi_info *h = hints();
    if (!h)
        return -1;
    const char *step = "fi_getinfo";
    int rc = fi_getinfo(FI_VERSION(1, 17), NULL, NULL, 0, h, &ofi.info);
    fi_freeinfo(h);
    if (rc != 0) {
        const char *want = oshm_env.ofi_provider;
        if (!want || !*want)
            want = getenv("FI_PROVIDER");
        oshm_warn("libfabric has no provider%s%s with reliable datagram endpoints, RMA and "
                  "atomics: %s", want ? " matching " : "", want ? want : "", fi_strerror(-rc));
        ofi.info = NULL;
        return -1;
    }
    if (!(ofi.info = first_usable(ofi.info)))
        return -1;
    ofi.prov = ofi.info->fabric_attr->prov_name;
    ofi.mr_mode = ofi.info->domain_attr->mr_mode;
    ofi.op_flags = ofi.info->tx_attr->op_flags & FI_DELIVERY_COMPLETE;
    ofi.inject_size = ofi.info->tx_attr->inject_size;
    ofi.max_msg = ofi.info->ep_attr->max_msg_size ? ofi.info->ep_attr->max_msg_size : SIZE_MAX;
    ofi.manual = ofi.info->domain_attr->data_progress == FI_PROGRESS_MANUAL;
    ofi.fence = fence_mode(ofi.info);
    ofi.raw_ordered = (ofi.info->tx_attr->msg_order & FI_ORDER_RAW) &&
                      ofi.info->ep_attr->max_order_raw_size >= ((size_t)1 << 40);
    if (apply_forced() != 0)
        goto fail_quietly;
    /* Manual progress was asked for; a provider that keeps automatic
     * progress anyway still gets its target polled (cheap). */
    ofi.thread_on = cfg->progress_thread;
    step = "fi_fabric";
    if ((rc = fi_fabric(ofi.info->fabric_attr, &ofi.fabric, NULL)) != 0)
        goto fail;
    step = "fi_domain";
    if ((rc = fi_domain(ofi.fabric, ofi.info, &ofi.domain, NULL)) != 0)
        goto fail;
    step = "opening the target endpoint";
    if ((rc = open_target()) != 0)
        goto fail;
    query_atomics();
    if (!ofi.amo_ok[1][FI_CSWAP][2]) {
        oshm_warn("libfabric provider %s has no 64-bit compare-and-swap: OpenSHMEM's atomics "
                  "cannot be built on it", ofi.prov);
        goto fail_quietly;
    }
    const struct net_ranges nr = ranges();
    if (net_register_committed(&nr) != 0)
        goto fail_quietly;
    if (ofi.thread_on && ofi_thread_start() != 0)
        goto fail_quietly;
    print_choice();
    return 0;
fail:
    oshm_warn("libfabric (provider %s): %s failed on PE %d: %s", ofi.prov, step, ofi.my_pe,
              fi_strerror(-rc));
fail_quietly:
    ofi_backend.close();
    return -1;
}

static void range_of(int seg, uint32_t i, size_t *start, size_t *end, const void **key,
                     uint32_t *key_len)
{
    const struct ofi_range *r = &ofi.range[seg][i];
    *start = r->start;
    *end = r->end;
    *key = r->packed;
    *key_len = r->packed_len;
}

static struct net_ranges ranges(void)
{
    return (struct net_ranges){.name = "libfabric", .seg = ofi.seg, .nranges = ofi.nranges,
                               .max_ranges = OFI_MAX_RANGES, .range = range_of,
                               .add = register_range};
}

static int ofi_card(const pid_t *pids, int npids, void **blob, size_t *len)
{
    (void)pids, (void)npids;
    const struct net_ranges nr = ranges();
    return net_card(&nr, ofi.addr, ofi.addr_len, blob, len);
}

/* The key of a peer's range, usable from this PE's domain. */
static int unpack_key(const struct fabric_token *t, struct ofi_rrange *r)
{
    const uint8_t *k = t->key;
    uint64_t raw_base;
    if (t->key_len < 16 || t->key_len > 8 + OFI_MAX_RAW_KEY)
        return -1;
    memcpy(&raw_base, k, 8);
    if (!(ofi.mr_mode & FI_MR_RAW)) {
        memcpy(&r->key, k + 8, 8);
        return 0;
    }
    uint8_t raw[OFI_MAX_RAW_KEY];
    memcpy(raw, k + 8, t->key_len - 8);
    int rc = fi_mr_map_raw(ofi.domain, raw_base, raw, t->key_len - 8, &r->key, 0);
    if (rc != 0) {
        oshm_warn("libfabric (provider %s) cannot map a peer's raw key: %s", ofi.prov,
                  fi_strerror(-rc));
        return -1;
    }
    r->mapped = true;
    return 0;
}

static uint32_t peer_count(void *peer, int seg, size_t *end)
{
    struct backend_peer *p = peer;
    uint32_t n = atomic_load_explicit(&p->nranges[seg], memory_order_relaxed);
    *end = n ? ofi_peer_range(p, seg, n - 1)->end : 0;
    return n;
}

/* Keeps a peer's range with its key, mapped where keys are raw. */
static int peer_add(void *peer, int seg, uint32_t n, size_t start, size_t end,
                    const struct fabric_token *t)
{
    struct backend_peer *p = peer;
    if (n && !p->more[seg] && !(p->more[seg] = calloc(OFI_MAX_RANGES - 1, sizeof *p->more[seg])))
        return -1;
    struct ofi_rrange *r = ofi_peer_range(p, seg, n);
    if (unpack_key(t, r) != 0)
        return -1;
    r->start = start;
    r->end = end;
    r->addr0 = (ofi.mr_mode & FI_MR_VIRT_ADDR) ? t->base : 0;
    atomic_store_explicit(&p->nranges[seg], n + 1, memory_order_release);
    return 0;
}

/* What this PE keeps of P's ranges. */
static struct fabric_peer_ranges peer_ranges(struct backend_peer *p)
{
    return (struct fabric_peer_ranges){.peer = p, .base = p->base, .size = p->size,
                                       .nsegs = BACKEND_MAX_SEGS, .max_ranges = OFI_MAX_RANGES,
                                       .count = peer_count, .add = peer_add};
}

static int ofi_connect(int pe, const void *blob, size_t len, struct backend_peer **out)
{
    struct fabric_card card;
    struct backend_peer *p = calloc(1, sizeof *p);
    if (!p)
        return -1;
    *out = p;
    p->pe = pe;
    const struct fabric_peer_ranges pr = peer_ranges(p);
    if (net_learn("libfabric", pe, blob, len, true, &pr, &card) != 0)
        return -1;
    int rc = fi_av_insert(ofi.av, card.addr, 1, &p->addr, 0, NULL);
    if (rc != 1) {
        oshm_warn("libfabric (provider %s) cannot insert PE %d's address on PE %d: %s",
                  ofi.prov, pe, ofi.my_pe, fi_strerror(rc < 0 ? -rc : FI_EINVAL));
        return -1;
    }
    return 0;
}

static void ofi_disconnect(struct backend_peer *p)
{
    if (!p)
        return;
    for (int s = 0; s < BACKEND_MAX_SEGS; s++) {
        uint32_t n = atomic_load_explicit(&p->nranges[s], memory_order_relaxed);
        for (uint32_t i = 0; i < n; i++)
            if (ofi_peer_range(p, s, i)->mapped)
                fi_mr_unmap_key(ofi.domain, ofi_peer_range(p, s, i)->key);
        free(p->more[s]);
    }
    free(p);
}

static int ofi_grow(int seg, size_t committed, void **blob, size_t *len)
{
    const struct net_ranges nr = ranges();
    return net_grow(&nr, seg, committed, blob, len);
}

static int ofi_peer_grow(struct backend_peer *p, const void *blob, size_t len)
{
    struct fabric_card card;
    const struct fabric_peer_ranges pr = peer_ranges(p);
    return net_learn("libfabric", p->pe, blob, len, false, &pr, &card);
}

static void ofi_close(void)
{
    ofi_thread_stop();
    ofi_chan_close_all();
    for (int s = 0; s < BACKEND_MAX_SEGS; s++) {
        for (uint32_t i = 0; i < ofi.nranges[s]; i++)
            fi_close(&ofi.range[s][i].mr->fid);
        ofi.nranges[s] = 0;
    }
    if (ofi.target)
        fi_close(&ofi.target->fid);
    if (ofi.target_cq)
        fi_close(&ofi.target_cq->fid);
    if (ofi.av)
        fi_close(&ofi.av->fid);
    if (ofi.domain)
        fi_close(&ofi.domain->fid);
    if (ofi.fabric)
        fi_close(&ofi.fabric->fid);
    if (ofi.info)
        fi_freeinfo(ofi.info);
    ofi.target = NULL;
    ofi.target_cq = NULL;
    ofi.av = NULL;
    ofi.domain = NULL;
    ofi.fabric = NULL;
    ofi.info = NULL;
    ofi.prov = NULL;
}

static void *ofi_ptr(struct backend_peer *p, int seg, size_t off)
{
    (void)p, (void)seg, (void)off;
    return NULL;
}

static const char *ofi_describe(struct backend_peer *p)
{
    (void)p;
    return ofi.prov ? ofi.prov : "libfabric";
}

/* A directory with an entry, or a device file: what a fabric's kernel
 * driver leaves behind. */
static bool path_has_entry(const char *path)
{
    DIR *d = opendir(path);
    if (!d)
        return access(path, F_OK) == 0;
    struct dirent *e;
    bool any = false;
    while (!any && (e = readdir(d)))
        any = e->d_name[0] != '.';
    closedir(d);
    return any;
}

/* Whether this node has a device that a fast provider drives: verbs, EFA
 * and psm3 on a NIC show in /sys/class/infiniband, Slingshot's cxi in
 * /sys/class/cxi, Omni-Path (opx, psm2) as /dev/hfi1_0. Without one
 * libfabric has only sockets and tcp to offer, and asking it costs every
 * PE the start-up of all its providers (0.5 s per job measured here). */
static bool fabric_device_present(void)
{
    static const char *const paths[] = {"/sys/class/infiniband", "/sys/class/cxi", "/dev/cxi0",
                                        "/dev/hfi1_0"};
    for (size_t i = 0; i < sizeof paths / sizeof *paths; i++)
        if (path_has_entry(paths[i]))
            return true;
    return false;
}

/* The providers libfabric offers for what the library needs, each once. */
static int ofi_networks(const char **names, bool *on_device, int max)
{
    static char prov[16][64];
    struct fi_info *h, *info = NULL;
    if (!fabric_device_present()) {
        oshm_debug("libfabric not asked: no fabric device on this node (no /sys/class/infiniband, "
                   "/sys/class/cxi, /dev/cxi0, /dev/hfi1_0)");
        return 0;
    }
    if (ofi_dl_open() != 0 || !(h = hints()))
        return 0;
    int rc = fi_getinfo(FI_VERSION(1, 17), NULL, NULL, 0, h, &info);
    fi_freeinfo(h);
    int n = 0;
    for (struct fi_info *i = rc == 0 ? info : NULL; i && n < max && n < 16; i = i->next) {
        if (provider_unusable(i))
            continue;
        const char *name = i->fabric_attr->prov_name;
        bool dev = i->nic && i->nic->bus_attr && i->nic->bus_attr->bus_type == FI_BUS_PCI;
        int k = 0;
        while (k < n && strcmp(prov[k], name) != 0)
            k++;
        if (k < n) {
            on_device[k] |= dev;
            continue;
        }
        snprintf(prov[n], sizeof prov[n], "%s", name);
        names[n] = prov[n];
        on_device[n] = dev;
        n++;
    }
    if (info)
        fi_freeinfo(info);
    return n;
}

const struct backend_ops ofi_backend = {
    .name = "ofi",
    .open = ofi_open,
    .card = ofi_card,
    .connect = ofi_connect,
    .disconnect = ofi_disconnect,
    .close = ofi_close,
    .chan_open = ofi_chan_open,
    .chan_close = ofi_chan_close,
    .chan_share = ofi_chan_share,
    .grow = ofi_grow,
    .peer_grow = ofi_peer_grow,
    .put = ofi_put,
    .get = ofi_get,
    .iput = ofi_iput,
    .iget = ofi_iget,
    .signal = ofi_signal,
    .amo = ofi_amo,
    .ptr = ofi_ptr,
    .fence = ofi_fence,
    .quiet = ofi_quiet,
    .progress = ofi_progress,
    .describe = ofi_describe,
    .networks = ofi_networks,
};
