#include "util/state.h"

#include "util/log.h"

struct oshm_state oshm_state;

void oshm_require_init(const char *routine)
{
    if (!oshm_state.initialized || oshm_state.finalized)
        oshm_fatal("%s called %s", routine,
                   oshm_state.finalized ? "after shmem_finalize" : "before shmem_init");
}
