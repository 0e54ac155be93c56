/*
 * Bootstrap: how a PE learns its rank and the job size and exchanges the
 * start-up data (keys, addresses) with the other PEs before any transport
 * exists. One interface, one implementation per launcher:
 *   - a unique id from shmemd_get_uniqueid, for processes no launcher of
 *     ours started (boot_uid.c, boot_uid_server.c; docs/device.md),
 *   - oshrun's built-in launcher (boot_launcher.c),
 *   - PMIx, when started by a PMIx launcher such as Open MPI's mpirun (boot_pmix.c),
 *   - a singleton, when the program is started directly (boot.c), unless the
 *     environment says it is one task of several launched without a way to
 *     reach the others (srun --mpi=none or pmi2, MPICH's mpiexec): then an
 *     error naming the launch that works.
 */
#ifndef OSHM_BOOT_BOOT_H
#define OSHM_BOOT_BOOT_H

#include <stdbool.h>
#include <stddef.h>

struct oshm_boot_ops {
    const char *name;
    /* Publishes KEY=VALUE of this PE; visible to others after the next fence. */
    int (*put)(const char *key, const void *value, size_t len);
    /* Collective: every PE's earlier puts become readable by every PE. */
    int (*fence)(void);
    /* Reads KEY published by RANK; the stored value must be exactly LEN bytes. */
    int (*get)(int rank, const char *key, void *value, size_t len);
    /* Drops every value this PE holds so far (each is read once: at
     * start-up, or in a heap growth's exchange), so that a job's cards do
     * not stay in every PE for its life; NULL where the values live
     * elsewhere (PMIx's server). */
    void (*forget)(void);
    /* Keeps what the PEs published for the last fence readable until
     * finalize, past forget, where that costs this PE nothing per peer
     * until it reads one (node-shared memory read in place; PMIx's
     * server's store): 0; -1 where it would be a copy per PE (NULL:
     * never). What lets a PE reach a peer when it first needs to. */
    int (*retain)(void);
    /* Ends the whole job with STATUS; does not return. FLAGS:
     * OSHM_BOOT_GLOBAL_EXIT for the program's shmem_global_exit, which the
     * launcher reports as such (status 0 then ends the job cleanly); without
     * it, the library gives up, and the job fails even with status 0. */
    void (*abort)(int status, unsigned flags, const char *message);
    /* Tells the launcher that this PE's last shmem_finalize met the other
     * PEs' and only its local teardown remains (a launcher judging exits
     * gives a slow teardown time); NULL where the launcher has no use for it. */
    void (*teardown)(void);
    /* Tells the launcher this PE finished cleanly and releases resources. */
    void (*finalize)(void);
};

#define OSHM_BOOT_GLOBAL_EXIT 1u

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
 * alone before a bootstrap is connected: the library gives up. */
_Noreturn void oshm_boot_abort(int status);
/* The program's shmem_global_exit(STATUS). */
_Noreturn void oshm_boot_global_exit(int status);

/* Collective: gathers LEN bytes from every PE into ALL (size * LEN bytes),
 * built on put/fence/get. */
int oshm_boot_allgather(const void *mine, void *all, size_t len);

/* Implementations. Each returns 0 and fills oshm_boot, 1 when it does not
 * apply to this environment, or -1 on a failure it has reported. */
int oshm_boot_launcher_init(void);
int oshm_boot_pmix_init(void);
/* From a unique id (boot_uid.c): when oshm_boot_uid_arm was called. */
int oshm_boot_uid_init(void);

/* The launcher's protocol (boot_wire.h) to ADDR ("tcp:IP:PORT" or "@name")
 * as RANK of SIZE, proving membership with SECRET for the job JOB
 * (BOOT_WIRE_JOB_LEN bytes; NULL: whichever the server names); WHOM names
 * the other end in messages. DEFER_HELLO: the server may not run yet (it
 * is this process's, started at the first fence), which proves this PE
 * then. Makes it oshm_boot's implementation. Returns the connected socket,
 * or -1 after saying why. */
int oshm_boot_launcher_connect(const char *addr, const char *secret, const unsigned char *job,
                               int rank, int size, const char *whom, bool defer_hello);
extern const struct oshm_boot_ops oshm_boot_launcher_ops;

/* Unique-id bootstrap (docs/device.md, "Start-up without oshrun"). An id
 * is OSHM_BOOT_UID_LEN opaque bytes. */
#define OSHM_BOOT_UID_LEN 128
/* Opens rank 0's rendezvous socket, on the one address the id names, and
 * writes the id naming it, a new job id and a new secret. 0, or -1 after
 * saying why. */
int oshm_boot_uid_create(void *uid);
/* The next oshm_boot_init joins the job of UID as RANK of SIZE. 0, or -1
 * when the id is not one (message naming ROUTINE). */
int oshm_boot_uid_arm(int rank, int size, const void *uid, const char *routine);
void oshm_boot_uid_disarm(void);
/* Rank 0's rendezvous: serves SIZE members of job JOB on LISTEN_FD (non-
 * blocking), proven by SECRET, on a thread of its own (boot_uid_server.c).
 * 0 or -1. */
int oshm_boot_uid_serve(int listen_fd, int size, const char *secret, const unsigned char *job);
/* Waits until every member finalized (rank 0's finalize). */
void oshm_boot_uid_serve_wait(void);

#endif
