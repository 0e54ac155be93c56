/*
 * Collectives designed for a network: for sets that some PE reaches only
 * through one (another node, or SHMEM_TRANSPORT forcing UCX or
 * libfabric). A message there costs tens of microseconds, most of it the
 * target's software and the system calls at both ends, against a fraction
 * of one for a store: these count messages and dependent steps, not bytes.
 *
 * Every transfer is a notify (hcomm_notify): the data and the signal that
 * announces it in one message where the backend has active messages (UCX),
 * with no fence and no reply; a receiver waits on its own memory. The
 * dependent steps of each algorithm (one-way messages on the critical path):
 *   broadcast  binomial tree, ceil(log2 n); above OSHM_NET_BCAST_TREE_MAX
 *              bytes a scatter down the tree and an allgather, so that no
 *              PE sends the whole message more than about twice;
 *   allreduce  recursive doubling, log2 n (plus two for a fold when n is not
 *              a power of two); above OSHM_NET_REDUCE_RDBL_MAX bytes
 *              reduce-scatter by recursive halving and allgather by
 *              recursive doubling (Rabenseifner), 2 log2 n steps moving
 *              about twice the vector per PE instead of log2 n times it;
 *              at a power of two of PEs the whole vector at once where
 *              the receive space holds it (coll_net.c); other counts up to
 *              OSHM_NET_DIRECT_MAX PEs direct: every PE sends each block's
 *              owner its part, the owner sends the result to all, 2 steps;
 *   alltoall   every PE sends each its block at once, one step;
 *   collect    at a power of two of PEs, an allgather of the sizes and
 *              then of the blocks, each by recursive doubling (2 log2 n
 *              steps, one message each); the blocks are sent to every PE
 *              at once where their total passes OSHM_NET_COLLECT_RDBL_MAX
 *              bytes; other PE counts send sizes, then blocks, to every PE
 *              at once (two steps where the chain of offsets took n - 1).
 * fcollect keeps its recursive doubling, Bruck and ring (coll_fcollect.c),
 * on notifies too.
 *
 * Where every pair that exchanges is reached through a backend with mail
 * (hcomm_mail: UCX's active messages), an active set's broadcast (up to
 * OSHM_NET_BCAST_MAIL_MAX bytes) and its recursive doubling (up to
 * OSHM_NET_MAIL_MAX) go in mail: the data land in the receiver's own
 * memory, not in its dest or pWrk, so no receiver acknowledges and no
 * sender waits for the receiver's word that it is in the call.
 *
 * A group is a list of set indices (NULL: all of the set, in order), so
 * that the node-aware forms run the same algorithms over one leader per
 * node. Receive scratch is symmetric: an active set's pWrk, a team's own
 * (struct oshm_team_words); each step has its own part of it and its own
 * signal word, so a fast partner of the next call never overwrites what
 * this one has not read (the partner of step k cannot start the next call
 * before this PE has sent every step of this one, and it sends step k only
 * after reading step k's).
 */
#ifndef OSHM_TEAM_COLL_NET_H
#define OSHM_TEAM_COLL_NET_H

#include <stdbool.h>
#include <stddef.h>

#include "team/barrier.h"
#include "team/coll.h"

#define OSHM_NET_BCAST_TREE_MAX 16384
/* Up to this many PEs the tree is flat: the root sends to each. */
#define OSHM_NET_BCAST_FLAT_MAX 4
#define OSHM_NET_REDUCE_RDBL_MAX 2048
/* Up to this many PEs, not a power of two, a large reduction is direct
 * (coll_net.c): each block combined by its owner from every PE's part, sent
 * to every PE, where the fold took two more steps. At a power of two the
 * halving's fewer messages won: 4 PEs on 2 cores, 64 KiB, 447 us median
 * against 535 direct. */
#define OSHM_NET_DIRECT_MAX 8
/* A collect's blocks by recursive doubling up to this many bytes in all;
 * beyond, each PE's block goes to every PE once, as fcollect leaves
 * recursive doubling for a ring past its own total. */
#define OSHM_NET_COLLECT_RDBL_MAX (1u << 20)
/* An active set's reduction by recursive doubling in mail (hcomm_mail: no
 * receive space at the partner, no word first) up to this many bytes,
 * where every pair that exchanges takes mail; checked pair by pair up to
 * OSHM_NET_MAIL_CHECK_MAX PEs where a node's PEs map each other. Over UCX
 * tcp, 32 KiB, against Rabenseifner: 2 PEs 36 -> 25 us, 4 PEs 247 -> 122,
 * 8 PEs 1,112 -> 496; 64 KiB at 4 PEs, a sum and a barrier, 830 against
 * 418 (UCX's eager fragments of a message that large). */
#define OSHM_NET_MAIL_MAX 32768
#define OSHM_NET_MAIL_CHECK_MAX 64
/* An active set's broadcast goes in mail up to this many bytes, under the
 * same condition (no acknowledgements: coll_net.c). */
#define OSHM_NET_BCAST_MAIL_MAX 65536

/* PEs of a set taking part: N of them, set index INDEX[i] (or i), this PE
 * being number ME. */
struct oshm_net_group {
    const int *index;
    int n;
    int me;
};

static inline int oshm_net_pe(const struct oshm_pe_set *s, const struct oshm_net_group *g, int r)
{
    return oshm_set_pe(s, g->index ? g->index[r] : r);
}

/* Bytes of the per-team receive scratch (struct oshm_team_words). */
#define OSHM_NET_TEAM_SCRATCH 65536

/* BYTES from the group's ROOT (a rank) to every member's DEST, signalled on
 * each member's WORD. The caller has made every dest free (active sets:
 * the rules; teams: a barrier); FORM says whether the root's own dest may
 * be written (a team's gets the data; an active set's root keeps its own)
 * and whether receivers acknowledge: an active set's program may start the
 * next broadcast on its other pSync at once, so each receiver tells its
 * parent once it has the data and has passed it on, and the parent waits
 * for its children when it next enters a collective (coll_deferred.c), or
 * in the call under SHMEM_THREAD_MULTIPLE. */
void oshm_net_bcast(const struct oshm_pe_set *s, const struct oshm_net_group *g, int root,
                    void *dest, const void *source, size_t bytes, int64_t *word,
                    enum oshm_coll_form form);

/* A receiver's acknowledgement of an active-set broadcast to the set's PE
 * PARENT, and a parent's wait for CHILDREN of them (coll_deferred.c). */
void oshm_net_ack(const struct oshm_pe_set *s, int parent);
void oshm_net_expect_acks(const struct oshm_pe_set *s, int children);

/* Every member's DEST gets the combination of every member's SOURCE
 * (COUNT elements of ELEM bytes), combined in the same order everywhere,
 * received in the set's scratch (at least 4 * OSHM_COLL_MAX_STEPS + 4
 * elements of it). A vector the scratch cannot hold goes in chunks, and
 * chunks take its two halves in turn: a partner may start the next chunk
 * (or a team's next call) before this PE has read what it sent in this
 * one, since it needs only this PE's sends, but not the one after. At a
 * power of two of PEs a large vector goes whole where the scratch holds
 * all but the first step, which lands in dest (coll_net.c). */
void oshm_net_allreduce(const struct oshm_pe_set *s, const struct oshm_net_group *g,
                        void *dest, const void *source, size_t count, size_t elem,
                        oshm_combine_fn combine);

/* The whole set: BYTES from each PE to each, into dest at the sender's
 * index, announced on the done word. */
void oshm_net_alltoall(const struct oshm_pe_set *s, void *dest, const void *source,
                       size_t bytes, enum oshm_coll_form form);

/* The whole set: blocks of each PE's size, in PE order, at every PE; SIZES is
 * symmetric room for one int64_t per PE of the set. */
void oshm_net_collect(const struct oshm_pe_set *s, void *dest, const void *source,
                      size_t bytes, int64_t *sizes, enum oshm_coll_form form);

/* Whether oshm_net_allreduce has room for COUNT elements of ELEM over N
 * PEs of S (the set's scratch, or for an active set's small vectors the
 * library's own). */
bool oshm_net_allreduce_fits(const struct oshm_pe_set *s, int n, size_t count, size_t elem);

/* Bytes of the library's own symmetric receive space for active sets'
 * small reductions (team.c), and where it is. */
#define OSHM_NET_ACTIVE_SCRATCH 65536
void *oshm_net_active_scratch(void);

/* Whether a set's collectives take the network forms: some PE of it is
 * not mapped. */
bool oshm_net_set(const struct oshm_pe_set *s);

#endif
