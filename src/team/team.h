/*
 * Teams: arithmetic sets of PEs (every team the API can create is one:
 * world, strided splits of strided teams, the rows and columns of a 2D split)
 * with their own symmetric sync words, taken from a pool that every PE
 * allocates at start-up. A new team's slot is agreed on by its parent's PEs:
 * the lowest slot free on all of them, also when threads create teams at
 * once (team_slots.c). The shmem_team_* routines built on this are in
 * src/api/team.c.
 */
#ifndef OSHM_TEAM_TEAM_H
#define OSHM_TEAM_TEAM_H

#include <shmem/shmem.h>
#include <stdbool.h>
#include <stdint.h>

#include "team/barrier.h"

#define OSHM_TEAM_SLOTS 64

struct shmem_team_impl {
    struct oshm_pe_set set;    /* world PE numbers; my_index -1 if not a member */
    uint32_t net_calls;        /* set.calls points here */
    shmem_team_config_t config;
    int slot;
    bool predefined;
    struct shmem_team_impl *prev_live, *next_live; /* teams the program created */
};

/* Allocates the pool and sets up SHMEM_TEAM_WORLD and SHMEM_TEAM_SHARED. */
int oshm_teams_init(void);

/* Checks a team argument: fatal for SHMEM_TEAM_INVALID or a destroyed team. */
const struct oshm_pe_set *oshm_team_set(shmem_team_t team, const char *routine);

/* World PE of index I of TEAM, or -1. */
int oshm_team_world_pe(shmem_team_t team, int index);

/* Collective over PARENT: the N lowest slots free on every PE of it, taken
 * on every PE of it, into SLOTS; -1 on every PE when fewer are free. Safe
 * from any thread, with other threads' votes over other parents in flight. */
int oshm_team_agree_slots(shmem_team_t parent, int n, int *slots);

/* Marks the slots in TAKEN used: the predefined teams'. */
void oshm_team_slots_init(uint64_t taken);

/* Gives SLOT back on this PE. */
void oshm_team_slot_release(int slot);

/* The team of world PEs start + i*stride, i < size, on the agreed SLOT; NULL
 * (SHMEM_TEAM_INVALID) on a PE outside it, which gives the slot back. */
shmem_team_t oshm_team_new(int start, int stride, int size, int slot,
                           const shmem_team_config_t *config, long config_mask);

/* Gives TEAM's slot back and frees it; every member has stopped using it. */
void oshm_team_free(shmem_team_t team);

/* By the last shmem_finalize: frees every team the program left. */
void oshm_teams_fini(void);

/* Barrier over all PEs without completing outstanding puts. */
void oshm_sync_world(void);

/* All PEs, with sync words of their own for device kernels. */
extern struct oshm_pe_set oshm_device_world;

#endif
