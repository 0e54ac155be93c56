/*
 * Device collectives (coll.c): binomial trees over a team's PEs with the
 * team's device words (struct oshm_sync_words) as counters, and the
 * threads of a group (one thread, or the calling block) sharing the data.
 */
#ifndef OSHM_DEVICE_COLL_H
#define OSHM_DEVICE_COLL_H

#include <stdbool.h>
#include <stddef.h>

#include <shmem/device.h>

/* Combines N elements of SRC into DST (DST = DST op SRC). */
typedef void (*coll_combine_fn)(void *dst, const void *src, size_t n);

int dcoll_broadcast(shmemd_team_t team, void *dest, const void *source, size_t nbytes, int root,
                    bool block, const char *routine);
int dcoll_fcollect(shmemd_team_t team, void *dest, const void *source, size_t nbytes, bool block,
                   const char *routine);
int dcoll_alltoall(shmemd_team_t team, void *dest, const void *source, size_t nbytes, bool block,
                   const char *routine);
int dcoll_reduce(shmemd_team_t team, void *dest, const void *source, size_t nreduce, size_t size,
                 coll_combine_fn combine, bool block, const char *routine);

/* NELEMS elements of SIZE bytes in bytes, or a fatal error naming ROUTINE. */
size_t dcoll_bytes(size_t nelems, size_t size, const char *routine);

#endif
