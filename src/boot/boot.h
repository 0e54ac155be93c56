/*
 * Bootstrap: how a PE learns its rank and the job size and exchanges the
 * start-up data (keys, addresses) with the other PEs before any transport
 * exists. One interface, one implementation per launcher:
 *   - oshrun's built-in launcher (boot_launcher.c),
 *   - PMIx, when started by a PMIx launcher such as Open MPI's mpirun (boot_pmix.c),
 *   - a singleton, when the program is started directly (boot.c), unless the
 *     environment says it is one task of several launched without a way to
 *     reach the others (srun --mpi=none or pmi2, MPICH's mpiexec): then an
 *     error naming the launch that works.
 */
#ifndef OSHM_BOOT_BOOT_H
#define OSHM_BOOT_BOOT_H

#include <stddef.h>

struct oshm_boot_ops {
    const char *name;
    /* Publishes KEY=VALUE of this PE; visible to others after the next fence. */
    int (*put)(const char *key, const void *value, size_t len);
    /* Collective: every PE's earlier puts become readable by every PE. */
    int (*fence)(void);
    /* Reads KEY published by RANK; the stored value must be exactly LEN bytes. */
    int (*get)(int rank, const char *key, void *value, size_t len);
    /* Ends the whole job with STATUS; does not return. */
    void (*abort)(int status, const char *message);
    /* Tells the launcher this PE finished cleanly and releases resources. */
    void (*finalize)(void);
};

struct oshm_boot {
    const struct oshm_boot_ops *ops;
    int rank;
    int size;
};

extern struct oshm_boot oshm_boot;

/* Picks the implementation from the environment and connects. Returns 0 or
 * -1 after printing why. */
int oshm_boot_init(void);

/* Ends the whole job with STATUS through the launcher, or this process
 * alone before a bootstrap is connected. */
_Noreturn void oshm_boot_abort(int status);

/* Collective: gathers LEN bytes from every PE into ALL (size * LEN bytes),
 * built on put/fence/get. */
int oshm_boot_allgather(const void *mine, void *all, size_t len);

/* Implementations. Each returns 0 and fills oshm_boot, 1 when it does not
 * apply to this environment, or -1 on a failure it has reported. */
int oshm_boot_launcher_init(void);
int oshm_boot_pmix_init(void);

#endif
