/*
 * Collective data movement over a set of PEs, on any backend (through hcomm
 * put/get only). Each routine starts with a barrier (every source is ready,
 * every destination is free) and ends with quiet and a barrier (every result
 * is in place before anyone returns).
 *
 *   broadcast  every PE gets the root's source: the root is read by all at
 *              once instead of writing to each in turn;
 *   collect    blocks in PE order; a PE learns where its block goes from the
 *              PE before it, then writes its block to every PE;
 *   alltoall   every PE writes its j-th block to PE j;
 *   reduce     reduce-scatter then allgather: PE c combines chunk c of every
 *              PE's source and writes the result into every PE's dest. Only
 *              PE c touches chunk c anywhere, so dest may be source.
 *   scan       the same split: PE c reads chunk c of each PE's source in
 *              set order and writes each PE its running sum (inclusive) or
 *              the sum before it (exclusive, zeros on the first PE). A PE's
 *              source chunk is read before its dest chunk is written, so
 *              dest may be source here too.
 */
#ifndef OSHM_TEAM_COLL_H
#define OSHM_TEAM_COLL_H

#include <stdbool.h>
#include <stddef.h>

#include "team/barrier.h"

/* Combines N elements: acc[i] = acc[i] OP in[i]. */
typedef void (*oshm_combine_fn)(void *acc, const void *in, size_t n);

void oshm_broadcast(const struct oshm_pe_set *s, void *dest, const void *source, size_t bytes,
                    int root, bool root_receives);
void oshm_fcollect(const struct oshm_pe_set *s, void *dest, const void *source, size_t bytes);
void oshm_collect(const struct oshm_pe_set *s, void *dest, const void *source, size_t bytes);
void oshm_alltoall(const struct oshm_pe_set *s, void *dest, const void *source, size_t bytes);
void oshm_alltoalls(const struct oshm_pe_set *s, void *dest, const void *source, ptrdiff_t dst,
                    ptrdiff_t sst, size_t elem, size_t nelems);
void oshm_reduce(const struct oshm_pe_set *s, void *dest, const void *source, size_t nreduce,
                 size_t elem, oshm_combine_fn combine);

/* EXCLUSIVE: the first PE gets all-zero bytes, which is 0 in every
 * arithmetic type. */
void oshm_scan(const struct oshm_pe_set *s, void *dest, const void *source, size_t nelems,
               size_t elem, oshm_combine_fn combine, bool exclusive);

#endif
