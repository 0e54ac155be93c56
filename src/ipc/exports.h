/*
 * The export table as the service consults it (internal to src/ipc).
 */
#ifndef OSHM_IPC_EXPORTS_H
#define OSHM_IPC_EXPORTS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* Whether PID was ever allowed to import from this process (until
 * ipc_fini): the processes of the job. Anyone else is turned away on this
 * before a byte of theirs is read. An unexport does not end membership, so a
 * member asking for a withdrawn export hears ENOENT, not EPERM. */
bool ipc_exports_member(pid_t pid);

/* Answers PID's request for export ID: 0 with *FD a new descriptor that the
 * caller closes, or an errno value (ENOENT: no such export; EPERM: PID may
 * not import it; another: no descriptor to spare). */
int ipc_exports_take(uint32_t id, pid_t pid, int *fd);

#endif
