/*
 * Diagnostics. Every message names the PE so that output forwarded from many
 * processes can be told apart.
 */
#ifndef OSHM_CORE_LOG_H
#define OSHM_CORE_LOG_H

#include <stdarg.h>

/* Prints "shmem[PE n]: error: ..." and ends the whole job (global exit). */
_Noreturn void oshm_fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints "shmem[PE n]: warning: ...". */
void oshm_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints when SHMEM_DEBUG is set. */
void oshm_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The PE number to print, -1 before the bootstrap knows it. */
void oshm_log_set_pe(int pe);

#endif
