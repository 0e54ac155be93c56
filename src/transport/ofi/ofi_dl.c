/*
 * libfabric is opened when the ofi backend opens, not linked into every
 * program: Debian's libfabric.so.1 pulls in the PSM libraries, whose
 * constructors install SIGSEGV/SIGBUS handlers that print a backtrace and
 * exit(1). Linked, they turned every crashing PE of every job into "exited
 * with status 1" (oshrun could no longer name the signal), and they cost
 * every program their start-up, even jobs on one node that never touch a
 * network. The backend calls the five exported entry points through this
 * table; everything else in libfabric's API is inline calls through the
 * objects these return.
 */
#include "transport/ofi/ofi_int.h"

#include <dlfcn.h>
#include <pthread.h>

#include "util/log.h"

struct ofi_dl ofi_dl;

#define OFI_DL_LIBRARY "libfabric.so.1"

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded = -1;

static void load(void)
{
    void *lib = dlopen(OFI_DL_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        oshm_warn("libfabric cannot be loaded (%s): install libfabric1", dlerror());
        return;
    }
    /* dlsym returns an object pointer; POSIX makes the conversion valid. */
#define OFI_DL_SYM(field, name)                                                                \
    *(void **)&ofi_dl.field = dlsym(lib, name);                                                \
    if (!ofi_dl.field) {                                                                       \
        oshm_warn("%s lacks %s: libfabric 1.17 or later is needed", OFI_DL_LIBRARY, name);     \
        return;                                                                                \
    }
    OFI_DL_SYM(getinfo, "fi_getinfo")
    OFI_DL_SYM(freeinfo, "fi_freeinfo")
    OFI_DL_SYM(dupinfo, "fi_dupinfo")
    OFI_DL_SYM(fabric, "fi_fabric")
    OFI_DL_SYM(strerror, "fi_strerror")
#undef OFI_DL_SYM
    /* Never closed: providers keep threads and handlers of their own. */
    loaded = 0;
}

int ofi_dl_open(void)
{
    pthread_once(&once, load);
    return loaded;
}
