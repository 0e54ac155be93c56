/* Loading UCP at run time (ucx_dl.h says why). */
#define UCX_DL_DEFINING
#include "transport/ucx/ucx_dl.h"

#include <pthread.h>

#include "util/dl.h"

struct ucx_dl ucx_dl;

/* libucp's soname since UCX 1.0; dlsym on its handle finds the symbols of
 * its dependencies (libucs) too. */
#define UCX_DL_LIBRARY "libucp.so.0"

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded = -1;

static void load(void)
{
    void *lib = oshm_dl_open(UCX_DL_LIBRARY, OSHM_UCX_LIBDIR, "libucx0");
    if (!lib)
        return;
#define UCX_DL_SYM(f)                                                                          \
    if (oshm_dl_sym(lib, UCX_DL_LIBRARY, #f, &ucx_dl.f, "UCX 1.10") != 0)                      \
        return;
    UCX_DL_FUNCS(UCX_DL_SYM)
#undef UCX_DL_SYM
    loaded = 0;
}

int ucx_dl_open(void)
{
    pthread_once(&once, load);
    return loaded;
}
