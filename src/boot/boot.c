#include "boot/boot.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "boot/kvstore.h"

struct oshm_boot oshm_boot;

/* ---- Singleton: a program started without a launcher is a 1-PE job. ---- */
static struct oshm_kvstore single_store;

static int single_put(const char *key, const void *value, size_t len)
{
    return oshm_kv_set(&single_store, 0, key, value, len);
}

static int single_fence(void) { return 0; }

static int single_get(int rank, const char *key, void *value, size_t len)
{
    return oshm_kv_get(&single_store, rank, key, value, len);
}

static void single_forget(void) { oshm_kv_forget(&single_store); }

static _Noreturn void single_abort(int status, unsigned flags, const char *message)
{
    (void)flags, (void)message;
    _exit(status);
}

static void single_finalize(void) { oshm_kv_clear(&single_store); }

static const struct oshm_boot_ops single_ops = {
    .name = "singleton",
    .put = single_put,
    .fence = single_fence,
    .get = single_get,
    .forget = single_forget,
    .abort = single_abort,
    .finalize = single_finalize,
};

/* VAR as a count above 1, or 0. */
static long many(const char *var)
{
    const char *v = getenv(var);
    long n = v ? strtol(v, NULL, 10) : 0;
    return n > 1 ? n : 0;
}

/* A process started as one task of several (by srun without PMIx, by an
 * MPICH-style PMI launcher, by mpirun without PMIx) that has no bootstrap
 * here: as a singleton it would run a 1-PE job of its own and exit 0 while
 * the user asked for N PEs. Returns -1 after saying what to run instead. */
static int refuse_lone_task(void)
{
    const char *rank = getenv("SLURM_PROCID");
    const char *mpi = getenv("SLURM_MPI_TYPE");
    long n;
    if ((n = many("SLURM_STEP_NUM_TASKS")) != 0) {
        fprintf(stderr, "shmem: this process is task %s of %ld of a Slurm job step started "
                        "with --mpi=%s, which gives it no way to reach the other tasks; run "
                        "srun --mpi=pmix (or set MpiDefault=pmix in slurm.conf)\n",
                rank ? rank : "?", n, mpi && *mpi ? mpi : "none");
        return -1;
    }
    if ((n = many("PMI_SIZE")) != 0) {
        fprintf(stderr, "shmem: this process is rank %s of %ld started through PMI-1/PMI-2 "
                        "(e.g. MPICH's mpiexec or srun --mpi=pmi2), which oshm does not speak; "
                        "run it with oshrun, Open MPI's mpirun or srun --mpi=pmix\n",
                getenv("PMI_RANK") ? getenv("PMI_RANK") : "?", n);
        return -1;
    }
    if ((n = many("OMPI_COMM_WORLD_SIZE")) != 0) {
        fprintf(stderr, "shmem: this process is rank %s of %ld started by Open MPI's mpirun "
                        "without a PMIx server; run it with oshrun, or mpirun built with PMIx\n",
                getenv("OMPI_COMM_WORLD_RANK") ? getenv("OMPI_COMM_WORLD_RANK") : "?", n);
        return -1;
    }
    return 0;
}

int oshm_boot_init(void)
{
    int rc = oshm_boot_uid_init();
    if (rc <= 0)
        return rc;
    rc = oshm_boot_launcher_init();
    if (rc <= 0)
        return rc;
    rc = oshm_boot_pmix_init();
    if (rc <= 0)
        return rc;
    if (refuse_lone_task() != 0)
        return -1;
    oshm_boot.ops = &single_ops;
    oshm_boot.rank = 0;
    oshm_boot.size = 1;
    return 0;
}

void oshm_boot_abort(int status)
{
    fflush(NULL);
    if (oshm_boot.ops)
        oshm_boot.ops->abort(status, 0, "the library gave up (see the error above)");
    _exit(status);
}

void oshm_boot_global_exit(int status)
{
    fflush(NULL);
    if (oshm_boot.ops)
        oshm_boot.ops->abort(status, OSHM_BOOT_GLOBAL_EXIT, "shmem_global_exit");
    exit(status);
}

int oshm_boot_allgather(const void *mine, void *all, size_t len)
{
    static unsigned round;
    char key[32];
    snprintf(key, sizeof key, "oshm.ag.%u", round++);
    if (oshm_boot.ops->put(key, mine, len) != 0 || oshm_boot.ops->fence() != 0)
        return -1;
    for (int r = 0; r < oshm_boot.size; r++)
        if (oshm_boot.ops->get(r, key, (char *)all + (size_t)r * len, len) != 0)
            return -1;
    return 0;
}
