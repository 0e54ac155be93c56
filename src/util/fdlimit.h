/*
 * The limit on open files. A PE keeps a descriptor for every segment of
 * every same-node peer (the memfds it maps), and oshrun three per PE (two
 * output pipes and the bootstrap connection), so the default soft limit of
 * 1024 runs out at about 330 PEs on a node. Both raise the soft limit to the
 * hard one, which any process may do, and check what they need up front so
 * that a job too large for the limit fails with the numbers, not with an
 * error from deep inside a transfer. Used by oshrun too: nothing here may
 * need the rest of the library.
 */
#ifndef OSHM_UTIL_FDLIMIT_H
#define OSHM_UTIL_FDLIMIT_H

/* Descriptors a PE needs besides those of its peers: its own segments, the
 * bootstrap and IPC sockets, what libc and UCX open. */
#define OSHM_FD_BASE 32

/* Descriptors a PE needs to map the segments of NLOCAL PEs on its node
 * (itself included), each with SEGS segments. */
static inline long oshm_fd_need(long nlocal, long segs) { return nlocal * segs + OSHM_FD_BASE; }

/* Raises the soft limit on open files to the hard limit. Returns the soft
 * limit in force afterwards (LONG_MAX when unlimited), -1 if it is unknown;
 * HARD, when not NULL, receives the hard limit. */
long oshm_fd_limit_raise(long *hard);

#endif
