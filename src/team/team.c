#include "team/team.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "hcomm/hcomm.h"
#include "heap/heap.h"
#include "team/coll.h"
#include "team/coll_net.h"
#include "util/log.h"

struct shmem_team_impl shmem_team_world_impl;
struct shmem_team_impl shmem_team_shared_impl;

static struct oshm_team_words *pool;  /* OSHM_TEAM_SLOTS, symmetric */
/* Each slot's receive space for network reductions (coll_net.h), symmetric;
 * never cleared: its pages are taken only by the teams that use it. */
static char *pool_scratch;

static void *slot_scratch(int slot) { return pool_scratch + (size_t)slot * OSHM_NET_TEAM_SCRATCH; }
/* Active sets' small network reductions receive here (coll_net.c). */
static char *active_scratch;
void *oshm_net_active_scratch(void) { return active_scratch; }
struct oshm_pe_set oshm_device_world;
/* The teams the program created and has not destroyed: the last
 * shmem_finalize destroys them (threads may create teams at once). */
static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static struct shmem_team_impl *live;

int oshm_teams_init(void)
{
    pool = oshm_heap_alloc(sizeof *pool * OSHM_TEAM_SLOTS, 0);
    if (!pool)
        return -1;
    memset(pool, 0, sizeof *pool * OSHM_TEAM_SLOTS);
    pool_scratch = oshm_heap_alloc((size_t)OSHM_TEAM_SLOTS * OSHM_NET_TEAM_SCRATCH, 4096);
    active_scratch = oshm_heap_alloc(OSHM_NET_ACTIVE_SCRATCH, 4096);
    if (!pool_scratch || !active_scratch)
        return -1;
    struct oshm_coll_deferred_words *deferred = oshm_heap_alloc(sizeof *deferred, 64);
    if (!deferred)
        return -1;
    memset(deferred, 0, sizeof *deferred);
    oshm_coll_deferred_init(deferred);
    int n = hcomm.n_pes, me = hcomm.my_pe;
    shmem_team_world_impl = (struct shmem_team_impl){
        .set = {.start = 0, .stride = 1, .size = n, .my_index = me, .sync = (int64_t *)&pool[0].sync,
                .scratch = slot_scratch(0), .scratch_bytes = OSHM_NET_TEAM_SCRATCH},
        .slot = 0,
        .predefined = true,
    };
    shmem_team_world_impl.set.calls = &shmem_team_world_impl.net_calls;
    /* The PEs whose memory this PE maps (those of this node, unless UCX is
     * forced): an arithmetic run of world PEs when the launcher places PEs
     * by node in blocks or round-robin. */
    int first = -1, second = -1, count = 0;
    bool arithmetic = true;
    for (int p = 0; p < n; p++) {
        if (!hcomm_load_store(p))
            continue;
        if (first < 0)
            first = p;
        else if (second < 0)
            second = p;
        else if (p - first != count * (second - first))
            arithmetic = false;
        count++;
    }
    struct oshm_pe_set shared = {.start = first, .stride = second > 0 ? second - first : 1,
                                 .size = count, .sync = (int64_t *)&pool[1].sync,
                                 .scratch = slot_scratch(1), .scratch_bytes = OSHM_NET_TEAM_SCRATCH};
    if (!arithmetic) {
        oshm_warn("the PEs that share memory with this one are not evenly spaced; "
                  "SHMEM_TEAM_SHARED holds this PE only");
        shared = (struct oshm_pe_set){.start = me, .stride = 1, .size = 1, .sync = shared.sync,
                                      .scratch = shared.scratch,
                                      .scratch_bytes = shared.scratch_bytes};
    }
    shared.my_index = (me - shared.start) / shared.stride;
    shmem_team_shared_impl = (struct shmem_team_impl){.set = shared, .slot = 1, .predefined = true};
    shmem_team_shared_impl.set.calls = &shmem_team_shared_impl.net_calls;
    /* Kernels synchronize on their own words, so that a kernel's barrier
     * never meets the host's (src/device). */
    oshm_device_world = shmem_team_world_impl.set;
    oshm_device_world.sync = (int64_t *)&pool[2].sync;
    oshm_device_world.scratch = slot_scratch(2);
    oshm_team_slots_init(7); /* slots 0, 1 and 2 */
    return 0;
}

const struct oshm_pe_set *oshm_team_set(shmem_team_t team, const char *routine)
{
    if (team == SHMEM_TEAM_INVALID)
        oshm_fatal("%s: the team is SHMEM_TEAM_INVALID", routine);
    if (team->set.my_index < 0)
        oshm_fatal("%s: this PE is not a member of the team", routine);
    return &team->set;
}

int oshm_team_world_pe(shmem_team_t team, int index)
{
    if (team == SHMEM_TEAM_INVALID || index < 0 || index >= team->set.size)
        return -1;
    return oshm_set_pe(&team->set, index);
}

void oshm_sync_world(void) { oshm_barrier_sync(&shmem_team_world_impl.set); }

shmem_team_t oshm_team_new(int start, int stride, int size, int slot,
                           const shmem_team_config_t *config, long config_mask)
{
    int me = hcomm.my_pe, index = -1;
    for (int i = 0; i < size; i++)
        if (start + i * stride == me)
            index = i;
    if (index < 0) {
        /* This PE never uses the team's words, so the slot is free here
         * again: a later vote over a parent that holds any member of the
         * team still finds it taken there. */
        oshm_team_slot_release(slot);
        return SHMEM_TEAM_INVALID;
    }
    struct shmem_team_impl *t = calloc(1, sizeof *t);
    if (!t)
        oshm_fatal("out of memory creating a team");
    t->set = (struct oshm_pe_set){.start = start, .stride = stride, .size = size,
                                  .my_index = index, .sync = (int64_t *)&pool[slot].sync,
                                  .scratch = slot_scratch(slot),
                                  .scratch_bytes = OSHM_NET_TEAM_SCRATCH,
                                  .calls = &t->net_calls};
    t->slot = slot;
    if (config && (config_mask & SHMEM_TEAM_NUM_CONTEXTS))
        t->config.num_contexts = config->num_contexts;
    pthread_mutex_lock(&live_lock);
    t->next_live = live;
    if (live)
        live->prev_live = t;
    live = t;
    pthread_mutex_unlock(&live_lock);
    return t;
}

void oshm_team_free(shmem_team_t team)
{
    pthread_mutex_lock(&live_lock);
    if (team->prev_live)
        team->prev_live->next_live = team->next_live;
    else
        live = team->next_live;
    if (team->next_live)
        team->next_live->prev_live = team->prev_live;
    pthread_mutex_unlock(&live_lock);
    oshm_team_slot_release(team->slot);
    free(team);
}

void oshm_teams_fini(void)
{
    while (live)
        oshm_team_free(live);
    /* The pool went with the heap; the predefined teams are set up anew by
     * the next life's oshm_teams_init. */
    pool = NULL;
}
