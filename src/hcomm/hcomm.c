/*
 * The domain: where every PE is, which backends this PE opens, and the
 * endpoint to each PE. Backends are reached only through their tables.
 */
#include "hcomm/hcomm.h"

#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sodium.h>
#include <unistd.h>

#include "util/env.h"
#include "util/log.h"
#include "util/spin.h"
#include "fabric/fabric.h"
#include "hcomm/hcomm_int.h"
#include "hcomm/placement.h"
#include "transport/progress_thread.h"
#include "transport/choose.h"

struct hcomm_domain hcomm;
struct fabric_exchange hcomm_exchange;

/* This PE's node name, for messages (the cards carry only digests). */
static char my_node_name[160];

static void name_digest(unsigned char out[PLACEMENT_DIGEST], const char *name)
{
    /* Picks the fastest implementation, once; the portable one (the same
     * digest) serves where it fails. */
    int ready = sodium_init();
    (void)ready;
    crypto_generichash(out, PLACEMENT_DIGEST, (const unsigned char *)name, strlen(name), NULL, 0);
}

void hcomm_register_seg(int seg, uintptr_t base, size_t size, size_t committed,
                        const struct vmm_handle *mem)
{
    hcomm.seg[seg] = (struct backend_seg){.base = base, .size = size, .committed = committed,
                                          .mem = *mem};
}

static void host_name(char *out, size_t len)
{
    char host[64] = "localhost", boot_id[40] = "";
    gethostname(host, sizeof host - 1);
    FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
    if (f) {
        if (!fgets(boot_id, sizeof boot_id, f))
            boot_id[0] = '\0';
        fclose(f);
        boot_id[strcspn(boot_id, "\n")] = '\0';
    }
    snprintf(out, len, "%s/%s", host, boot_id);
}

/* The shm backend finds its peers through abstract unix sockets, which a
 * network namespace scopes: PEs in different namespaces are on different
 * nodes even on one kernel. SHMEM_NODE_ID splits further: "%p" in it stands
 * for the PE number and "%Kp" for the PE number divided by K, so "%p" makes
 * every PE a node of its own and "%2p" pairs them. */
static void node_name(const char *host, int pe, char *out, size_t len)
{
    char netns[64] = "";
    ssize_t n = readlink("/proc/self/ns/net", netns, sizeof netns - 1);
    netns[n > 0 ? n : 0] = '\0';
    char id[64] = "";
    size_t o = 0;
    for (const char *c = oshm_env.node_id; c && *c && o + 12 < sizeof id; c++) {
        char *end;
        long k = c[0] == '%' ? strtol(c + 1, &end, 10) : 0;
        if (c[0] == '%' && end == c + 1)
            k = 1;
        if (c[0] == '%' && *end == 'p' && k > 0) {
            o += (size_t)snprintf(id + o, sizeof id - o, "%ld", pe / k);
            c = end;
        } else {
            id[o++] = *c;
            id[o] = '\0';
        }
    }
    snprintf(out, len, "%s/%s/%s", host, netns, id);
}

/* Sorting PE numbers by a name of their card, ties by PE number, groups
 * equal names with the lowest PE first: n log n where comparing every pair
 * took n^2 (a second at 1,024 PEs, in every PE). A name is the string at
 * FIELD (offsetof) of a card. */
struct by_name {
    const struct placement_card *cards;
    size_t field;
};

static const unsigned char *name_of(const struct by_name *k, int p)
{
    return (const unsigned char *)&k->cards[p] + k->field;
}

static int by_name(const void *a, const void *b, void *key)
{
    int p = *(const int *)a, q = *(const int *)b;
    int c = memcmp(name_of(key, p), name_of(key, q), PLACEMENT_DIGEST);
    return c ? c : (p > q) - (p < q);
}

/* ORDER: the PEs sorted by K's name. */
static void sort_by(const struct by_name *k, int n, int *order)
{
    for (int p = 0; p < n; p++)
        order[p] = p;
    qsort_r(order, (size_t)n, sizeof *order, by_name, (void *)k);
}

static bool same_name(const struct by_name *k, int p, int q)
{
    return memcmp(name_of(k, p), name_of(k, q), PLACEMENT_DIGEST) == 0;
}

/* Numbers the nodes in order of their first PE and decides whether any
 * host runs more PEs than its PEs have cores. MASKS: every PE's affinity
 * where the cards' windows do not hold them (placement_wide), else NULL.
 * ORDER: scratch of N. */
static int place_pes(const struct placement_card *cards, const cpu_set_t *masks, int n, int *order)
{
    /* Every PE of a node takes its first PE's number for now; the nodes
     * are then counted in PE order, so that numbers follow first PEs. */
    const struct by_name node = {cards, offsetof(struct placement_card, node)},
                         host = {cards, offsetof(struct placement_card, host)};
    sort_by(&node, n, order);
    for (int i = 0; i < n; i++) {
        int p = order[i];
        hcomm.pid_of[p] = cards[p].pid;
        hcomm.node_of[p] = i > 0 && same_name(&node, order[i - 1], p)
                               ? hcomm.node_of[order[i - 1]]
                               : p;
    }
    int nodes = 0;
    for (int p = 0; p < n; p++)
        hcomm.node_of[p] = hcomm.node_of[p] == p ? nodes++ : hcomm.node_of[hcomm.node_of[p]];
    /* Every PE computes the same answer from the same cards: a host is
     * oversubscribed when its PEs outnumber the cores they may use between
     * them, the union of their affinity masks (PEs bound each to a core of
     * its own are not; eight PEs free to use the same two cores are). */
    hcomm.oversubscribed = false;
    sort_by(&host, n, order);
    for (int i = 0; i < n && !hcomm.oversubscribed;) {
        int pes = 0, first = order[i];
        for (; i + pes < n && same_name(&host, first, order[i + pes]); pes++)
            ;
        hcomm.oversubscribed = pes > placement_union_cpus(cards, masks, order + i, pes);
        i += pes;
    }
    /* The wait policy (util/spin.h) of every layer follows it. */
    oshm_oversubscribed = hcomm.oversubscribed;
    oshm_debug("placement: %d PEs on %d nodes; %s", n, nodes,
               hcomm.oversubscribed ? "some host runs more PEs than their cores: waits yield"
                                    : "a core for every PE: waits spin");
    return nodes;
}

static int open_backend(const struct backend_ops *ops, const struct hcomm_config *cfg);

/* SHMEM_TRANSPORT names a network backend: every PE, even of this node,
 * is reached through it. */
static bool network_only(void)
{
    return oshm_env.transport == OSHM_TRANSPORT_UCX || oshm_env.transport == OSHM_TRANSPORT_OFI;
}

static const struct backend_ops *network_backend(const struct hcomm_config *cfg, const char *name)
{
    for (const struct backend_ops *const *b = cfg->backends; *b; b++)
        if (!((*b)->flags & BACKEND_LOCAL) && strcmp((*b)->name, name) == 0)
            return *b;
    return NULL;
}

/* SHMEM_TRANSPORT=auto with UCX and libfabric both built: UCX, unless it
 * reaches other nodes through tcp at best while libfabric has a fabric
 * (transport/choose.h). libfabric is asked only then: its start-up reads
 * every provider's devices (a tenth of a second, more on a busy node).
 * 1: decided (0 or -1 in *RC), 0: not this case. */
static int open_auto(const struct hcomm_config *cfg, int *rc)
{
    const struct backend_ops *ucx = network_backend(cfg, "ucx");
    const struct backend_ops *ofi = network_backend(cfg, "ofi");
    if (!ucx || !ofi || !ucx->networks || !ofi->networks)
        return 0;
    if (open_backend(ucx, cfg) != 0) {
        *rc = open_backend(ofi, cfg);
        return 1;
    }
    const char *tls[16], *provs[16];
    bool tl_dev[16], prov_dev[16];
    int n_tls = ucx->networks(tls, tl_dev, 16);
    int n_provs = 0;
    bool fast = false;
    for (int i = 0; i < n_tls; i++)
        fast |= choose_ucx_tl_fast(tls[i]);
    if (!fast)
        n_provs = ofi->networks(provs, prov_dev, 16);
    char why[160];
    enum choose_pick pick = choose_network(tls, (size_t)n_tls, provs, prov_dev, (size_t)n_provs,
                                           why, sizeof why);
    oshm_debug("SHMEM_TRANSPORT=auto: %s (%s)", pick == CHOOSE_OFI ? "ofi" : "ucx", why);
    if (oshm_env.info && hcomm.my_pe == 0)
        printf("SHMEM_TRANSPORT=auto: network backend %s (%s)\n",
               pick == CHOOSE_OFI ? "ofi" : "ucx", why);
    *rc = 0;
    if (pick == CHOOSE_UCX)
        return 1;
    hcomm.n_backends--;
    ucx->close();
    if (open_backend(ofi, cfg) == 0)
        return 1;
    oshm_warn("libfabric (%s) did not open: back to UCX", why);
    *rc = open_backend(ucx, cfg);
    return 1;
}

/* The network backend SHMEM_TRANSPORT names (every PE through it), else
 * the one SHMEM_REMOTE_TRANSPORT names (other nodes only), else NULL. */
static const char *network_named(const char **by)
{
    *by = "SHMEM_TRANSPORT";
    if (network_only())
        return oshm_transport_name(oshm_env.transport);
    *by = "SHMEM_REMOTE_TRANSPORT";
    return oshm_env.remote_transport == OSHM_REMOTE_UCX   ? "ucx"
           : oshm_env.remote_transport == OSHM_REMOTE_OFI ? "ofi"
                                                          : NULL;
}

/* Opens the network backend SHMEM_TRANSPORT or SHMEM_REMOTE_TRANSPORT
 * names, or else the first one built in that opens (in the order of
 * cfg->backends). */
static int open_network(const struct hcomm_config *cfg)
{
    const char *by;
    const char *want = network_named(&by);
    int rc;
    if (!want && open_auto(cfg, &rc))
        return rc;
    bool built = false;
    for (const struct backend_ops *const *b = cfg->backends; *b; b++) {
        if (((*b)->flags & BACKEND_LOCAL) || (want && strcmp((*b)->name, want) != 0))
            continue;
        built = true;
        if (open_backend(*b, cfg) == 0)
            return 0;
    }
    if (!built)
        oshm_warn("%s%s%s, and this library was built without %s (install %s and rebuild)",
                  want ? by : "the job spans several nodes", want ? "=" : "", want ? want : "",
                  want ? "that backend" : "a network backend",
                  want && strcmp(want, "ofi") == 0 ? "libfabric-dev" : "libucx-dev or libfabric-dev");
    return -1;
}

static const struct backend_ops *local_backend(const struct hcomm_config *cfg)
{
    for (const struct backend_ops *const *b = cfg->backends; *b; b++)
        if ((*b)->flags & BACKEND_LOCAL)
            return *b;
    return NULL;
}

static int open_backend(const struct backend_ops *ops, const struct hcomm_config *cfg)
{
    struct backend_config bc = {.my_pe = hcomm.my_pe, .n_pes = hcomm.n_pes, .seg = hcomm.seg,
                                .progress_thread = cfg->progress_thread && ops->progress,
                                .oversubscribed = hcomm.oversubscribed,
                                .debug = oshm_env.debug};
    if (ops->open(&bc) != 0)
        return -1;
    hcomm.backend[hcomm.n_backends++] = ops;
    if (ops->progress)
        oshm_progress_hook = hcomm_progress;
    return 0;
}

static void card_name(const struct backend_ops *ops, char *out, size_t len)
{
    snprintf(out, len, "oshm.%s", ops->name);
}

/* Publishes backend B's card; LOCAL_PIDS may map this PE's memory. */
static int publish_card(int b, const pid_t *local_pids, int nlocal)
{
    void *blob = NULL;
    size_t len = 0;
    char name[64];
    card_name(hcomm.backend[b], name, sizeof name);
    int rc = hcomm.backend[b]->card(local_pids, nlocal, &blob, &len);
    if (rc == 0)
        rc = fabric_card_publish(&hcomm_exchange, name, blob, len);
    if (rc != 0)
        oshm_warn("publishing this PE's %s card failed", hcomm.backend[b]->name);
    free(blob);
    return rc;
}

static int connect_peer(int b, struct hcomm_ep *ep)
{
    void *blob = NULL;
    size_t len = 0;
    char name[64];
    card_name(hcomm.backend[b], name, sizeof name);
    if (fabric_card_fetch(&hcomm_exchange, ep->pe, name, &blob, &len) != 0) {
        oshm_warn("no %s card from PE %d", hcomm.backend[b]->name, ep->pe);
        return -1;
    }
    int rc = hcomm.backend[b]->connect(ep->pe, blob, len, &ep->peer[b]);
    if (rc != 0)
        oshm_warn("cannot reach PE %d through %s", ep->pe, hcomm.backend[b]->name);
    free(blob);
    return rc;
}

/* Opens the backends this job needs: the local one always (this PE's own
 * memory, same-node peers), a network one when the job spans nodes or
 * SHMEM_TRANSPORT asks for it. */
static int open_backends(const struct hcomm_config *cfg, int nodes)
{
    enum oshm_transport_choice choice = oshm_env.transport;
    if (nodes > 1 && choice == OSHM_TRANSPORT_SHM) {
        int other = 0;
        while (hcomm.node_of[other] == hcomm.my_node)
            other++;
        oshm_warn("SHMEM_TRANSPORT=shm, but PE %d runs on another node than this PE (%s: "
                  "host/boot id/network namespace/SHMEM_NODE_ID); shared memory reaches only "
                  "PEs of one node", other, my_node_name);
        return -1;
    }
    if (open_backend(local_backend(cfg), cfg) != 0)
        return -1;
    if ((network_only() || nodes > 1) && open_network(cfg) != 0)
        return -1;
    hcomm.mixed = hcomm.n_backends > 1;
    return 0;
}

/* Every PE reaches its own memory and same-node peers' through the local
 * backend (unless SHMEM_TRANSPORT forces the network), every other PE
 * through the network. AMOs and signals follow the same paths, unless the
 * network's atomics may be a NIC's (docs/multinode.md, "The AMO rule"):
 * those are atomic only among themselves, never with a CPU's on the same
 * word, so then every AMO and signal goes through the network, even to
 * this PE. */
/* EP's fields that follow from its connected peers. */
static void settle(struct hcomm_ep *ep)
{
    ep->rma_peer = ep->peer[ep->rma];
    ep->amo_peer = ep->peer[ep->amo];
}

/* Whether PE is reached through the local backend: this PE, and the
 * peers of its node unless SHMEM_TRANSPORT sends everything to the network. */
static bool reached_locally(int pe)
{
    return pe == hcomm.my_pe || (!network_only() && hcomm.node_of[pe] == hcomm.my_node);
}

/* Connects what EP's peer needs and EP has not yet: the local backend for
 * the PEs reached locally, the network backend (when one is open) for
 * every PE. */
static int connect_ep(struct hcomm_ep *ep)
{
    int net = hcomm.n_backends > 1 ? 1 : -1;
    if (reached_locally(ep->pe) && !ep->peer[0] && connect_peer(0, ep) != 0)
        return -1;
    if (net >= 0 && !ep->peer[net] && connect_peer(net, ep) != 0)
        return -1;
    return 0;
}

/* Sets up every peer's endpoint. LATE (the exchange keeps the cards): the
 * peers of this node other than this PE are connected on first use
 * (hcomm_reach), their cards read then; so are those of other nodes where
 * a progress thread serves this PE's network backend (NET_LATE): without
 * one, the default channel connects every network peer now, while all PEs
 * are in shmem_init to answer. A network peer's record is some hundreds
 * of bytes (its address, its keys; 0.4 kB a peer measured at 1,024 PEs),
 * and most programs reach few of their peers. */
static int connect_all(bool late, bool net_late)
{
    hcomm.node_mapped = !network_only();
    int net = hcomm.n_backends > 1 ? 1 : -1;
    const struct backend_ops *nops = net >= 0 ? hcomm.backend[net] : NULL;
    hcomm.amo_over_network = nops && !(nops->cpu_atomics && nops->cpu_atomics());
    for (int p = 0; p < hcomm.n_pes; p++) {
        struct hcomm_ep *ep = &hcomm.eps[p];
        ep->pe = p;
        bool local = reached_locally(p);
        bool deferred = p != hcomm.my_pe && late && (local || net_late);
        if (!deferred && connect_ep(ep) != 0)
            return -1;
        if (deferred && net >= 0 && !net_late && connect_peer(net, ep) != 0)
            return -1; /* a same-node peer's network record, for the default channel */
        ep->rma = (uint8_t)(local ? 0 : net);
        ep->amo = (uint8_t)(hcomm.amo_over_network ? net : ep->rma);
        ep->rma_ops = hcomm.backend[ep->rma];
        ep->amo_ops = hcomm.backend[ep->amo];
        ep->dual = ep->rma != ep->amo;
        settle(ep);
        atomic_init(&ep->reached, !deferred);
    }
    return 0;
}

static pthread_mutex_t reach_lock = PTHREAD_MUTEX_INITIALIZER;

void hcomm_reach(struct hcomm_ep *ep)
{
    pthread_mutex_lock(&reach_lock);
    if (!atomic_load_explicit(&ep->reached, memory_order_relaxed)) {
        if (connect_ep(ep) != 0)
            oshm_fatal("cannot reach PE %d at its first use (the warning above says why)", ep->pe);
        settle(ep);
        atomic_store_explicit(&ep->reached, true, memory_order_release);
    }
    pthread_mutex_unlock(&reach_lock);
}

int hcomm_init(const struct hcomm_config *cfg)
{
    /* A session's run of puts leaves without the program, too. */
    progress_thread_set_upper(hcomm_batch_drive, hcomm_batch_held);
    hcomm_exchange = *cfg->exchange;
    int n = hcomm_exchange.size, me = hcomm_exchange.rank;
    hcomm.my_pe = me;
    hcomm.n_pes = n;

    struct placement_card mine = {.pid = (int32_t)getpid(),
                                  .default_mode = (uint8_t)cfg->default_mode};
    cpu_set_t my_cpus;
    if (sched_getaffinity(0, sizeof my_cpus, &my_cpus) != 0) {
        CPU_ZERO(&my_cpus);
        CPU_SET(0, &my_cpus);
    }
    placement_set_cpus(&mine, &my_cpus);
    char host[96];
    host_name(host, sizeof host);
    node_name(host, me, my_node_name, sizeof my_node_name);
    name_digest(mine.host, host);
    name_digest(mine.node, my_node_name);
    struct placement_card *cards = calloc((size_t)n, sizeof *cards);
    cpu_set_t *masks = NULL;
    hcomm.node_of = calloc((size_t)n, sizeof *hcomm.node_of);
    hcomm.pid_of = calloc((size_t)n, sizeof *hcomm.pid_of);
    hcomm.eps = calloc((size_t)n, sizeof *hcomm.eps);
    pid_t *local_pids = calloc((size_t)n, sizeof *local_pids);
    int *order = calloc((size_t)n, sizeof *order);
    int rc = -1, nlocal = 0;
    if (!cards || !hcomm.node_of || !hcomm.pid_of || !hcomm.eps || !local_pids || !order)
        goto out;
    if (hcomm_exchange.allgather(&mine, cards, sizeof mine) != 0) {
        oshm_warn("bootstrap exchange of PE addresses failed");
        goto out;
    }
    /* Rare (a PE free to use cores more than 64 apart): the whole masks. */
    if (placement_wide(cards, n) &&
        (!(masks = calloc((size_t)n, sizeof *masks)) ||
         hcomm_exchange.allgather(&my_cpus, masks, sizeof my_cpus) != 0)) {
        oshm_warn("bootstrap exchange of the PEs' cores failed");
        goto out;
    }
    int nodes = place_pes(cards, masks, n, order);
    hcomm.my_node = hcomm.node_of[me];
    hcomm.shared_somewhere = false;
    for (int p = 0; p < n; p++)
        hcomm.shared_somewhere |= cards[p].default_mode == HCOMM_CHAN_SHARED;
    if (open_backends(cfg, nodes) != 0)
        goto out;

    for (int p = 0; !network_only() && p < n; p++)
        if (p != me && hcomm.node_of[p] == hcomm.my_node)
            local_pids[nlocal++] = hcomm.pid_of[p];
    for (int b = 0; b < hcomm.n_backends; b++)
        if (publish_card(b, local_pids, nlocal) != 0)
            goto out;
    if (hcomm_exchange.fence() != 0) {
        oshm_warn("bootstrap exchange of the backends' cards failed");
        goto out;
    }
    /* On a node of many PEs each reaches only the peers it uses. */
    bool late = hcomm_exchange.retain && hcomm_exchange.retain() == 0;
    if (connect_all(late, cfg->progress_thread) != 0 ||
        hcomm_channel_init(&hcomm.default_channel, cfg->default_mode, true) != 0)
        goto out;
    rc = 0;
out:
    free(cards);
    free(masks);
    free(local_pids);
    free(order);
    /* Every peer's card is taken in: what the exchange holds of them, and
     * the table above, are kept for nothing from here on. */
    if (rc == 0 && hcomm_exchange.forget)
        hcomm_exchange.forget();
    return rc;
}

void hcomm_fini(void)
{
    if (hcomm.mixed) {
        /* Nothing may be in flight when the endpoints close: every PE
         * completes its operations, then all meet outside the network,
         * serving it until the last PE arrives. */
        hcomm_quiet(&hcomm.default_channel);
        if (hcomm_exchange.fence() != 0)
            oshm_warn("the closing exchange with the other PEs failed");
    }
    hcomm_channel_fini(&hcomm.default_channel);
    oshm_progress_hook = NULL;
    for (int b = hcomm.n_backends - 1; b >= 0; b--) {
        for (int p = 0; hcomm.eps && p < hcomm.n_pes; p++)
            if (hcomm.eps[p].peer[b])
                hcomm.backend[b]->disconnect(hcomm.eps[p].peer[b]);
        hcomm.backend[b]->close();
    }
    free(hcomm.eps);
    free(hcomm.node_of);
    free(hcomm.pid_of);
    hcomm.eps = NULL;
    hcomm.node_of = NULL;
    hcomm.pid_of = NULL;
    hcomm.n_backends = 0;
    hcomm.mixed = false;
    hcomm.amo_over_network = false;
}

void hcomm_bad_pe(int pe, const char *routine)
{
    oshm_fatal("%s: PE %d does not exist (the job has PEs 0 to %d)", routine, pe, hcomm.n_pes - 1);
}

void hcomm_bad_addr(const void *addr, size_t len, int pe, const char *routine)
{
    oshm_fatal("%s: address %p (%zu bytes, target PE %d) is not symmetric: it is neither in "
               "the symmetric heap [%p, +%zu), nor in the program's global data [%p, +%zu), "
               "nor in the device heap [%p, +%zu)",
               routine, addr, len, pe, (void *)hcomm.seg[HCOMM_SEG_HEAP].base,
               hcomm.seg[HCOMM_SEG_HEAP].size, (void *)hcomm.seg[HCOMM_SEG_DATA].base,
               hcomm.seg[HCOMM_SEG_DATA].size, (void *)hcomm.seg[HCOMM_SEG_DEVICE].base,
               hcomm.seg[HCOMM_SEG_DEVICE].size);
}
