#include "api/api.h"
#include <shmem/shmem.h>

#include "core/runtime.h"

OSHM_FN(void, shmem_barrier_all, (void))
{
    oshm_require_init("shmem_barrier_all");
    shmem_quiet();
    oshm_sync_world();
}

OSHM_FN(void, shmem_sync_all, (void))
{
    oshm_require_init("shmem_sync_all");
    oshm_sync_world();
}
