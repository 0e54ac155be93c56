/*
 * The library routine a thread is in, for the fault handler's message
 * (src/core/fault.c): a load or store that faults inside shmem_putmem is the
 * program's bad argument, one outside is the program's own access, and the
 * message should say which. Set on entry to and cleared on return from the
 * routines that touch other PEs' memory (RMA, AMOs, signals).
 */
#ifndef OSHM_UTIL_ROUTINE_H
#define OSHM_UTIL_ROUTINE_H

#include <stdatomic.h>
#include <stddef.h>

/* Initial-exec: a plain %fs-relative store, no __tls_get_addr call. */
extern _Thread_local const char *oshm_routine __attribute__((tls_model("initial-exec")));

static inline void oshm_routine_enter(const char *name)
{
    oshm_routine = name;
    /* Only a signal handler of this thread reads it: a compiler barrier
     * keeps the store before the routine's accesses. */
    atomic_signal_fence(memory_order_seq_cst);
}

static inline void oshm_routine_leave(void)
{
    atomic_signal_fence(memory_order_seq_cst);
    oshm_routine = NULL;
}

#endif
