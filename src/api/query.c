#include "api/api.h"
#include <shmem/shmem.h>
#include <shmem/shmemx.h>
#include <string.h>

#include "hcomm/hcomm.h"
#include "heap/heap.h"
#include "util/env.h"
#include "util/state.h"

/* Outside init..finalize there is no PE number to give: OpenSHMEM 1.5
 * states none (1.6 adds shmem_query_initialized for asking), and a -1 used
 * as a PE or an index fails later and obscurely. Like every other routine,
 * these say so and end the PE (Sandia OpenSHMEM does the same). */
OSHM_FN(int, shmem_my_pe, (void))
{
    oshm_require_init("shmem_my_pe");
    return hcomm.my_pe;
}
OSHM_FN(int, shmem_n_pes, (void))
{
    oshm_require_init("shmem_n_pes");
    return hcomm.n_pes;
}
OSHM_FN(int, _my_pe, (void))
{
    oshm_require_init("_my_pe");
    return hcomm.my_pe;
}
OSHM_FN(int, _num_pes, (void))
{
    oshm_require_init("_num_pes");
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
