/*
 * Device-wide synchronization and team queries from a kernel. A sync meets
 * like a barrier (every thread of every block of every PE of the team) but
 * completes nothing: the caller quiets first when it needs that.
 */
#include <shmem/device.h>
#include <shmem/shmem.h>

#include "device/dsync.h"
#include "team/barrier.h"
#include "team/team.h"
#include "util/log.h"

static void sync_over_run(const struct oshm_pe_set *set, const char *routine)
{
    struct device_thread *t = device_thread_of(routine);
    pthread_barrier_wait(&t->launch->grid);
    /* One thread speaks for the device. */
    if (t->block == 0 && t->thread == 0)
        oshm_barrier_sync(set);
    pthread_barrier_wait(&t->launch->grid);
}

static void sync_over(const struct oshm_pe_set *set, const char *routine)
{
    OSHM_PROFILED_LOCAL(OSHM_PROF_device_barrier, routine, 0, sync_over_run(set, routine));
}

void shmemd_sync_all(void) { sync_over(&oshm_device_world, "shmemd_sync_all"); }

void shmemd_team_sync(shmemd_team_t team)
{
    /* The world team's kernels meet on the device's own words, never on
     * the host's (src/team/team.c). */
    if (team == SHMEMD_TEAM_WORLD) {
        sync_over(&oshm_device_world, "shmemd_team_sync");
        return;
    }
    sync_over(oshm_team_set(team, "shmemd_team_sync"), "shmemd_team_sync");
}

int shmemd_team_my_pe(shmemd_team_t team)
{
    device_thread_of("shmemd_team_my_pe");
    return team == SHMEMD_TEAM_INVALID ? -1 : team->set.my_index;
}

int shmemd_team_n_pes(shmemd_team_t team)
{
    device_thread_of("shmemd_team_n_pes");
    return team == SHMEMD_TEAM_INVALID ? -1 : team->set.size;
}

int shmemd_team_translate_pe(shmemd_team_t src_team, int src_pe, shmemd_team_t dest_team)
{
    device_thread_of("shmemd_team_translate_pe");
    return shmem_team_translate_pe(src_team, src_pe, dest_team);
}
