/*
 * Barriers over an arithmetic set of PEs (start, stride, size), by
 * dissemination: ceil(log2 size) rounds, in round k each PE signals the PE
 * 2^k places ahead and waits for the one 2^k behind. No PE is a hot spot and
 * every PE does O(log n) work, unlike a central counter.
 */
#ifndef OSHM_TEAM_BARRIER_H
#define OSHM_TEAM_BARRIER_H

#include <stdint.h>

#define OSHM_BARRIER_MAX_ROUNDS 32

/* Symmetric state of one barrier: the flags peers write and this PE's count
 * of completed barriers (the value the flags must reach). */
struct oshm_barrier_sync {
    uint64_t flag[OSHM_BARRIER_MAX_ROUNDS];
    uint64_t epoch;
};

struct oshm_pe_set {
    int start;
    int stride;
    int size;
    int my_index; /* position of this PE in the set */
};

/* Synchronizes the PEs of SET; SYNC must be symmetric across them. Does not
 * complete outstanding puts: callers quiet first when they need that. */
void oshm_barrier_sync(const struct oshm_pe_set *set, struct oshm_barrier_sync *sync);

/* Waits until *WORD >= VALUE, spinning briefly and then yielding. */
void oshm_wait_u64_ge(const uint64_t *word, uint64_t value);

#endif
