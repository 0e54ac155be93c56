/*
 * Diagnostics. Every message names the PE so that output forwarded from many
 * processes can be told apart.
 */
#ifndef OSHM_UTIL_LOG_H
#define OSHM_UTIL_LOG_H

#include <stdarg.h>

/* Prints "shmem[PE n]: error: ..." and ends the whole job through the abort
 * hook. */
_Noreturn void oshm_fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints "shmem[PE n]: warning: ...". */
void oshm_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints when SHMEM_DEBUG is set. */
void oshm_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The PE number to print, -1 before the bootstrap knows it. */
void oshm_log_set_pe(int pe);

/* How oshm_fatal ends the job. Logging sits below the bootstrap, which alone
 * can end the other PEs too, so the bootstrap's abort is handed down here at
 * start-up. Until then (or should the hook return) a fatal error flushes and
 * ends this process only. */
void oshm_log_set_abort(void (*abort_job)(int status));

#endif
