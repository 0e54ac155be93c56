/* The backends this build has, in the order hcomm prefers them: init hands
 * them to hcomm, which never names one. */
#include "core/backends.h"

#include "transport/shm/shm.h"
#ifdef OSHM_HAVE_UCX
#include "transport/ucx/ucx.h"
#endif
#ifdef OSHM_HAVE_OFI
#include "transport/ofi/ofi.h"
#endif

const struct backend_ops *const oshm_builtin_backends[] = {
    &shm_backend,
#ifdef OSHM_HAVE_UCX
    &ucx_backend,
#endif
#ifdef OSHM_HAVE_OFI
    &ofi_backend,
#endif
    NULL,
};
