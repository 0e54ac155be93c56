/*
 * What the device's synchronization routines (amo.c, wait.c, team.c,
 * coll*.c) share: checked posting of engine descriptors, and values as the
 * bit patterns AMO descriptors carry.
 */
#ifndef OSHM_DEVICE_DSYNC_H
#define OSHM_DEVICE_DSYNC_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "device/device.h"
#include "hcomm/hcomm.h"
#include "util/spin.h"

/* One step of a device thread's wait loop. The simulated device's threads
 * (kernel threads, engines, the host waiting for the stream) outnumber the
 * cores even when the PEs do not, and the engine a waiter depends on needs
 * a core: give it away after a short spin, as the oversubscribed policy
 * does. */
#define DSYNC_SPINS 64u
static inline void dsync_spin(uint32_t *count)
{
    if (oshm_progress()) {
        *count = 0;
    } else if (++*count >= DSYNC_SPINS) {
        *count = 0;
        sched_yield();
    } else {
        oshm_cpu_relax();
    }
}

/* Checks now what the engine would otherwise find out later, on another
 * thread, with the kernel long gone on. */
static inline void dsync_check(const void *addr, size_t len, int pe, const char *routine)
{
    if ((unsigned)pe >= (unsigned)hcomm.n_pes)
        hcomm_bad_pe(pe, routine);
    if (len && hcomm_seg_of(addr, len) < 0)
        hcomm_bad_addr(addr, len, pe, routine);
}

/* engine_wait with the device waiter's spin policy: every descriptor T
 * posted has completed. */
static inline void dsync_wait(struct device_thread *t)
{
    uint64_t want = atomic_load_explicit(&t->ops.posted, memory_order_relaxed);
    uint32_t spins = 0;
    while (atomic_load_explicit(&t->ops.completed, memory_order_acquire) < want)
        dsync_spin(&spins);
}

/* Posts D counted on T's own counter. */
static inline void dsync_post(struct device_thread *t, struct engine_desc d)
{
    d.done = &t->ops;
    engine_post(&d);
}

static inline uint64_t dsync_to_bits(const void *v, size_t size)
{
    if (size == 4) {
        uint32_t w;
        memcpy(&w, v, 4);
        return w;
    }
    uint64_t w;
    memcpy(&w, v, 8);
    return w;
}

static inline void dsync_from_bits(void *v, uint64_t bits, size_t size)
{
    if (size == 4) {
        uint32_t w = (uint32_t)bits;
        memcpy(v, &w, 4);
    } else {
        memcpy(v, &bits, 8);
    }
}

#endif
