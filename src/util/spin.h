/*
 * Waiting on memory that another PE writes. PEs may outnumber cores, so a
 * waiter spins only briefly, then yields its core to the PE it waits for.
 */
#ifndef OSHM_UTIL_SPIN_H
#define OSHM_UTIL_SPIN_H

#include <sched.h>
#include <stdbool.h>
#include <stdint.h>

/* True when this node runs more PEs than this PE may use cores: then a
 * waiter gives its core away almost at once, since the PE it waits for may
 * need it; otherwise it spins longer for a lower wake-up latency. */
extern bool oshm_oversubscribed;

/* Set when a backend needs this PE's CPU to carry out operations that
 * target it (UCX over tcp does): every poll of a wait calls it. Returns how
 * much work it did (0: none). */
extern unsigned (*oshm_progress_hook)(void);

static inline unsigned oshm_progress(void)
{
    if (__builtin_expect(oshm_progress_hook != 0, 0))
        return oshm_progress_hook();
    return 0;
}

#define OSHM_SPIN_SHARED_CORES 2
#define OSHM_SPIN_OWN_CORE 4096

static inline void oshm_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield" ::: "memory");
#endif
}

/* Gives the core a rest: a pause at first, then yields. *count is the
 * caller's count of polls that found nothing to do; a loop that did some
 * work sets it back to 0, so that a PE serving other PEs' operations while
 * it waits keeps its core instead of yielding between them (on a busy
 * machine a yield costs the rest of a time slice). For a loop that
 * progresses by itself. */
static inline void oshm_spin_pause(uint32_t *count)
{
    if (++*count < (oshm_oversubscribed ? OSHM_SPIN_SHARED_CORES : OSHM_SPIN_OWN_CORE))
        oshm_cpu_relax();
    else
        sched_yield();
}

/* After one poll of a wait loop that did WORK (0: nothing): start the
 * count again, or pause. */
static inline void oshm_spin_after(unsigned work, uint32_t *count)
{
    if (work)
        *count = 0;
    else
        oshm_spin_pause(count);
}

/* One step of a wait loop: progress, then a pause unless it did work. */
static inline void oshm_spin_step(uint32_t *count) { oshm_spin_after(oshm_progress(), count); }

#endif
