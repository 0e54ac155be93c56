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
 *    waiting for this very core. When such a wait has gone on for a
 *    millisecond on a machine with more runnable tasks than CPUs, it
 *    sleeps instead of yielding, so that the scheduler can move a busy
 *    neighbour onto this idle core (OSHM_SPIN_SLEEP_AFTER_NS).
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

/* A PE with a core of its own whose wait has lasted long: once the long
 * stretch (from OSHM_SPIN_LONG polls on) has lasted OSHM_SPIN_SLEEP_AFTER_NS
 * and the machine has more runnable tasks than CPUs, each give-away point
 * sleeps OSHM_SPIN_SLEEP_NS (plus the kernel's timer slack, 50 us by
 * default) instead of yielding. A yield leaves the core busy, so the
 * scheduler never moves a CPU-bound neighbour off the core of the PE that
 * does the work; a core that goes idle pulls it over at once. Beside one
 * CPU-bound process, a 1 MiB put's latency was 3x slower in 9 of 32 runs
 * (the neighbour on the putting PE's core while the target PE, waiting in
 * a barrier, yielded on the other), 1 of 20 with the sleep. On a machine
 * with a core per runnable task the wait yields as before (a sleep there
 * only adds its 50-70 us to the answer); nor does it sleep when PEs
 * outnumber cores: the yield hands the core to a PE of the job already,
 * and 64 PEs on 2 cores measured slower with the sleep. */
#define OSHM_SPIN_SLEEP_AFTER_NS 1000000
#define OSHM_SPIN_SLEEP_NS 20000

/* Gives the core away at a give-away point of a long wait (COUNT polls,
 * OSHM_SPIN_LONG and on): a yield, or a sleep as above. */
void oshm_spin_long_give_away(uint32_t count);

/* Gives the core a rest after an idle poll: a pause, or a yield when the
 * policy above says so. *count is the caller's count of idle polls in a
 * row; a loop that did some work sets it back to 0. (After 2^32 polls it
 * wraps, and the wait spins one short stretch before it counts as long
 * again.) For a loop that progresses by itself. */
static inline void oshm_spin_pause(uint32_t *count)
{
    uint32_t c = ++*count;
    if (oshm_oversubscribed || oshm_spin_crowded()) {
        if (c >= OSHM_SPIN_SHARED_CORES)
            sched_yield();
        else
            oshm_cpu_relax();
    } else if (c >= OSHM_SPIN_LONG && c % OSHM_SPIN_LONG_EVERY == 0) {
        oshm_spin_long_give_away(c);
    } else {
        oshm_cpu_relax();
    }
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
