#include "api/api.h"
#include <shmem/shmem.h>
#include <shmem/shmemx.h>
#include <string.h>

#include "hcomm/hcomm.h"
#include "heap/heap.h"
#include "util/env.h"
#include "util/state.h"

/* Before shmem_init there is no PE number to give: OpenSHMEM 1.5 states
 * none, and a -1 used as a PE or an index fails later and obscurely, so
 * these say so and end the PE like every other routine. After
 * shmem_finalize they still answer: programs print their PE number on the
 * way out, and Sandia OpenSHMEM and Open MPI's OSHMEM both keep answering. */
static inline void require_started(const char *routine)
{
    if (__builtin_expect(!oshm_state.initialized, 0))
        oshm_not_running(routine);
}

OSHM_FN(int, shmem_my_pe, (void))
{
    require_started("shmem_my_pe");
    return hcomm.my_pe;
}
OSHM_FN(int, shmem_n_pes, (void))
{
    require_started("shmem_n_pes");
    return hcomm.n_pes;
}
OSHM_FN(int, _my_pe, (void))
{
    require_started("_my_pe");
    return hcomm.my_pe;
}
OSHM_FN(int, _num_pes, (void))
{
    require_started("_num_pes");
    return hcomm.n_pes;
}

OSHM_FN(int, shmem_pe_accessible, (int pe))
{
    oshm_require_init("shmem_pe_accessible");
    return pe >= 0 && pe < hcomm.n_pes && hcomm.eps[pe].rma_ops != NULL;
}

OSHM_FN(int, shmem_addr_accessible, (const void *addr, int pe))
{
    oshm_require_init("shmem_addr_accessible");
    return shmem_pe_accessible(pe) && hcomm_seg_of(addr, 1) >= 0;
}

OSHM_FN(void *, shmem_ptr, (const void *dest, int pe))
{
    oshm_require_init("shmem_ptr");
    if (pe < 0 || pe >= hcomm.n_pes)
        return NULL;
    return hcomm_ptr(dest, pe, "shmem_ptr");
}

/* Any time, any thread: one load of the word every entry point tests. */
OSHM_FN(void, shmem_query_initialized, (int *initialized))
{
    *initialized = __atomic_load_n(&oshm_state.running, __ATOMIC_ACQUIRE) ? 1 : 0;
}

OSHM_FN(void, shmem_info_get_version, (int *major, int *minor))
{
    *major = SHMEM_MAJOR_VERSION;
    *minor = SHMEM_MINOR_VERSION;
}

OSHM_FN(void, shmem_info_get_name, (char *name))
{
    strncpy(name, SHMEM_VENDOR_STRING, SHMEM_MAX_NAME_LEN - 1);
    name[SHMEM_MAX_NAME_LEN - 1] = '\0';
}

OSHM_FN(size_t, shmemx_heap_size, (void)) { return oshm_env.symmetric_size; }

OSHM_FN(size_t, shmemx_heap_committed, (void)) { return oshm_heap.committed; }

OSHM_FN(const char *, shmemx_transport_name, (int pe))
{
    if (!oshm_state.initialized || oshm_state.finalized || pe < 0 || pe >= hcomm.n_pes)
        return NULL;
    return hcomm_backend_name(pe);
}
