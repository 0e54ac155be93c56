/*
 * The limit on open files. A PE maps its peers' memory and closes the
 * descriptors (the mappings hold the pages), so its own need does not grow
 * with the job; oshrun keeps three per PE (two output pipes and the
 * bootstrap connection), so the default soft limit of 1024 runs out at
 * about 330 PEs on a node. Both raise the soft limit to the hard one, which
 * any process may do. Used by oshrun too: nothing here may need the rest of
 * the library.
 */
#ifndef OSHM_UTIL_FDLIMIT_H
#define OSHM_UTIL_FDLIMIT_H

/* Raises the soft limit on open files to the hard limit. Returns the soft
 * limit in force afterwards (LONG_MAX when unlimited), -1 if it is unknown;
 * HARD, when not NULL, receives the hard limit. */
long oshm_fd_limit_raise(long *hard);

#endif
