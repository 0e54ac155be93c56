/*
 * Which host each PE runs on, with Open MPI's rules:
 *   - without hosts, every PE runs on this machine (no slot limit, as hydra);
 *   - -N n: n PEs on each host, filling the hosts in order;
 *   - --map-by node: PEs dealt to the hosts in turn, skipping full ones;
 *   - otherwise (by slot): each host's slots filled in order;
 * and more PEs than slots only with --oversubscribe, the extra ones dealt to
 * the hosts in turn.
 */
#include <stdio.h>
#include <stdlib.h>

#include "oshrun.h"

static int *host_idx;  /* per rank: index in opt.hosts, -1: this machine, no hosts given */
static int *local_idx; /* per rank: place among this machine's PEs, -1: elsewhere */
static int *host_k;    /* per rank: place among its host's PEs */
static int *host_n;    /* per host: its PEs */
static int nlocal;

static _Noreturn void no_room(const char *why, int want, int have)
{
    fprintf(stderr, "oshrun: %d PEs do not fit in the %d %s of the hosts given "
                    "(--oversubscribe allows more)\n", want, have, why);
    exit(2);
}

static void place_on_hosts(void)
{
    int slots = 0;
    for (int h = 0; h < opt.nhosts; h++)
        slots += opt.hosts[h].slots;
    if (opt.per_node) {
        int room = opt.per_node * opt.nhosts;
        if (opt.npes > room) {
            fprintf(stderr, "oshrun: -np %d is more than -N %d on each of the %d hosts\n",
                    opt.npes, opt.per_node, opt.nhosts);
            exit(2);
        }
        for (int h = 0; h < opt.nhosts && !opt.oversubscribe; h++)
            if (opt.per_node > opt.hosts[h].slots) {
                fprintf(stderr, "oshrun: -N %d is more than the %d slots of host %s "
                                "(--oversubscribe allows it)\n",
                        opt.per_node, opt.hosts[h].slots, opt.hosts[h].name);
                exit(2);
            }
        for (int r = 0; r < opt.npes; r++)
            host_idx[r] = r / opt.per_node;
    } else {
        if (opt.npes > slots && !opt.oversubscribe)
            no_room("slots", opt.npes, slots);
        int *used = calloc((size_t)opt.nhosts, sizeof *used);
        if (!used) {
            fprintf(stderr, "oshrun: out of memory\n");
            exit(1);
        }
        int r = 0, h = 0;
        if (opt.map == MAP_NODE) {
            /* one PE per host in turn, skipping full hosts */
            for (int placed = 1; placed && r < opt.npes;) {
                placed = 0;
                for (h = 0; h < opt.nhosts && r < opt.npes; h++)
                    if (used[h] < opt.hosts[h].slots) {
                        used[h]++;
                        host_idx[r++] = h;
                        placed = 1;
                    }
            }
        } else {
            for (h = 0; h < opt.nhosts; h++)
                for (int s = 0; s < opt.hosts[h].slots && r < opt.npes; s++)
                    host_idx[r++] = h;
        }
        for (h = 0; r < opt.npes; h = (h + 1) % opt.nhosts)
            host_idx[r++] = h;
        free(used);
    }
}

void place_pes(void)
{
    if (!opt.nhosts) {
        if (opt.per_node && !opt.np_given)
            opt.npes = opt.per_node;
        if (opt.per_node && opt.npes > opt.per_node) {
            fprintf(stderr, "oshrun: -np %d is more than -N %d on this machine (no hosts "
                            "given)\n", opt.npes, opt.per_node);
            exit(2);
        }
    } else if (!opt.np_given) {
        int slots = 0;
        for (int h = 0; h < opt.nhosts; h++)
            slots += opt.hosts[h].slots;
        opt.npes = opt.per_node ? opt.per_node * opt.nhosts : slots;
    }
    host_idx = malloc((size_t)opt.npes * sizeof *host_idx);
    local_idx = malloc((size_t)opt.npes * sizeof *local_idx);
    if (!host_idx || !local_idx) {
        fprintf(stderr, "oshrun: out of memory\n");
        exit(1);
    }
    for (int r = 0; r < opt.npes; r++)
        host_idx[r] = -1;
    if (opt.nhosts)
        place_on_hosts();
    host_k = malloc((size_t)opt.npes * sizeof *host_k);
    host_n = calloc((size_t)opt.nhosts + 1, sizeof *host_n);
    if (!host_k || !host_n) {
        fprintf(stderr, "oshrun: out of memory\n");
        exit(1);
    }
    nlocal = 0;
    for (int r = 0; r < opt.npes; r++) {
        bool here = host_idx[r] < 0 || opt.hosts[host_idx[r]].local;
        local_idx[r] = here ? nlocal++ : -1;
        host_k[r] = host_idx[r] < 0 ? r : host_n[host_idx[r]]++;
    }
}

const struct host *host_of(int rank)
{
    return host_idx[rank] < 0 ? NULL : &opt.hosts[host_idx[rank]];
}

int local_index(int rank) { return local_idx[rank]; }

int host_index(int rank) { return host_k[rank]; }

int host_pe_count(int rank) { return host_idx[rank] < 0 ? nlocal : host_n[host_idx[rank]]; }

int local_pe_count(void) { return nlocal; }

void place_fini(void)
{
    free(host_idx);
    free(local_idx);
    free(host_k);
    free(host_n);
    host_idx = local_idx = host_k = host_n = NULL;
}
