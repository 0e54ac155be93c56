/*
 * Process-wide state of the library between shmem_init and shmem_finalize.
 */
#ifndef OSHM_CORE_RUNTIME_H
#define OSHM_CORE_RUNTIME_H

#include <stdbool.h>

#include "team/barrier.h"

struct oshm_runtime {
    bool initialized;
    bool finalized;
    int thread_level;
    struct oshm_pe_set world; /* the PEs of SHMEM_TEAM_WORLD and its sync words */
};

extern struct oshm_runtime oshm_rt;

/* Ends the job with STATUS through the launcher (or exits a lone PE). */
_Noreturn void oshm_runtime_abort(int status);
/* Stops with a clear error when ROUTINE is called outside init..finalize. */
void oshm_require_init(const char *routine);
/* Barrier over all PEs without completing outstanding puts. */
void oshm_sync_world(void);

/* Bytes of symmetric heap the library keeps for itself. */
#define OSHM_INTERNAL_HEAP_SIZE ((size_t)1 << 20)

#endif
