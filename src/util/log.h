/*
 * Diagnostics. Every message names the PE so that output forwarded from many
 * processes can be told apart.
 */
#ifndef OSHM_UTIL_LOG_H
#define OSHM_UTIL_LOG_H

#include <stdarg.h>
#include <stdatomic.h>

/* Prints "shmem[PE n]: error: ..." and ends the whole job through the abort
 * hook. */
_Noreturn void oshm_fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints "shmem[PE n]: warning: ...". */
void oshm_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints when SHMEM_DEBUG is set. */
void oshm_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* oshm_debug once per call site in a process: the choice of an algorithm,
 * say, which a program makes at each of thousands of calls. After the first
 * it costs a relaxed load. */
#define OSHM_DEBUG_ONCE(...)                                                                      \
    do {                                                                                          \
        static atomic_bool said_;                                                                 \
        if (!atomic_load_explicit(&said_, memory_order_relaxed) &&                                \
            !atomic_exchange_explicit(&said_, true, memory_order_relaxed))                        \
            oshm_debug(__VA_ARGS__);                                                              \
    } while (0)

/* The PE number to print, -1 before the bootstrap knows it. */
void oshm_log_set_pe(int pe);

/* How oshm_fatal ends the job. Logging sits below the bootstrap, which alone
 * can end the other PEs too, so the bootstrap's abort is handed down here at
 * start-up. Until then (or should the hook return) a fatal error flushes and
 * ends this process only. */
void oshm_log_set_abort(void (*abort_job)(int status));

#endif
