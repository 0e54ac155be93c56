/*
 * Where a set's PEs sit: which of them share a node, for the node-aware
 * collectives. Over a network a message costs tens of microseconds and
 * within a node a store costs less than one: a collective over several
 * nodes with several PEs on some of them is done in three parts, inside
 * each node through shared memory, then between one leader per node over
 * the network, then inside each node again, so that 8 PEs on 4 nodes pay
 * about what 4 PEs on 4 nodes pay, plus the node's part.
 */
#ifndef OSHM_TEAM_COLL_NODES_H
#define OSHM_TEAM_COLL_NODES_H

#include <stdbool.h>

#include "team/barrier.h"

/* A node's leader is its PE of the lowest index in the set. */
struct oshm_set_nodes {
    int n_leaders;     /* nodes the set spans */
    int leader_rank;   /* this PE's node among them */
    const int *leader; /* set index of each node's leader, in set order */
    int n_local;       /* PEs of the set on this PE's node */
    int local_rank;    /* this PE among them (0: the leader) */
    const int *local;  /* their set indices, in set order */
    bool all_mapped;   /* this PE reaches every PE of the set by stores */
};

/* Fills OUT for S and says whether the node-aware form pays: S spans
 * several nodes and some node holds several of its PEs. The arrays stay
 * valid until this thread's next call. */
bool oshm_set_nodes(const struct oshm_pe_set *s, struct oshm_set_nodes *out);


#endif
