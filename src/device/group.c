/*
 * What a launch holds for its groups: a barrier per warp (SHMEMD_WARP_SIZE
 * consecutive threads of a block; the block's last warp may be shorter)
 * and a slot per block for its unified buffer (device/ub.c).
 */
#include <shmem/device.h>
#include <stdlib.h>

#include "device/device.h"
#include "util/log.h"

void device_groups_init(struct device_launch *l)
{
    l->warps = (l->nthreads + SHMEMD_WARP_SIZE - 1) / SHMEMD_WARP_SIZE;
    l->warp = calloc((size_t)l->nblocks * l->warps, sizeof *l->warp);
    l->ub = calloc(l->nblocks, sizeof *l->ub);
    if (!l->warp || !l->ub)
        oshm_fatal("shmemx_launch: out of memory for %u blocks' warps", l->nblocks);
    for (unsigned b = 0; b < l->nblocks; b++)
        for (unsigned w = 0; w < l->warps; w++) {
            unsigned first = w * SHMEMD_WARP_SIZE, lanes = l->nthreads - first;
            pthread_barrier_init(&l->warp[b * l->warps + w], NULL,
                                 lanes < SHMEMD_WARP_SIZE ? lanes : SHMEMD_WARP_SIZE);
        }
}

void device_groups_fini(struct device_launch *l)
{
    for (size_t i = 0; i < (size_t)l->nblocks * l->warps; i++)
        pthread_barrier_destroy(&l->warp[i]);
    for (unsigned b = 0; b < l->nblocks; b++)
        free(atomic_load_explicit(&l->ub[b], memory_order_relaxed));
    free(l->warp);
    free(l->ub);
}

void shmemd_warp_sync(void)
{
    struct device_thread *t = device_thread_of("shmemd_warp_sync");
    struct device_launch *l = t->launch;
    pthread_barrier_wait(&l->warp[t->block * l->warps + t->thread / SHMEMD_WARP_SIZE]);
}
