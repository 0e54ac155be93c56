#include "team/team.h"

#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "core/log.h"
#include "core/runtime.h"
#include "core/spin.h"
#include "heap/heap.h"
#include "hcomm/hcomm.h"

struct shmem_team_impl shmem_team_world_impl;
struct shmem_team_impl shmem_team_shared_impl;

static struct oshm_sync_words *pool;  /* OSHM_TEAM_SLOTS, symmetric */
static uint64_t slots_used;           /* this PE's view */
struct oshm_pe_set oshm_device_world;

int oshm_teams_init(void)
{
    pool = oshm_heap_alloc(sizeof *pool * OSHM_TEAM_SLOTS, 0);
    if (!pool)
        return -1;
    memset(pool, 0, sizeof *pool * OSHM_TEAM_SLOTS);
    int n = hcomm.n_pes, me = hcomm.my_pe;
    shmem_team_world_impl = (struct shmem_team_impl){
        .set = {.start = 0, .stride = 1, .size = n, .my_index = me, .sync = (int64_t *)&pool[0]},
        .slot = 0,
        .predefined = true,
    };
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
                                 .size = count, .sync = (int64_t *)&pool[1]};
    if (!arithmetic) {
        oshm_warn("the PEs that share memory with this one are not evenly spaced; "
                  "SHMEM_TEAM_SHARED holds this PE only");
        shared = (struct oshm_pe_set){.start = me, .stride = 1, .size = 1, .sync = shared.sync};
    }
    shared.my_index = (me - shared.start) / shared.stride;
    shmem_team_shared_impl = (struct shmem_team_impl){.set = shared, .slot = 1, .predefined = true};
    /* Kernels synchronize on their own words, so that a kernel's barrier
     * never meets the host's (src/device). */
    oshm_device_world = shmem_team_world_impl.set;
    oshm_device_world.sync = (int64_t *)&pool[2];
    slots_used = 7; /* slots 0, 1 and 2 */
    oshm_oversubscribed = hcomm.oversubscribed;
    oshm_rt.world = shmem_team_world_impl.set;
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

/* Collective over PARENT: the lowest slot free on every PE of it. */
static int agree_on_slot(const struct oshm_pe_set *parent)
{
    struct hcomm_channel *ch = &hcomm.default_channel;
    int64_t *vote = &parent->sync[OSHM_SYNC_VOTE_WORD];
    *vote = (int64_t)~slots_used;
    oshm_barrier_sync(parent);
    uint64_t free_everywhere = ~slots_used;
    for (int i = 0; i < parent->size; i++) {
        int64_t theirs;
        hcomm_get(ch, &theirs, vote, sizeof theirs, oshm_set_pe(parent, i), false, "team split");
        free_everywhere &= (uint64_t)theirs;
    }
    /* Nobody overwrites its vote before everybody has read it. */
    oshm_barrier_sync(parent);
    *vote = 0;
    return free_everywhere ? __builtin_ctzll(free_everywhere) : -1;
}

/* Makes the team of world PEs start + i*stride, i < size, on slot SLOT; NULL
 * (SHMEM_TEAM_INVALID) for a PE outside it. */
static shmem_team_t make_team(int start, int stride, int size, int slot,
                              const shmem_team_config_t *config, long mask)
{
    int me = hcomm.my_pe, index = -1;
    for (int i = 0; i < size; i++)
        if (start + i * stride == me)
            index = i;
    if (index < 0)
        return SHMEM_TEAM_INVALID;
    struct shmem_team_impl *t = calloc(1, sizeof *t);
    if (!t)
        oshm_fatal("out of memory creating a team");
    t->set = (struct oshm_pe_set){.start = start, .stride = stride, .size = size,
                                  .my_index = index, .sync = (int64_t *)&pool[slot]};
    t->slot = slot;
    if (config && (mask & SHMEM_TEAM_NUM_CONTEXTS))
        t->config.num_contexts = config->num_contexts;
    slots_used |= 1ull << slot;
    return t;
}

OSHM_FN(int, shmem_team_split_strided,
        (shmem_team_t parent_team, int start, int stride, int size,
         const shmem_team_config_t *config, long config_mask, shmem_team_t *new_team))
{
    oshm_require_init("shmem_team_split_strided");
    *new_team = SHMEM_TEAM_INVALID;
    if (parent_team == SHMEM_TEAM_INVALID)
        return -1;
    const struct oshm_pe_set *parent = oshm_team_set(parent_team, "shmem_team_split_strided");
    bool valid = size > 0 && start >= 0 && start < parent->size;
    if (valid) {
        long last = (long)start + (long)(size - 1) * stride;
        valid = last >= 0 && last < parent->size && (stride != 0 || size == 1);
    }
    if (!valid) {
        if (parent->my_index == 0)
            oshm_warn("shmem_team_split_strided: start %d, stride %d, size %d do not fit in a "
                      "parent team of %d PEs", start, stride, size, parent->size);
        oshm_barrier_sync(parent);
        return -1;
    }
    int slot = agree_on_slot(parent);
    if (slot < 0) {
        if (parent->my_index == 0)
            oshm_warn("shmem_team_split_strided: more than %d teams at once", OSHM_TEAM_SLOTS);
        return -1;
    }
    *new_team = make_team(oshm_set_pe(parent, start), parent->stride * (stride ? stride : 1), size,
                          slot, config, config_mask);
    oshm_barrier_sync(parent);
    return 0;
}

OSHM_FN(int, shmem_team_split_2d,
        (shmem_team_t parent_team, int xrange, const shmem_team_config_t *xaxis_config,
         long xaxis_mask, shmem_team_t *xaxis_team, const shmem_team_config_t *yaxis_config,
         long yaxis_mask, shmem_team_t *yaxis_team))
{
    oshm_require_init("shmem_team_split_2d");
    *xaxis_team = *yaxis_team = SHMEM_TEAM_INVALID;
    if (parent_team == SHMEM_TEAM_INVALID || xrange <= 0)
        return -1;
    const struct oshm_pe_set *parent = oshm_team_set(parent_team, "shmem_team_split_2d");
    int n = parent->size, me = parent->my_index;
    if (xrange > n)
        xrange = n;
    int xslot = agree_on_slot(parent), yslot = -1;
    if (xslot >= 0) {
        /* Held while the columns' slot is chosen, so that the two differ. */
        slots_used |= 1ull << xslot;
        yslot = agree_on_slot(parent);
        slots_used &= ~(1ull << xslot);
    }
    if (xslot < 0 || yslot < 0) {
        if (me == 0)
            oshm_warn("shmem_team_split_2d: more than %d teams at once", OSHM_TEAM_SLOTS);
        return -1;
    }
    /* Row: xrange consecutive PEs of the parent; column: every xrange-th. */
    int row_start = me / xrange * xrange;
    int row_size = n - row_start < xrange ? n - row_start : xrange;
    int col_start = me % xrange;
    int col_size = (n - col_start + xrange - 1) / xrange;
    *xaxis_team = make_team(oshm_set_pe(parent, row_start), parent->stride, row_size, xslot,
                            xaxis_config, xaxis_mask);
    *yaxis_team = make_team(oshm_set_pe(parent, col_start), parent->stride * xrange, col_size,
                            yslot, yaxis_config, yaxis_mask);
    oshm_barrier_sync(parent);
    return 0;
}

OSHM_FN(void, shmem_team_destroy, (shmem_team_t team))
{
    if (team == SHMEM_TEAM_INVALID || team->predefined)
        return;
    shmem_quiet();
    oshm_barrier_sync(&team->set);
    slots_used &= ~(1ull << team->slot);
    free(team);
}

OSHM_FN(int, shmem_team_my_pe, (shmem_team_t team))
{
    return team == SHMEM_TEAM_INVALID ? -1 : team->set.my_index;
}

OSHM_FN(int, shmem_team_n_pes, (shmem_team_t team))
{
    return team == SHMEM_TEAM_INVALID ? -1 : team->set.size;
}

OSHM_FN(int, shmem_team_get_config, (shmem_team_t team, long config_mask, shmem_team_config_t *config))
{
    if (team == SHMEM_TEAM_INVALID || !config)
        return -1;
    if (config_mask & SHMEM_TEAM_NUM_CONTEXTS)
        config->num_contexts = team->config.num_contexts;
    return 0;
}

OSHM_FN(int, shmem_team_translate_pe, (shmem_team_t src_team, int src_pe, shmem_team_t dest_team))
{
    int world = oshm_team_world_pe(src_team, src_pe);
    if (world < 0 || dest_team == SHMEM_TEAM_INVALID)
        return -1;
    const struct oshm_pe_set *d = &dest_team->set;
    int rel = world - d->start;
    if (d->stride == 0)
        return rel == 0 ? 0 : -1;
    if (rel % d->stride != 0)
        return -1;
    int index = rel / d->stride;
    return index >= 0 && index < d->size ? index : -1;
}

OSHM_FN(void *, shmem_team_ptr, (shmem_team_t team, const void *dest, int pe))
{
    int world = oshm_team_world_pe(team, pe);
    return world < 0 ? NULL : shmem_ptr(dest, world);
}

OSHM_FN(int, shmem_team_sync, (shmem_team_t team))
{
    oshm_require_init("shmem_team_sync");
    if (team == SHMEM_TEAM_INVALID)
        return -1;
    oshm_barrier_sync(oshm_team_set(team, "shmem_team_sync"));
    return 0;
}
