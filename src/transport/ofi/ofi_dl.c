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
#include <signal.h>
#include <stdlib.h>

#include "util/dl.h"
#include "util/log.h"

struct ofi_dl ofi_dl;

#define OFI_DL_LIBRARY "libfabric.so.1"

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded = -1;

/* The PSM providers' handlers are installed when libfabric is loaded and
 * when it first initialises its providers (in fi_getinfo, and fi_fabric
 * for some): each of these steps keeps the process's own handlers of the
 * fatal signals, so a PE that crashes still dies of its signal (oshrun
 * names it) instead of printing a backtrace and exiting 1, or hanging in
 * the provider's handler, as a PE killed on another node of a job once
 * did once SHMEM_TRANSPORT=auto asked libfabric which providers it has. */
static const int fatal_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
#define N_FATAL (sizeof fatal_signals / sizeof *fatal_signals)

struct fatal_handlers {
    struct sigaction sa[N_FATAL];
};

static void fatal_save(struct fatal_handlers *h)
{
    for (size_t i = 0; i < N_FATAL; i++)
        sigaction(fatal_signals[i], NULL, &h->sa[i]);
}

static void fatal_restore(const struct fatal_handlers *h)
{
    for (size_t i = 0; i < N_FATAL; i++)
        sigaction(fatal_signals[i], &h->sa[i], NULL);
}

static int (*real_getinfo)(uint32_t, const char *, const char *, uint64_t, const struct fi_info *,
                           struct fi_info **);
static int (*real_fabric)(struct fi_fabric_attr *, struct fid_fabric **, void *);

static int guarded_getinfo(uint32_t version, const char *node, const char *service, uint64_t flags,
                           const struct fi_info *hints, struct fi_info **info)
{
    struct fatal_handlers h;
    fatal_save(&h);
    int rc = real_getinfo(version, node, service, flags, hints, info);
    fatal_restore(&h);
    return rc;
}

static int guarded_fabric(struct fi_fabric_attr *attr, struct fid_fabric **fabric, void *context)
{
    struct fatal_handlers h;
    fatal_save(&h);
    int rc = real_fabric(attr, fabric, context);
    fatal_restore(&h);
    return rc;
}

/* tcp;ofi_rxm makes a connection on the first operation to a peer, and two
 * of its defaults made that slow (docs/progress.md, "libfabric's first
 * connection"). It gives each connection a pool of receive buffers of
 * FI_OFI_RXM_BUFFER_SIZE, set up in full when the connection is made: with
 * its 16 KiB a connection took 50 ms here, the first barrier of a 2-PE job
 * 150 ms (1 KiB: 50 ms); this backend sends rxm only atomics (tens of
 * bytes) through those buffers, RMA goes to the tcp endpoint directly, and
 * put, get and AMO latency and bandwidth measured the same. And it looks
 * at its connection events only every FI_OFI_RXM_CM_PROGRESS_INTERVAL us
 * of completion queue reads (10 ms): the first put to 3 peers took 26-38
 * ms, 1.4-8 ms at 1 ms. And every endpoint (one per context) clears
 * queues sized by FI_OFI_RXM_MSG_TX_SIZE and _RX_SIZE when it is enabled:
 * 12 MB of calloc and some 250 ms an endpoint with rxm's defaults, 3 MB at
 * 32 (16 contexts created four times over at 4 PEs: 15-18 s of it, 3.4-4 s
 * at 32). 32 operations in flight per connection keep tcp busy. A value
 * the user set stays. Read by libfabric when it first initialises its
 * providers (the first fi_getinfo). */
#define OFI_RXM_BUFFER_SIZE "1024"
#define OFI_RXM_CM_PROGRESS_INTERVAL_US "1000"
#define OFI_RXM_MSG_QUEUE "32"

static void load(void)
{
    (void)setenv("FI_OFI_RXM_BUFFER_SIZE", OFI_RXM_BUFFER_SIZE, 0);
    (void)setenv("FI_OFI_RXM_CM_PROGRESS_INTERVAL", OFI_RXM_CM_PROGRESS_INTERVAL_US, 0);
    (void)setenv("FI_OFI_RXM_MSG_TX_SIZE", OFI_RXM_MSG_QUEUE, 0);
    (void)setenv("FI_OFI_RXM_MSG_RX_SIZE", OFI_RXM_MSG_QUEUE, 0);
    struct fatal_handlers h;
    fatal_save(&h);
    void *lib = dlopen(OFI_DL_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    fatal_restore(&h);
    if (!lib) {
        oshm_warn("libfabric cannot be loaded (%s): install libfabric1", dlerror());
        return;
    }
#define OFI_DL_SYM(field, name)                                                                \
    if (oshm_dl_sym(lib, OFI_DL_LIBRARY, name, &ofi_dl.field, "libfabric 1.17") != 0)          \
        return;
    OFI_DL_SYM(getinfo, "fi_getinfo")
    OFI_DL_SYM(freeinfo, "fi_freeinfo")
    OFI_DL_SYM(dupinfo, "fi_dupinfo")
    OFI_DL_SYM(fabric, "fi_fabric")
    OFI_DL_SYM(strerror, "fi_strerror")
#undef OFI_DL_SYM
    real_getinfo = ofi_dl.getinfo;
    real_fabric = ofi_dl.fabric;
    ofi_dl.getinfo = guarded_getinfo;
    ofi_dl.fabric = guarded_fabric;
    /* Never closed: providers keep threads and handlers of their own. */
    loaded = 0;
}

int ofi_dl_open(void)
{
    pthread_once(&once, load);
    return loaded;
}
