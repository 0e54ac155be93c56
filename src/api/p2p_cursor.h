/*
 * Where the next scan of a shmem_*_test_any / wait_until_any (and vector)
 * call starts. OpenSHMEM 1.5: when element i of the wait set satisfies the
 * condition, "a series of calls ... must eventually return i". A scan that
 * always starts at 0 returns the lowest satisfied element forever, so a
 * program that polls without a status array never sees the others.
 */
#ifndef OSHM_API_P2P_CURSOR_H
#define OSHM_API_P2P_CURSOR_H

#include <stddef.h>

/* The calling thread's cursor for the series of calls to ROUTINE (one
 * string per routine and type) on IVARS: the scan starts at *cursor %
 * nelems, and sets *cursor to one past the element it returns. */
size_t *oshm_any_cursor(const void *ivars, const char *routine);

#endif
