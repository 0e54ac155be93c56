/*
 * Where the library is in its life: before shmem_init, running, finalized.
 * Entry points of every layer check it, so it sits below them all.
 */
#ifndef OSHM_UTIL_STATE_H
#define OSHM_UTIL_STATE_H

#include <stdbool.h>

struct oshm_state {
    /* shmem_init was called once; finalized: the last finalize since. */
    bool initialized;
    bool finalized;
    /* initialized && !finalized: the one word every entry point tests, so
     * that the check is a load and a branch predicted taken. */
    bool running;
    /* running, and no profiler listening (util/prof.h): the word the
     * hottest routines test on entry instead, so that the profiler costs
     * them nothing while off. oshm_state_update sets it. */
    bool fast;
    /* shmem_finalize was called by the library at exit: the program
     * returned or called exit() without calling it (the launcher says so
     * when that finalize did not meet the other PEs'). */
    bool finalize_at_exit;
    int thread_level;
    /* Inits not yet matched by a finalize: only the last finalize of a
     * series releases anything (OpenSHMEM 1.6). */
    unsigned init_depth;
};

extern struct oshm_state oshm_state;

/* Says that ROUTINE was called before shmem_init or after shmem_finalize,
 * and ends this PE. */
_Noreturn void oshm_not_running(const char *routine);

/* Stops with a clear error when ROUTINE is called outside init..finalize. */
static inline void oshm_require_init(const char *routine)
{
    if (__builtin_expect(!oshm_state.running, 0))
        oshm_not_running(routine);
}

/* Sets fast after running or the profiler changed. */
void oshm_state_update(void);

/* The hottest routines' entry test: true on their fast path; false sends
 * them to their slow path, which checks the state (oshm_require_init) and
 * profiles. A plain load, like running's: the compiler folds it into one
 * compare with memory, where an atomic load takes two instructions. Only
 * shmem_pcontrol changes it while the library runs, and a program that
 * calls it while other threads make calls gets those calls profiled or not,
 * as they fall. */
static inline bool oshm_fast(void) { return __builtin_expect(oshm_state.fast, 1); }

#endif
