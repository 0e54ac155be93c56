/*
 * Bootstrap through PMIx, for programs started by a PMIx launcher (Open MPI's
 * mpirun, srun --mpi=pmix, prun).
 */
#include "boot/boot.h"
#include "util/env.h"

#include <stdlib.h>

#ifdef OSHM_HAVE_PMIX
#include <pmix.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "util/dl.h"
#include "util/spin.h"

/* libpmix (with libevent, hwloc and munge: about 3.5 ms of CPU a process
 * before `main`) is opened only when a PMIx launcher started the PE; oshrun's
 * PEs never load it. The calls below, and those in pmix.h's macros, read
 * these pointers (a name defined as itself is not expanded again). */
#define PMIX_DL_FUNCS(X)                                                                       \
    X(PMIx_Abort)                                                                              \
    X(PMIx_Commit)                                                                             \
    X(PMIx_Error_string)                                                                       \
    X(PMIx_Fence)                                                                              \
    X(PMIx_Fence_nb)                                                                           \
    X(PMIx_Finalize)                                                                           \
    X(PMIx_Get)                                                                                \
    X(PMIx_Info_load)                                                                          \
    X(PMIx_Init)                                                                               \
    X(PMIx_Put)                                                                                \
    X(PMIx_Value_destruct)

static struct {
#define PMIX_DL_MEMBER(f) __typeof__(f) *f;
    PMIX_DL_FUNCS(PMIX_DL_MEMBER)
#undef PMIX_DL_MEMBER
} pmix_dl;

#define PMIX_DL_LIBRARY "libpmix.so.2"

static int pmix_dl_open(void)
{
    static bool loaded;
    if (loaded)
        return 0;
    void *lib = oshm_dl_open(PMIX_DL_LIBRARY, OSHM_PMIX_LIBDIR, "libpmix2");
    if (!lib)
        return -1;
#define PMIX_DL_SYM(f)                                                                         \
    if (oshm_dl_sym(lib, PMIX_DL_LIBRARY, #f, &pmix_dl.f, "PMIx 4") != 0)                      \
        return -1;
    PMIX_DL_FUNCS(PMIX_DL_SYM)
#undef PMIX_DL_SYM
    loaded = true;
    return 0;
}

#define PMIx_Abort pmix_dl.PMIx_Abort
#define PMIx_Commit pmix_dl.PMIx_Commit
#define PMIx_Error_string pmix_dl.PMIx_Error_string
#define PMIx_Fence pmix_dl.PMIx_Fence
#define PMIx_Fence_nb pmix_dl.PMIx_Fence_nb
#define PMIx_Finalize pmix_dl.PMIx_Finalize
#define PMIx_Get pmix_dl.PMIx_Get
#define PMIx_Info_load pmix_dl.PMIx_Info_load
#define PMIx_Init pmix_dl.PMIx_Init
#define PMIx_Put pmix_dl.PMIx_Put
#define PMIx_Value_destruct pmix_dl.PMIx_Value_destruct

static pmix_proc_t myproc;

/* OpenSHMEM 1.6 lets a program finalize and initialize again. The PMIx
 * connection is not closed between lives: a launcher's PMIx server may count
 * a client that called PMIx_Finalize out of a fence until it connects again,
 * so a PE quick to start its next life could have its fence complete without
 * a slower peer's data. PMIx is finalized once, at exit; each life names its
 * keys apart, so that no value of an earlier life is ever read. */
static bool connected;
static unsigned life;

static void life_key(char *out, size_t len, const char *key)
{
    snprintf(out, len, "oshm%u/%s", life, key);
}

static int pmix_boot_put(const char *key, const void *value, size_t len)
{
    char k[PMIX_MAX_KEYLEN + 1];
    life_key(k, sizeof k, key);
    pmix_value_t v;
    v.type = PMIX_BYTE_OBJECT;
    v.data.bo.bytes = (char *)value;
    v.data.bo.size = len;
    return PMIx_Put(PMIX_GLOBAL, k, &v) == PMIX_SUCCESS ? 0 : -1;
}

struct fence_wait {
    atomic_int done;
    pmix_status_t status;
};

static void fence_done(pmix_status_t status, void *cbdata)
{
    struct fence_wait *w = cbdata;
    w->status = status;
    atomic_store_explicit(&w->done, 1, memory_order_release);
}

static int pmix_boot_fence(void)
{
    if (PMIx_Commit() != PMIX_SUCCESS)
        return -1;
    pmix_info_t info;
    bool collect = true;
    PMIX_INFO_CONSTRUCT(&info);
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
    pmix_status_t rc;
    if (!oshm_progress_hook) {
        rc = PMIx_Fence(NULL, 0, &info, 1);
    } else {
        /* Other PEs may need this PE's transport to complete what they
         * started before they join the fence: progress it meanwhile. */
        struct fence_wait w = {.done = 0, .status = PMIX_SUCCESS};
        rc = PMIx_Fence_nb(NULL, 0, &info, 1, fence_done, &w);
        uint32_t spins = 0;
        if (rc == PMIX_SUCCESS) {
            while (!atomic_load_explicit(&w.done, memory_order_acquire))
                oshm_spin_step(&spins);
            rc = w.status;
        }
    }
    PMIX_INFO_DESTRUCT(&info);
    return rc == PMIX_SUCCESS ? 0 : -1;
}

static int pmix_boot_get(int rank, const char *key, void *value, size_t len)
{
    pmix_proc_t proc;
    PMIX_PROC_CONSTRUCT(&proc);
    PMIX_LOAD_NSPACE(proc.nspace, myproc.nspace);
    proc.rank = (pmix_rank_t)rank;
    char k[PMIX_MAX_KEYLEN + 1];
    life_key(k, sizeof k, key);
    pmix_value_t *v = NULL;
    if (PMIx_Get(&proc, k, NULL, 0, &v) != PMIX_SUCCESS || !v)
        return -1;
    int rc = -1;
    if (v->type == PMIX_BYTE_OBJECT && v->data.bo.size == len) {
        memcpy(value, v->data.bo.bytes, len);
        rc = 0;
    }
    PMIX_VALUE_RELEASE(v);
    return rc;
}

/* The values stay in the PMIx server's store (shared memory on this node)
 * for the job's life: a peer's card read when the PE first needs it costs
 * nothing before, so same-node peers are connected on first use. */
static int pmix_boot_retain(void) { return 0; }

static _Noreturn void pmix_boot_abort(int status, unsigned flags, const char *message)
{
    (void)flags;
    PMIx_Abort(status, message ? message : "shmem_global_exit", NULL, 0);
    _exit(status ? status : 1);
}

/* The end of a life: the next one, if any, names its keys apart. */
static void pmix_boot_finalize(void) { life++; }

static void pmix_at_exit(void)
{
    if (connected)
        PMIx_Finalize(NULL, 0);
    connected = false;
}

static const struct oshm_boot_ops pmix_ops = {
    .name = "pmix",
    .put = pmix_boot_put,
    .fence = pmix_boot_fence,
    .get = pmix_boot_get,
    .retain = pmix_boot_retain,
    .abort = pmix_boot_abort,
    .finalize = pmix_boot_finalize,
};

int oshm_boot_pmix_init(void)
{
    if (!oshm_env.pmix_namespace && !oshm_env.pmix_rank)
        return 1;
    if (!connected) {
        if (pmix_dl_open() != 0)
            return -1;
        pmix_status_t rc = PMIx_Init(&myproc, NULL, 0);
        if (rc != PMIX_SUCCESS) {
            fprintf(stderr, "shmem: PMIx_Init failed: %s\n", PMIx_Error_string(rc));
            return -1;
        }
        connected = true;
        atexit(pmix_at_exit);
    }
    pmix_proc_t wildcard;
    PMIX_PROC_CONSTRUCT(&wildcard);
    PMIX_LOAD_NSPACE(wildcard.nspace, myproc.nspace);
    wildcard.rank = PMIX_RANK_WILDCARD;
    pmix_value_t *v = NULL;
    if (PMIx_Get(&wildcard, PMIX_JOB_SIZE, NULL, 0, &v) != PMIX_SUCCESS || !v) {
        fprintf(stderr, "shmem: PMIx did not give the job size\n");
        return -1;
    }
    uint32_t size = v->data.uint32;
    PMIX_VALUE_RELEASE(v);
    oshm_boot.ops = &pmix_ops;
    oshm_boot.rank = (int)myproc.rank;
    oshm_boot.size = (int)size;
    return 0;
}

#else /* !OSHM_HAVE_PMIX */
#include <stdio.h>

int oshm_boot_pmix_init(void)
{
    if (!oshm_env.pmix_namespace && !oshm_env.pmix_rank)
        return 1;
    fputs("shmem: started by a PMIx launcher, but this build has no PMIx support\n", stderr);
    return -1;
}

#endif
