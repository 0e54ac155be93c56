/*
 * Where the library is in its life: before shmem_init, running, finalized.
 * Entry points of every layer check it, so it sits below them all.
 */
#ifndef OSHM_UTIL_STATE_H
#define OSHM_UTIL_STATE_H

#include <stdbool.h>

struct oshm_state {
    bool initialized;
    bool finalized;
    int thread_level;
};

extern struct oshm_state oshm_state;

/* Stops with a clear error when ROUTINE is called outside init..finalize. */
void oshm_require_init(const char *routine);

#endif
