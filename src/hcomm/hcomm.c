#include "hcomm/hcomm.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/boot.h"
#include "core/log.h"
#include "transport/shm/shm.h"

struct hcomm_domain hcomm;

/* What every PE tells every other at start-up. */
struct pe_card {
    int32_t pid;
    int32_t cpus; /* cores this PE may run on */
    char node[96]; /* host name and boot id: equal means same kernel */
};

void hcomm_register_seg(int seg, uintptr_t base, size_t size, const struct vmm_handle *mem)
{
    hcomm.seg[seg].base = base;
    hcomm.seg[seg].size = size;
    hcomm.seg[seg].mem = *mem;
}

static void node_name(char *out, size_t len)
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

static void add_backend(const struct hcomm_ops *ops)
{
    for (int i = 0; i < hcomm.n_backends; i++)
        if (hcomm.backends[i] == ops)
            return;
    hcomm.backends[hcomm.n_backends++] = ops;
}

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
    node_name(mine.node, sizeof mine.node);
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

    /* Nodes are numbered in order of their first PE. */
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
    hcomm.my_node = hcomm.node_of[me];
    /* Oversubscribed: some node has more PEs than the fewest cores any of
     * its PEs may use. Every PE computes the same answer from the same cards. */
    hcomm.oversubscribed = false;
    for (int node = 0; node < nodes; node++) {
        int pes = 0, cpus = 1 << 30;
        for (int p = 0; p < n; p++)
            if (hcomm.node_of[p] == node) {
                pes++;
                if (cards[p].cpus < cpus)
                    cpus = cards[p].cpus;
            }
        if (pes > cpus)
            hcomm.oversubscribed = true;
    }
    for (int p = 0; p < n; p++)
        if (p != me && hcomm.node_of[p] == hcomm.my_node)
            local_pids[nlocal++] = hcomm.pid_of[p];

    if (shm_publish(&hcomm, local_pids, nlocal, blob) != 0 ||
        oshm_boot.ops->put("oshm.shm", blob, shm_addr_size()) != 0 ||
        oshm_boot.ops->fence() != 0) {
        oshm_warn("publishing the symmetric segments failed: %m");
        goto out;
    }

    for (int p = 0; p < n; p++) {
        struct hcomm_ep *ep = &hcomm.eps[p];
        ep->pe = p;
        if (hcomm.node_of[p] != hcomm.my_node) {
            oshm_warn("PE %d runs on node %s, and this build reaches only PEs of this node "
                      "(%s)", p, cards[p].node, mine.node);
            goto out;
        }
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
        add_backend(ep->ops);
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
    if (hcomm.eps)
        for (int p = 0; p < hcomm.n_pes; p++)
            shm_disconnect(&hcomm.eps[p]);
    shm_unpublish();
    free(hcomm.eps);
    free(hcomm.node_of);
    free(hcomm.pid_of);
    hcomm.eps = NULL;
    hcomm.node_of = NULL;
    hcomm.pid_of = NULL;
    hcomm.n_backends = 0;
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
               "the symmetric heap [%p, +%zu) nor in the program's global data [%p, +%zu)",
               routine, addr, len, pe, (void *)hcomm.seg[HCOMM_SEG_HEAP].base,
               hcomm.seg[HCOMM_SEG_HEAP].size, (void *)hcomm.seg[HCOMM_SEG_DATA].base,
               hcomm.seg[HCOMM_SEG_DATA].size);
}
