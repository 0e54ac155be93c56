#include "hcomm/hcomm.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "boot/boot.h"
#include "util/env.h"
#include "util/log.h"
#include "util/spin.h"
#include "fabric/fabric.h"
#include "transport/shm/shm.h"
#ifdef OSHM_HAVE_UCX
#include "transport/ucx/ucx.h"
#endif

struct hcomm_domain hcomm;

/* What every PE tells every other at start-up. */
struct pe_card {
    int32_t pid;
    int32_t cpus;   /* cores this PE may run on */
    char host[96];  /* host name and boot id: equal means same kernel, same cores */
    char node[160]; /* host, network namespace and SHMEM_NODE_ID: equal means
                       that the PEs can map each other's memory */
};

void hcomm_register_seg(int seg, uintptr_t base, size_t size, const struct vmm_handle *mem)
{
    hcomm.seg[seg].base = base;
    hcomm.seg[seg].size = size;
    hcomm.seg[seg].mem = *mem;
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

static void add_backend(const struct hcomm_ops *ops)
{
    for (int i = 0; i < hcomm.n_backends; i++)
        if (hcomm.backends[i] == ops)
            return;
    hcomm.backends[hcomm.n_backends++] = ops;
    if (ops->progress)
        oshm_progress_hook = hcomm_progress;
}

/* Numbers the nodes in order of their first PE and decides whether any
 * host runs more PEs than its PEs have cores. */
static int place_pes(const struct pe_card *cards, int n)
{
    int nodes = 0;
    for (int p = 0; p < n; p++) {
        hcomm.pid_of[p] = cards[p].pid;
        hcomm.node_of[p] = -1;
        for (int q = 0; q < p; q++)
            if (strcmp(cards[q].node, cards[p].node) == 0) {
                hcomm.node_of[p] = hcomm.node_of[q];
                break;
            }
        if (hcomm.node_of[p] < 0)
            hcomm.node_of[p] = nodes++;
    }
    /* Every PE computes the same answer from the same cards. */
    hcomm.oversubscribed = false;
    for (int p = 0; p < n; p++) {
        int pes = 0, cpus = 1 << 30;
        for (int q = 0; q < n; q++)
            if (strcmp(cards[q].host, cards[p].host) == 0) {
                pes++;
                if (cards[q].cpus < cpus)
                    cpus = cards[q].cpus;
            }
        if (pes > cpus)
            hcomm.oversubscribed = true;
    }
    return nodes;
}

#ifdef OSHM_HAVE_UCX
static int publish_ucx(void)
{
    void *card = NULL;
    size_t len = 0;
    int rc = -1;
    if (ucx_open(&hcomm) == 0 && ucx_card(&card, &len) == 0 &&
        fabric_card_publish("oshm.ucx", card, len) == 0)
        rc = 0;
    free(card);
    return rc;
}

static int connect_ucx(struct hcomm_ep *ep)
{
    void *card = NULL;
    size_t len = 0;
    if (fabric_card_fetch(ep->pe, "oshm.ucx", &card, &len) != 0) {
        oshm_warn("no UCX address from PE %d", ep->pe);
        return -1;
    }
    int rc = ucx_connect(ep, card, len);
    free(card);
    return rc;
}
#endif

int hcomm_init(void)
{
    int n = oshm_boot.size, me = oshm_boot.rank;
    hcomm.my_pe = me;
    hcomm.n_pes = n;
    hcomm.default_channel.domain = &hcomm;

    struct pe_card mine = {.pid = (int32_t)getpid(), .cpus = 1};
    cpu_set_t cpuset;
    if (sched_getaffinity(0, sizeof cpuset, &cpuset) == 0)
        mine.cpus = CPU_COUNT(&cpuset);
    host_name(mine.host, sizeof mine.host);
    node_name(mine.host, me, mine.node, sizeof mine.node);
    struct pe_card *cards = calloc((size_t)n, sizeof *cards);
    hcomm.node_of = calloc((size_t)n, sizeof *hcomm.node_of);
    hcomm.pid_of = calloc((size_t)n, sizeof *hcomm.pid_of);
    hcomm.eps = calloc((size_t)n, sizeof *hcomm.eps);
    pid_t *local_pids = calloc((size_t)n, sizeof *local_pids);
    void *blob = calloc(1, shm_addr_size());
    int rc = -1, nlocal = 0;
    if (!cards || !hcomm.node_of || !hcomm.pid_of || !hcomm.eps || !local_pids || !blob)
        goto out;
    if (oshm_boot_allgather(&mine, cards, sizeof mine) != 0) {
        oshm_warn("bootstrap exchange of PE addresses failed");
        goto out;
    }
    int nodes = place_pes(cards, n);
    hcomm.my_node = hcomm.node_of[me];

    /* Same-node peers share memory unless UCX is forced; a job that spans
     * nodes needs UCX. */
    enum oshm_transport_choice choice = oshm_env.transport;
    bool use_shm = choice != OSHM_TRANSPORT_UCX;
    bool use_ucx = choice == OSHM_TRANSPORT_UCX || nodes > 1;
    if (nodes > 1 && choice == OSHM_TRANSPORT_SHM) {
        int other = 0;
        while (hcomm.node_of[other] == hcomm.my_node)
            other++;
        oshm_warn("SHMEM_TRANSPORT=shm, but PE %d runs on node %s and this PE on %s; "
                  "shared memory reaches only PEs of one node", other, cards[other].node,
                  mine.node);
        goto out;
    }
#ifndef OSHM_HAVE_UCX
    if (use_ucx) {
        oshm_warn("%s, and this library was built without UCX (install libucx-dev and rebuild)",
                  nodes > 1 ? "the job spans several nodes" : "SHMEM_TRANSPORT=ucx");
        goto out;
    }
#endif

    for (int p = 0; use_shm && p < n; p++)
        if (p != me && hcomm.node_of[p] == hcomm.my_node)
            local_pids[nlocal++] = hcomm.pid_of[p];
    if (shm_publish(&hcomm, local_pids, nlocal, blob) != 0 ||
        oshm_boot.ops->put("oshm.shm", blob, shm_addr_size()) != 0) {
        oshm_warn("publishing the symmetric segments failed: %m");
        goto out;
    }
#ifdef OSHM_HAVE_UCX
    if (use_ucx && publish_ucx() != 0)
        goto out;
#endif
    if (oshm_boot.ops->fence() != 0) {
        oshm_warn("bootstrap exchange of the segment keys failed");
        goto out;
    }

    /* A PE's own segments are reached directly; so are those of same-node
     * peers, unless UCX is forced. When UCX is in use at all, every AMO and
     * signal goes through it, even to this PE: shm atomics are CPU atomics
     * and a NIC's atomics are atomic only among themselves. */
    hcomm.amo_over_network = use_ucx;
    for (int p = 0; p < n; p++) {
        struct hcomm_ep *ep = &hcomm.eps[p];
        ep->pe = p;
        if (p == me || (use_shm && hcomm.node_of[p] == hcomm.my_node)) {
            const void *peer_blob = NULL;
            if (p != me) {
                if (oshm_boot.ops->get(p, "oshm.shm", blob, shm_addr_size()) != 0) {
                    oshm_warn("no segment keys from PE %d", p);
                    goto out;
                }
                peer_blob = blob;
            }
            if (shm_connect(&hcomm, ep, peer_blob) != 0) {
                oshm_warn("cannot map the symmetric memory of PE %d: %m", p);
                goto out;
            }
        }
#ifdef OSHM_HAVE_UCX
        if (use_ucx) {
            if (connect_ucx(ep) != 0)
                goto out;
            ep->amo_ops = &ucx_ops;
        }
#endif
        add_backend(ep->ops);
        add_backend(ep->amo_ops);
    }
    rc = 0;
out:
    free(cards);
    free(local_pids);
    free(blob);
    return rc;
}

void hcomm_fini(void)
{
#ifdef OSHM_HAVE_UCX
    if (hcomm.amo_over_network) {
        /* Nothing may be in flight when the endpoints close: every PE
         * completes its operations, then all meet outside the network,
         * progressing it until the last PE arrives. */
        hcomm_quiet(&hcomm.default_channel);
        if (oshm_boot.ops->fence() != 0)
            oshm_warn("the closing exchange with the other PEs failed");
        ucx_disconnect_all(&hcomm);
    }
#endif
    oshm_progress_hook = NULL;
    if (hcomm.eps)
        for (int p = 0; p < hcomm.n_pes; p++)
            shm_disconnect(&hcomm.eps[p]);
    shm_unpublish();
#ifdef OSHM_HAVE_UCX
    ucx_close();
#endif
    free(hcomm.eps);
    free(hcomm.node_of);
    free(hcomm.pid_of);
    hcomm.eps = NULL;
    hcomm.node_of = NULL;
    hcomm.pid_of = NULL;
    hcomm.n_backends = 0;
    hcomm.amo_over_network = false;
}

void hcomm_threads_begin(void)
{
    for (int i = 0; i < hcomm.n_backends; i++)
        if (hcomm.backends[i]->threads)
            hcomm.backends[i]->threads();
}

void hcomm_progress(void)
{
    for (int i = 0; i < hcomm.n_backends; i++)
        if (hcomm.backends[i]->progress)
            hcomm.backends[i]->progress();
}

void hcomm_fence(struct hcomm_channel *ch)
{
    for (int i = 0; i < hcomm.n_backends; i++)
        hcomm.backends[i]->fence(ch);
}

void hcomm_quiet(struct hcomm_channel *ch)
{
    for (int i = 0; i < hcomm.n_backends; i++)
        hcomm.backends[i]->quiet(ch);
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
