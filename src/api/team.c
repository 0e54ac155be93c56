/*
 * The team routines: argument checks and the geometry of a split here; slots,
 * sets and sync words are src/team's.
 */
#include "api/api.h"
#include <shmem/shmem.h>
#include <stdbool.h>

#include "hcomm/hcomm.h"
#include "team/team.h"
#include "util/log.h"
#include "util/prof.h"
#include "util/state.h"

static int team_split_strided_body(shmem_team_t parent_team, int start, int stride, int size,
                                   const shmem_team_config_t *config, long config_mask,
                                   shmem_team_t *new_team)
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
    int slot;
    if (oshm_team_agree_slots(parent_team, 1, &slot) != 0) {
        if (parent->my_index == 0)
            oshm_warn("shmem_team_split_strided: more than %d teams at once", OSHM_TEAM_SLOTS);
        return -1;
    }
    *new_team = oshm_team_new(oshm_set_pe(parent, start), parent->stride * (stride ? stride : 1),
                              size, slot, config, config_mask);
    oshm_barrier_sync(parent);
    return 0;
}

OSHM_FN(int, shmem_team_split_strided,
        (shmem_team_t parent_team, int start, int stride, int size,
         const shmem_team_config_t *config, long config_mask, shmem_team_t *new_team))
{
    int r;
    OSHM_PROFILED_LOCAL(OSHM_PROF_team_split, "shmem_team_split_strided", 0,
                        r = team_split_strided_body(parent_team, start, stride, size, config,
                                                    config_mask, new_team));
    return r;
}

static int team_split_2d_body(shmem_team_t parent_team, int xrange,
                              const shmem_team_config_t *xaxis_config, long xaxis_mask,
                              shmem_team_t *xaxis_team, const shmem_team_config_t *yaxis_config,
                              long yaxis_mask, shmem_team_t *yaxis_team)
{
    oshm_require_init("shmem_team_split_2d");
    *xaxis_team = *yaxis_team = SHMEM_TEAM_INVALID;
    if (parent_team == SHMEM_TEAM_INVALID || xrange <= 0)
        return -1;
    const struct oshm_pe_set *parent = oshm_team_set(parent_team, "shmem_team_split_2d");
    int n = parent->size, me = parent->my_index;
    if (xrange > n)
        xrange = n;
    int slot[2]; /* row, column */
    if (oshm_team_agree_slots(parent_team, 2, slot) != 0) {
        if (me == 0)
            oshm_warn("shmem_team_split_2d: more than %d teams at once", OSHM_TEAM_SLOTS);
        return -1;
    }
    /* Row: xrange consecutive PEs of the parent; column: every xrange-th. */
    int row_start = me / xrange * xrange;
    int row_size = n - row_start < xrange ? n - row_start : xrange;
    int col_start = me % xrange;
    int col_size = (n - col_start + xrange - 1) / xrange;
    *xaxis_team = oshm_team_new(oshm_set_pe(parent, row_start), parent->stride, row_size, slot[0],
                                xaxis_config, xaxis_mask);
    *yaxis_team = oshm_team_new(oshm_set_pe(parent, col_start), parent->stride * xrange,
                                col_size, slot[1], yaxis_config, yaxis_mask);
    oshm_barrier_sync(parent);
    return 0;
}

OSHM_FN(int, shmem_team_split_2d,
        (shmem_team_t parent_team, int xrange, const shmem_team_config_t *xaxis_config,
         long xaxis_mask, shmem_team_t *xaxis_team, const shmem_team_config_t *yaxis_config,
         long yaxis_mask, shmem_team_t *yaxis_team))
{
    int r;
    OSHM_PROFILED_LOCAL(OSHM_PROF_team_split, "shmem_team_split_2d", 0,
                        r = team_split_2d_body(parent_team, xrange, xaxis_config, xaxis_mask,
                                               xaxis_team, yaxis_config, yaxis_mask, yaxis_team));
    return r;
}

static void team_destroy_body(shmem_team_t team)
{
    oshm_require_init("shmem_team_destroy");
    if (team == SHMEM_TEAM_INVALID || team->predefined)
        return;
    hcomm_quiet(&hcomm.default_channel);
    oshm_barrier_sync(&team->set);
    oshm_team_free(team);
}

OSHM_FN(void, shmem_team_destroy, (shmem_team_t team))
{
    OSHM_PROFILED_LOCAL(OSHM_PROF_team_destroy, "shmem_team_destroy", 0, team_destroy_body(team));
}

OSHM_FN(int, shmem_team_my_pe, (shmem_team_t team))
{
    oshm_require_init("shmem_team_my_pe");
    return team == SHMEM_TEAM_INVALID ? -1 : team->set.my_index;
}

OSHM_FN(int, shmem_team_n_pes, (shmem_team_t team))
{
    oshm_require_init("shmem_team_n_pes");
    return team == SHMEM_TEAM_INVALID ? -1 : team->set.size;
}

OSHM_FN(int, shmem_team_get_config, (shmem_team_t team, long config_mask, shmem_team_config_t *config))
{
    oshm_require_init("shmem_team_get_config");
    if (team == SHMEM_TEAM_INVALID)
        return -1;
    /* OpenSHMEM 1.6: a zero mask asks for nothing, and CONFIG may then be
     * NULL. The values are the current ones: the library never changes a
     * team's, so they are those it was created with. */
    if (config_mask == 0)
        return 0;
    if (!config)
        oshm_fatal("shmem_team_get_config: CONFIG is NULL, but the mask (%ld) asks for values",
                   config_mask);
    if (config_mask & SHMEM_TEAM_NUM_CONTEXTS)
        config->num_contexts = team->config.num_contexts;
    return 0;
}

OSHM_FN(int, shmem_team_translate_pe, (shmem_team_t src_team, int src_pe, shmem_team_t dest_team))
{
    oshm_require_init("shmem_team_translate_pe");
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
    oshm_require_init("shmem_team_ptr");
    int world = oshm_team_world_pe(team, pe);
    return world < 0 ? NULL : shmem_ptr(dest, world);
}

static int team_sync_body(shmem_team_t team)
{
    oshm_require_init("shmem_team_sync");
    if (team == SHMEM_TEAM_INVALID)
        return -1;
    oshm_barrier_sync(oshm_team_set(team, "shmem_team_sync"));
    return 0;
}

OSHM_FN(int, shmem_team_sync, (shmem_team_t team))
{
    int r;
    OSHM_PROFILED_LOCAL(OSHM_PROF_sync, "shmem_team_sync", 0, r = team_sync_body(team));
    return r;
}
