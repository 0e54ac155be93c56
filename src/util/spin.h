/*
 * Waiting on memory that another PE writes: when to spin, when to yield.
 *
 * The policy (docs/performance.md, "Waiting") decides from what start-up
 * knows and from how long the wait has lasted:
 *  - Each PE has a core of its own (the node runs no more PEs than the
 *    cores its PEs may use): spin. A yield would gain nothing for the PE
 *    waited for, which runs elsewhere, and on a machine with other busy
 *    processes it hands the core to one of them for a whole time slice
 *    (milliseconds) while the answer arrives in microseconds. Only a wait
 *    that has lasted long (OSHM_SPIN_LONG polls, about a time slice)
 *    yields now and then: the PE waited for is not running, and may be
 *    waiting for this very core.
 *  - PEs outnumber cores: the PE waited for may need this core, so yield
 *    after OSHM_SPIN_SHARED_CORES idle polls.
 *  - Threads of its own outnumber the PE's share of the cores: a kernel on
 *    the simulated device runs one host thread per device thread, and
 *    those (and the PE's host thread waiting for the kernel) compete with
 *    each other and with the engines that carry their operations. Then a
 *    wait yields as when PEs outnumber cores. (A 50 us sleep every 16
 *    polls after 256 measured no better than yielding; docs/device.md.)
 * A poll that did work (served a peer's operation) starts the count again,
 * so a PE that serves others while it waits keeps its core.
 */
#ifndef OSHM_UTIL_SPIN_H
#define OSHM_UTIL_SPIN_H

#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* True when this node runs more PEs than its PEs may use cores
 * (sched_getaffinity), on any node of the job: the same on every PE, so
 * algorithms may depend on it (team/barrier.c). Set once at start-up. */
extern bool oshm_oversubscribed;

/* Runnable threads this PE runs besides its own (the device's kernel
 * threads; src/device counts them), and the cores one PE may count on
 * (its affinity shared among the PEs of its node; at least 1). */
extern _Atomic unsigned oshm_spin_extra_threads;
extern _Atomic unsigned oshm_spin_pe_cores;

/* Adds N (negative: removes) runnable threads of this PE. */
static inline void oshm_spin_threads_add(int n)
{
    atomic_fetch_add_explicit(&oshm_spin_extra_threads, (unsigned)n, memory_order_relaxed);
}

/* True when this PE's runnable threads outnumber its cores. */
static inline bool oshm_spin_crowded(void)
{
    unsigned extra = atomic_load_explicit(&oshm_spin_extra_threads, memory_order_relaxed);
    return extra &&
           1 + extra > atomic_load_explicit(&oshm_spin_pe_cores, memory_order_relaxed);
}

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

/* PEs outnumber cores: idle polls before each yield. */
#define OSHM_SPIN_SHARED_CORES 2
/* A core of its own: idle polls after which a wait counts as long (a pause
 * takes some 10-140 cycles, so 2^14 of them are some 0.1 to 1 ms, about a
 * scheduler time slice), and from then on one yield every
 * OSHM_SPIN_LONG_EVERY polls. A wait that long means the PE waited for is
 * not running: when nothing else shares this core the yield returns at
 * once, and when something does (the PE waited for, on a machine loaded
 * by others) it gets the core now rather than at the end of this slice. */
#define OSHM_SPIN_LONG (UINT32_C(1) << 14)
#define OSHM_SPIN_LONG_EVERY 64u

static inline void oshm_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield" ::: "memory");
#endif
}

/* True when the poll numbered COUNT (1, 2, ... idle polls in a row) should
 * give the core away rather than pause. */
static inline bool oshm_spin_should_yield(uint32_t count)
{
    if (oshm_oversubscribed || oshm_spin_crowded())
        return count >= OSHM_SPIN_SHARED_CORES;
    return count >= OSHM_SPIN_LONG && count % OSHM_SPIN_LONG_EVERY == 0;
}

/* Gives the core a rest after an idle poll: a pause, or a yield when the
 * policy above says so. *count is the caller's count of idle polls in a
 * row; a loop that did some work sets it back to 0. (After 2^32 polls it
 * wraps, and the wait spins one short stretch before it counts as long
 * again.) For a loop that progresses by itself. */
static inline void oshm_spin_pause(uint32_t *count)
{
    if (oshm_spin_should_yield(++*count))
        sched_yield();
    else
        oshm_cpu_relax();
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
