/*
 * Node-aware collectives (coll_nodes.h): inside a node through shared
 * memory, between nodes one PE per node over the network (coll_net.h),
 * then inside each node again. Used where a set spans several nodes and
 * some node holds several of its PEs.
 */
#ifndef OSHM_TEAM_COLL_HIER_H
#define OSHM_TEAM_COLL_HIER_H

#include <stddef.h>

#include "team/coll.h"
#include "team/coll_nodes.h"

/* BYTES from set index ROOT to every PE's DEST; the root's node is served
 * by the root itself. Every dest is free (the caller's part); FORM as for
 * oshm_net_bcast (an active set's PEs acknowledge to whoever sent to them). */
void oshm_hier_bcast(const struct oshm_pe_set *s, const struct oshm_set_nodes *n, int root,
                     void *dest, const void *source, size_t bytes, enum oshm_coll_form form);

/* Every PE's DEST gets the combination of every PE's SOURCE: each leader
 * combines its node's sources in set order, the leaders combine theirs
 * over the network (the set's scratch), and each leader writes the result
 * into its node's dests. The same bits on every PE. */
void oshm_hier_allreduce(const struct oshm_pe_set *s, const struct oshm_set_nodes *n,
                         void *dest, const void *source, size_t count, size_t elem,
                         oshm_combine_fn combine);

#endif
