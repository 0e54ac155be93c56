/*
 * Sharing an existing allocation with other processes on the same node.
 *
 * The owner exports a vmm handle to a list of process IDs and gets a key;
 * the key travels by any means (the bootstrap). An importer presents the key
 * to the owner's service socket; the owner checks the importer's PID (kernel
 * credentials of the socket, not a claim) against the list and only then
 * passes the descriptor (SCM_RIGHTS). A process not on the list gets EPERM.
 *
 * The socket is open to anyone on the node (src/ipc/wire.h), so the service
 * turns away a process never listed, or of another user, before reading a
 * byte of it; serves many importers at once, each under a deadline; and
 * stops (ipc_fini) without waiting on any peer. Refusals are logged with
 * the peer's PID under SHMEM_DEBUG.
 *
 * Order of release: importers unmap, then close their handle; the owner
 * unexports (no new imports), then destroys its handle. The pages live as
 * long as any mapping does, so no order of exit can leave a dangling map.
 */
#ifndef OSHM_IPC_H
#define OSHM_IPC_H

#include <stdint.h>
#include <sys/types.h>

#include "vmm/vmm.h"

#define IPC_SERVER_NAME_LEN 48

struct ipc_key {
    int32_t owner_pid;
    uint32_t id;
    uint64_t size;
    uint32_t kind;                    /* enum vmm_kind of the memory */
    char server[IPC_SERVER_NAME_LEN]; /* abstract socket name of the owner */
    /* Set by ipc_export_direct: the owner's descriptor of the memory and the
     * file it must be (a number may be reused once the export is gone). */
    int32_t direct_fd; /* 0: import through the service only */
    uint64_t direct_dev, direct_ino;
};

/* Starts this process's export service (idempotent). */
int ipc_init(void);
/* Stops the service and forgets all exports. */
void ipc_fini(void);

/* Allows the processes in PIDS to import H; fills KEY. */
int ipc_export(const struct vmm_handle *h, const pid_t *pids, int npids, struct ipc_key *key);
/* Lets KEY be imported without the owner's service: the importer reopens
 * the owner's descriptor through /proc, which the kernel allows only to a
 * process that may already read the owner's memory (same user, ptrace
 * permitted). No round trip, no owner thread to wake, so a node of N PEs
 * maps its N^2 segments at the cost of an open each. For memory that the
 * owner's user may read anyway; where the kernel refuses (another user,
 * Yama, a seccomp filter), the import falls back to the service and its
 * list of PIDs. */
int ipc_export_direct(struct ipc_key *key);
/* Adds PIDS to the processes allowed to import an existing export. */
int ipc_export_allow(const struct ipc_key *key, const pid_t *pids, int npids);
/* Stops further imports of KEY; existing imports are unaffected. */
int ipc_unexport(const struct ipc_key *key);

/* Obtains the handle behind KEY from its owner. Fails with errno EPERM when
 * this process is not allowed, ENOENT when the export is gone. */
int ipc_import(const struct ipc_key *key, struct vmm_handle *h);
/* Imports KEY and maps all of it at a newly reserved local address. H keeps
 * the size and kind; its descriptor is closed once mapped (the mapping holds
 * the pages), so a mapped peer costs no open file. */
void *ipc_map(const struct ipc_key *key, struct vmm_handle *h);
/* Unmaps what ipc_map mapped and forgets the handle. */
void ipc_unmap(void *va, struct vmm_handle *h);

/* A mapping ipc_map made, for ipc_unmap_all. */
struct ipc_mapping {
    void *va;
    size_t size;
};

/* Unmaps the N mappings of M (ipc_map's, each whole; M is reordered) with
 * as few system calls as their places allow: mappings that lie end to end
 * go in one call. Each unmapping interrupts every other CPU that ran the
 * process to flush its TLB (tens of microseconds on a VM), and a PE that
 * reached 500 peers paid one for each at finalize; the kernel places
 * successive mappings next to each other, so most go in one. */
void ipc_unmap_all(struct ipc_mapping *m, size_t n);

#endif
