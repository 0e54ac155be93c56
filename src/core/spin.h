/*
 * Waiting on memory that another PE writes. PEs may outnumber cores, so a
 * waiter spins only briefly, then yields its core to the PE it waits for.
 */
#ifndef OSHM_CORE_SPIN_H
#define OSHM_CORE_SPIN_H

#include <sched.h>
#include <stdbool.h>
#include <stdint.h>

#define OSHM_SPIN_BEFORE_YIELD 128

/* True when this node runs more PEs than this PE may use cores. */
extern bool oshm_oversubscribed;

static inline void oshm_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield" ::: "memory");
#endif
}

/* One step of a wait loop; *count is the caller's iteration counter. */
static inline void oshm_spin_step(uint32_t *count)
{
    if (++*count < OSHM_SPIN_BEFORE_YIELD)
        oshm_cpu_relax();
    else
        sched_yield();
}

#endif
