/*
 * Barriers over an arithmetic set of PEs (start, stride, size), by
 * dissemination: ceil(log2 size) rounds, in round k each PE signals the PE
 * 2^k places ahead and waits for the one 2^k behind. No PE is a hot spot and
 * every PE does O(log n) work, unlike a central counter.
 *
 * When PEs outnumber cores, a central barrier is used instead: one atomic
 * add per PE on the first PE's arrival word, and one wait per PE for the
 * last arrival's signal (beyond OSHM_BARRIER_FLAT_RELEASE + 1 PEs, for its
 * parent's in a tree of releases from the first PE). Every wait may cost a
 * PE a trip through the scheduler, and this has one wait per PE instead of
 * log2(n) (measured on 2 cores: 8.9 against 14 us at 4 PEs, 32 against 84
 * us at 8 PEs).
 *
 * Over a network at 3 and 4 PEs, every PE its own node: the first PE of
 * the set gathers one message from each and sends each its release. The
 * same two dependent messages as dissemination, but the first PE leaves
 * first, so that a broadcast from it (OSU's loop, and a program's common
 * pattern) is on its way before the others are out: at 4 PEs over UCX tcp
 * OSU's broadcast went from 23-53 to 10-27 us, the barrier alike (75-104
 * against 78-101 us, 4 PEs on 2 cores). Dissemination lets them go in the
 * order the previous call left them, the first PE often last.
 *
 * The words are counters: a signal adds one, the waiter takes one away when
 * it sees it. A word is therefore back at its idle value after every
 * barrier, early signals of the next barrier are never lost, and the same
 * code serves the library's own sync words (idle value 0) and a user's
 * pSync array (idle value SHMEM_SYNC_VALUE).
 */
#ifndef OSHM_TEAM_BARRIER_H
#define OSHM_TEAM_BARRIER_H

#include <stddef.h>
#include <stdint.h>

/* The most PEs one PE releases from a central barrier (barrier.c). */
#define OSHM_BARRIER_FLAT_RELEASE 64
/* The most PEs of a network barrier by gathering at the first PE
 * (barrier.c); from 3 PEs, since at 2 dissemination is one message. */
#define OSHM_BARRIER_GATHER_MAX 4
/* Rounds of a dissemination barrier: sets of up to 2^20 PEs. */
#define OSHM_BARRIER_MAX_ROUNDS 20
/* Steps of recursive doubling, halving and Bruck (sets up to 2^17 PEs;
 * larger: a ring, or a reduction without them), sized so that the words
 * fit a user's pSync (SHMEM_*_SYNC_SIZE, 64). */
#define OSHM_COLL_MAX_STEPS 17

/* Symmetric words a set of PEs synchronizes through. */
struct oshm_sync_words {
    int64_t barrier[OSHM_BARRIER_MAX_ROUNDS];
    int64_t offset; /* collect: where a PE's block starts, sent by the previous PE */
    int64_t vote;   /* team creation: which pool slots are free */
    int64_t arrive; /* central barrier: arrivals, on the set's first PE */
    int64_t release; /* central barrier: the last arrival's signal; broadcast: source ready */
    int64_t done;    /* broadcast: PEs that have their copy, on the root */
    int64_t request[2]; /* SHMEM_DEBUG: this PE's size and alignment of a symmetric allocation */
    int64_t step[OSHM_COLL_MAX_STEPS]; /* fcollect: recursive doubling and Bruck, a word a step; step[0]: the ring */
    int64_t staged; /* small reduction: peers whose source is staged */
    /* Reductions over a network (coll_net.c): a word per step of recursive
     * halving and doubling (one partner per step, in both directions), and
     * the word of the fold that makes a power of two of the PEs. */
    int64_t rstep[OSHM_COLL_MAX_STEPS];
    int64_t fold;
};

/* Device collectives' words (src/device/coll.c), counters like the
 * barrier's: tree[k] from the child of round k, down from the parent, data
 * from the other PEs of an all-to-all. Only teams have them (after their
 * sync words in the team pool): a user's pSync has no room for them. */
struct oshm_device_sync_words {
    int64_t tree[OSHM_BARRIER_MAX_ROUNDS];
    int64_t down;
    int64_t data;
};

/* A slot of the team pool. */
struct oshm_team_words {
    struct oshm_sync_words sync;
    struct oshm_device_sync_words device;
};

/* A set of PEs and its symmetric sync words. */
struct oshm_pe_set {
    int start;
    int stride;
    int size;
    int my_index;  /* position of this PE in the set */
    int64_t *sync; /* OSHM_SYNC_WORDS words, symmetric across the set */
    int64_t idle;  /* the value of a sync word nobody is using */
    /* Symmetric receive space for the network reductions (coll_net.c): a
     * team's own, an active set's pWrk; NULL where there is none. */
    void *scratch;
    size_t scratch_bytes;
    /* A team's count of the calls that used it (this PE's own, and the
     * same on every member, since members call alike): which half of the
     * scratch a call receives in. NULL for an active set, whose program
     * takes its pWrk arrays in turn itself. */
    uint32_t *calls;
};

#define OSHM_SYNC_WORDS (sizeof(struct oshm_sync_words) / sizeof(int64_t))
#define OSHM_SYNC_OFFSET_WORD OSHM_BARRIER_MAX_ROUNDS
#define OSHM_SYNC_VOTE_WORD (OSHM_BARRIER_MAX_ROUNDS + 1)
#define OSHM_SYNC_ARRIVE_WORD (OSHM_BARRIER_MAX_ROUNDS + 2)
#define OSHM_SYNC_RELEASE_WORD (OSHM_BARRIER_MAX_ROUNDS + 3)
#define OSHM_SYNC_DONE_WORD (OSHM_BARRIER_MAX_ROUNDS + 4)
#define OSHM_SYNC_REQUEST_WORD (OSHM_BARRIER_MAX_ROUNDS + 5)
#define OSHM_SYNC_STEP_WORD (OSHM_BARRIER_MAX_ROUNDS + 7)
#define OSHM_SYNC_STAGED_WORD (OSHM_SYNC_STEP_WORD + OSHM_COLL_MAX_STEPS)
#define OSHM_SYNC_RSTEP_WORD (OSHM_SYNC_STAGED_WORD + 1)
#define OSHM_SYNC_FOLD_WORD (OSHM_SYNC_RSTEP_WORD + OSHM_COLL_MAX_STEPS)
_Static_assert(OSHM_SYNC_WORDS <= 64, "sync words must fit SHMEM_SYNC_SIZE (64) longs");
_Static_assert(offsetof(struct oshm_sync_words, step) == OSHM_SYNC_STEP_WORD * sizeof(int64_t) &&
                   offsetof(struct oshm_sync_words, staged) ==
                       OSHM_SYNC_STAGED_WORD * sizeof(int64_t) &&
                   offsetof(struct oshm_sync_words, rstep) ==
                       OSHM_SYNC_RSTEP_WORD * sizeof(int64_t) &&
                   offsetof(struct oshm_sync_words, fold) == OSHM_SYNC_FOLD_WORD * sizeof(int64_t),
               "the word numbers follow struct oshm_sync_words");

/* The device words of a team's set (never of an active set's pSync). */
static inline struct oshm_device_sync_words *oshm_set_device_words(const struct oshm_pe_set *set)
{
    return &((struct oshm_team_words *)(void *)set->sync)->device;
}

static inline int oshm_set_pe(const struct oshm_pe_set *set, int index)
{
    return set->start + index * set->stride;
}

/* Synchronizes the PEs of SET. Does not complete outstanding puts: callers
 * quiet first when they need that. */
void oshm_barrier_sync(const struct oshm_pe_set *set);

/* Waits until *WORD >= VALUE, spinning briefly and then yielding. */
void oshm_wait_i64_ge(const int64_t *word, int64_t value);
/* Waits until this PE's *WORD holds IDLE + UNITS, and takes them back
 * (through hcomm, like the peers' adds: a backend's atomics are atomic only
 * among themselves). */
void oshm_take_i64(int64_t *word, int64_t idle, int64_t units);
/* Waits until *WORD != VALUE and returns what it holds. */
int64_t oshm_wait_i64_ne(const int64_t *word, int64_t value);

#endif
