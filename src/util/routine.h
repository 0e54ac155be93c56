/*
 * The library routine a thread is in, for the fault handler's message
 * (src/core/fault.c): a load or store that faults inside shmem_putmem is the
 * program's bad argument, one outside is the program's own access, and the
 * message should say which. Set on entry to and cleared on return from the
 * routines that touch other PEs' memory (RMA, AMOs, signals) and those that
 * wait for other PEs (barriers, collectives, waits, quiet). The bootstrap's
 * watcher thread reads the record of the thread that called shmem_init for
 * its heartbeats (boot/boot_launcher.c): what a PE was doing when its job
 * ran too long or it stopped answering. Atomic for that reader; relaxed,
 * the store is a plain one.
 */
#ifndef OSHM_UTIL_ROUTINE_H
#define OSHM_UTIL_ROUTINE_H

#include <stdatomic.h>
#include <stddef.h>

/* Initial-exec: a plain %fs-relative store, no __tls_get_addr call. */
extern _Thread_local _Atomic(const char *) oshm_routine __attribute__((tls_model("initial-exec")));

static inline void oshm_routine_enter(const char *name)
{
    atomic_store_explicit(&oshm_routine, name, memory_order_relaxed);
    /* Only a signal handler of this thread reads it: a compiler barrier
     * keeps the store before the routine's accesses. */
    atomic_signal_fence(memory_order_seq_cst);
}

static inline void oshm_routine_leave(void)
{
    atomic_signal_fence(memory_order_seq_cst);
    atomic_store_explicit(&oshm_routine, NULL, memory_order_relaxed);
}

/* A routine that waits for other PEs and may call others that record
 * themselves (a collective's puts): records NAME unless one is recorded
 * already, and returns what oshm_routine_restore puts back. */
static inline const char *oshm_routine_wait_enter(const char *name)
{
    const char *was = atomic_load_explicit(&oshm_routine, memory_order_relaxed);
    if (!was)
        oshm_routine_enter(name);
    return was;
}

static inline void oshm_routine_restore(const char *was)
{
    atomic_signal_fence(memory_order_seq_cst);
    atomic_store_explicit(&oshm_routine, was, memory_order_relaxed);
}

#endif
