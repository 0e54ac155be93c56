/*
 * Collective data movement over a set of PEs, on any backend (through hcomm
 * put/get/signal, and plain loads from a peer's memory where this PE maps
 * it). No call allocates on its fast path: private scratch comes from a
 * per-thread pool that grows to the largest call seen (coll_pool.c).
 *
 *   broadcast  (coll_bcast.c) active-set form up to
 *              OSHM_BCAST_PUSH_MAX_BYTES: the root pushes at once, put +
 *              signal, flat up to OSHM_BCAST_FLAT_MAX_PES PEs, else down a
 *              binomial tree; each receiver tells the root, which waits
 *              for all when it next enters a broadcast or barrier (or
 *              before it leaves, under SHMEM_THREAD_MULTIPLE). Larger, and always for teams (whose words the
 *              next call may reuse at once, so a signal could belong to a
 *              later call): pulled, the root posts ready, every PE gets the
 *              root's source at once and tells the root, which waits for
 *              all.
 *   reduce     (coll_reduce.c) every peer mapped, up to 8 PEs: up to
 *              OSHM_REDUCE_PUSH_MAX_BYTES in a job of up to 8 PEs, every PE
 *              pushes its source into every PE's slot for it; else up to
 *              OSHM_REDUCE_STAGE_BYTES every PE stages its source in its
 *              own memory and tells the others, who read it from there
 *              (neither waits for the peers before leaving: coll_deferred.c).
 *              Otherwise up to OSHM_REDUCE_WHOLE_MAX_BYTES (or fewer
 *              elements than PEs): every PE combines the whole vector from
 *              the peers' mapped sources; above: reduce-scatter + allgather,
 *              PE c combining chunk c straight from the peers' memory in
 *              cache-sized blocks and putting each block to every PE.
 *   collect    (coll.c) blocks in PE order. From 3 to
 *              OSHM_REDUCE_STAGE_MAX_PES PEs, every peer mapped: each PE
 *              stages its block (or, above OSHM_REDUCE_STAGE_BYTES, lends
 *              its source) with its size and tells every peer; each reads
 *              all blocks into its own dest.
 *              Otherwise a PE learns where its block goes from the PE
 *              before it, then writes its block to every PE;
 *   fcollect   (coll_fcollect.c) where every peer is mapped, every PE writes
 *              its block to every PE; else up to 1 MiB in all recursive
 *              doubling (power-of-two sets) or Bruck, above it a ring;
 *   alltoall   every PE writes its j-th block to PE j.
 *   scan       (coll.c) the same split as reduce: PE c reads chunk c of each PE's source in
 *              set order and writes each PE its running sum (inclusive) or
 *              the sum before it (exclusive, zeros on the first PE). A PE's
 *              source chunk is read before its dest chunk is written, so
 *              dest may be source here too.
 * The collect family puts whole blocks; for teams it starts with a barrier
 * (every destination is free) and ends with quiet and a barrier; active sets
 * skip the first (their rules make dest ready) and end with a signal to
 * every PE and one wait for the others' (coll.c). A routine never reads a
 * peer's source before that peer has entered the call. In the active-set
 * form the collect family and reductions also leave only once every PE has
 * entered; a broadcast's receivers leave as soon as they have the data
 * (Sandia OpenSHMEM's do too): the specification lets a program reuse a
 * pSync array only once every collective that used it has completed on
 * every PE, e.g. after a barrier.
 */
#ifndef OSHM_TEAM_COLL_H
#define OSHM_TEAM_COLL_H

#include <stdbool.h>
#include <stddef.h>

#include "team/barrier.h"
#include "util/env.h"

/* Switch points (docs/performance.md, "Collective algorithms"). */
#define OSHM_BCAST_PUSH_MAX_BYTES 8192
#define OSHM_BCAST_FLAT_MAX_PES 4
#define OSHM_REDUCE_WHOLE_MAX_BYTES 2048
#define OSHM_REDUCE_STAGE_BYTES OSHM_REDUCE_WHOLE_MAX_BYTES
#define OSHM_REDUCE_STAGE_MAX_PES 8
#define OSHM_REDUCE_PUSH_MAX_BYTES 256
#define OSHM_REDUCE_GROUPED_MIN_PES 64 /* above: reduce_grouped */
#define OSHM_REDUCE_BLOCK_BYTES 32768      /* peers' memory mapped: in cache */
#define OSHM_REDUCE_GET_BLOCK_BYTES 262144 /* some peer reached by gets only */

/* Combines N elements: acc[i] = acc[i] OP in[i]. */
typedef void (*oshm_combine_fn)(void *acc, const void *in, size_t n);

/* Which rules a call follows. */
enum oshm_coll_form {
    OSHM_COLL_TEAM,       /* 1.5: the team's words may be reused by the next
                             collective at once; a broadcast's root gets the
                             data too */
    OSHM_COLL_ACTIVE_SET, /* 1.4: every dest is ready and pSync unused before
                             anyone calls, pSync is reused only after every
                             PE has left; a broadcast leaves the root's dest
                             alone */
};

void oshm_broadcast(const struct oshm_pe_set *s, void *dest, const void *source, size_t bytes,
                    int root, enum oshm_coll_form form);

/* A cache line of a pushed reduction's slot (coll_reduce.c): the last line
 * of a push carries the push's sequence number beside its data, so that a
 * receiver polling it gets both in one transfer. */
#define OSHM_REDUCE_LINE_DATA 56
#define OSHM_REDUCE_LINES                                                                     \
    ((OSHM_REDUCE_PUSH_MAX_BYTES + OSHM_REDUCE_LINE_DATA - 1) / OSHM_REDUCE_LINE_DATA)
struct oshm_coll_line {
    _Alignas(64) unsigned char data[OSHM_REDUCE_LINE_DATA];
    int64_t seq; /* last line: the writer's count of pushes to this reader, once all its data is there */
};

/* Deferred acknowledgements (coll_deferred.c), and their symmetric words. */
struct oshm_coll_deferred_words {
    int64_t acks;     /* peers done with this PE's memory; only grows */
    int64_t lent;     /* a staged collect's block: its size if staged, else -1 - size (lent from source) */
    _Alignas(64) char stage[OSHM_REDUCE_STAGE_BYTES]; /* a small reduction's source */
    /* Jobs of up to OSHM_REDUCE_STAGE_MAX_PES PEs: the sources of a
     * reduction of up to OSHM_REDUCE_PUSH_MAX_BYTES, pushed here by each PE
     * into the slot of its own PE number, which no other PE writes. */
    struct oshm_coll_line slot[OSHM_REDUCE_STAGE_MAX_PES][OSHM_REDUCE_LINES];
    /* taken[p]: how many of this PE's pushes PE p has taken out of its
     * slot; written by PE p alone, with a plain store, a line each. */
    struct {
        _Alignas(64) int64_t count;
    } taken[OSHM_REDUCE_STAGE_MAX_PES];
};
/* At start-up, before any PE may signal them: W, zeroed. */
void oshm_coll_deferred_init(struct oshm_coll_deferred_words *w);
/* The last step of start-up: whether collectives may defer, from every
 * PE's thread level (hcomm.shared_somewhere). */
void oshm_coll_deferred_start(void);
/* Whether collectives may leave before their peers are done with this PE's
 * memory: no PE is under SHMEM_THREAD_MULTIPLE. */
bool oshm_coll_defer(void);
/* Whether collectives over S may stage (or push) through the deferred
 * words: they may defer, S has at most OSHM_REDUCE_STAGE_MAX_PES PEs and
 * this PE maps every one. */
bool oshm_coll_stageable(const struct oshm_pe_set *s);
/* Whether this PE reaches every PE of S by loads and stores (a check only:
 * nothing is mapped). */
bool oshm_coll_all_load_store(const struct oshm_pe_set *s);
/* ACKS more acknowledgements will come to this PE's ack word. */
void oshm_coll_expect(int64_t acks);
int64_t *oshm_coll_ack_word(void);
void *oshm_coll_stage(void);
int64_t *oshm_coll_lent_word(void);
/* World PE PE's reduction slot in this PE's words. */
struct oshm_coll_line *oshm_coll_slot(int pe);
/* Pushed reductions between two PEs count one on both sides. Waits until
 * world PE PE has taken this PE's last push out of its slot and returns
 * the sequence number of the next. */
int64_t oshm_coll_push_begin(int pe);
/* The sequence number of the next push this PE takes from PE's slot. */
int64_t oshm_coll_take_seq(int pe);
/* Tells PE that this PE has taken its push SEQ (a plain store into PE's
 * taken word for this PE: nothing waits for it here). */
void oshm_coll_take_done(int pe, int64_t seq);
/* Waits for every acknowledgement promised; every barrier, broadcast and
 * small reduction starts with it. */
void oshm_coll_settle(void);
/* A staged collective over S, once this PE's staging area (or lent word)
 * is written: tells every peer, promises itself their acknowledgements,
 * and waits until every peer has told it (taking the signals back, so that
 * a fast peer's signal for the next call, which comes only after that peer
 * has this call's acknowledgement, adds to an idle word). */
void oshm_coll_staged_round(const struct oshm_pe_set *s, const char *routine);
/* This PE is done with every peer's staging area (or lent source). */
void oshm_coll_staged_done(const struct oshm_pe_set *s, const char *routine);
void oshm_fcollect(const struct oshm_pe_set *s, void *dest, const void *source, size_t bytes,
                   enum oshm_coll_form form);
/* fcollect's algorithms (coll_fcollect.c): which one a call of BYTES per
 * PE uses (SHMEM_COLL_FCOLLECT, else by size, PE count and whether the peers
 * are mapped), and the two multi-step ones, which need dest free on every
 * PE (teams: after a barrier) and leave only when every PE has entered. */
enum oshm_coll_fcollect_choice oshm_fcollect_algorithm(const struct oshm_pe_set *s, size_t bytes);
void oshm_fcollect_rdbl(const struct oshm_pe_set *s, void *dest, const void *source, size_t bytes);
void oshm_fcollect_bruck(const struct oshm_pe_set *s, void *dest, const void *source,
                         size_t bytes);
void oshm_fcollect_ring(const struct oshm_pe_set *s, void *dest, const void *source, size_t bytes);
void oshm_collect(const struct oshm_pe_set *s, void *dest, const void *source, size_t bytes,
                  enum oshm_coll_form form);
void oshm_alltoall(const struct oshm_pe_set *s, void *dest, const void *source, size_t bytes,
                   enum oshm_coll_form form);
void oshm_alltoalls(const struct oshm_pe_set *s, void *dest, const void *source, ptrdiff_t dst,
                    ptrdiff_t sst, size_t elem, size_t nelems, enum oshm_coll_form form);
void oshm_reduce(const struct oshm_pe_set *s, void *dest, const void *source, size_t nreduce,
                 size_t elem, oshm_combine_fn combine);

/* EXCLUSIVE: the first PE gets all-zero bytes, which is 0 in every
 * arithmetic type. */
void oshm_scan(const struct oshm_pe_set *s, void *dest, const void *source, size_t nelems,
               size_t elem, oshm_combine_fn combine, bool exclusive);
/* This thread's scratch space of at least BYTES, valid until its next call;
 * fatal (naming ROUTINE) when memory runs out. */
void *oshm_coll_scratch(size_t bytes, const char *routine);

#endif
