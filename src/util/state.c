#include "util/state.h"

#include "util/log.h"
#include "util/prof.h"

struct oshm_state oshm_state;

void oshm_not_running(const char *routine)
{
    /* Without the library's state there is nothing the routine could do
     * but crash later, far from the cause (a freed table after finalize, a
     * PE count of 0 before init). */
    if (oshm_state.finalized)
        oshm_fatal("%s: the OpenSHMEM library is finalized: no routine may be called after "
                   "shmem_finalize", routine);
    oshm_fatal("%s: the OpenSHMEM library is not initialized: call shmem_init first", routine);
}

void oshm_state_update(void)
{
    __atomic_store_n(&oshm_state.fast, oshm_state.running && !oshm_prof.active,
                     __ATOMIC_RELAXED);
}
