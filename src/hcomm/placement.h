/*
 * Where each PE runs, as every PE tells every other at start-up: its card,
 * all-gathered. Every PE receives every card, so a byte here is n bytes in
 * every PE: the card is 48 bytes. Names go as digests (equal digests mean
 * equal names), and the cores a PE may run on as one 64-bit window of its
 * affinity mask; a job where some PE's mask does not fit its window
 * all-gathers the whole masks as well (placement_wide).
 */
#ifndef OSHM_HCOMM_PLACEMENT_H
#define OSHM_HCOMM_PLACEMENT_H

#include <sched.h>
#include <stdbool.h>
#include <stdint.h>

#define PLACEMENT_DIGEST 16

struct placement_card {
    int32_t pid;
    uint8_t default_mode; /* enum hcomm_chan_mode of its default channel */
    /* The affinity mask sets cores outside [cpu_base, cpu_base + 64). */
    uint8_t cpus_wide;
    uint16_t cpu_base;   /* a multiple of 64: the window's first core */
    uint64_t cpu_window; /* bit i: core cpu_base + i is in the mask */
    /* Of the host name and boot id: equal means same kernel, same cores. */
    unsigned char host[PLACEMENT_DIGEST];
    /* Of host, network namespace and SHMEM_NODE_ID: equal means that the
     * PEs can map each other's memory. */
    unsigned char node[PLACEMENT_DIGEST];
};

/* CARD's cores from CPUS (an empty mask counts as core 0). */
void placement_set_cpus(struct placement_card *card, const cpu_set_t *cpus);

/* Whether some card's mask is wider than its window: then every PE
 * all-gathers its whole mask too (the same answer on every PE). */
bool placement_wide(const struct placement_card *cards, int n);

/* The cores PEs ORDER[0..COUNT) may use between them: the union of their
 * masks, from the cards' windows, or from MASKS (every PE's whole mask,
 * indexed by PE) where it is not NULL. */
int placement_union_cpus(const struct placement_card *cards, const cpu_set_t *masks,
                         const int *order, int count);

#endif
