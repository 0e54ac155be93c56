/*
 * Bulk copies into and out of mapped peer memory.
 *
 * glibc chooses its memcpy routine by size and CPU. On AMD CPUs it stops
 * using `rep movsb` above the core's L2 size and copies with vector loops
 * instead; on the EPYC (Zen 5) machines this project is measured on, that
 * made copies of 1 MiB to 32 MiB 5-15% slower than `rep movsb`
 * (docs/performance.md, "Large copies"). oshm_copy takes `rep movsb` for
 * those sizes on CPUs that have fast string moves (ERMS) from AMD or Hygon,
 * and glibc's memcpy everywhere else: on Intel glibc already uses
 * `rep movsb` up to its non-temporal threshold, and above OSHM_COPY_MOVSB_MAX
 * glibc's non-temporal stores beat it. Sanitizer builds keep memcpy, which
 * the sanitizers check.
 */
#ifndef OSHM_UTIL_COPY_H
#define OSHM_UTIL_COPY_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#define OSHM_COPY_MOVSB_MIN ((size_t)256 << 10)
#define OSHM_COPY_MOVSB_MAX ((size_t)64 << 20)

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define OSHM_COPY_CHECKED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) ||                   \
    __has_feature(memory_sanitizer)
#define OSHM_COPY_CHECKED 1
#endif
#endif

/* Whether this CPU gets `rep movsb` for large copies; decided once, when
 * the library is loaded. */
extern bool oshm_copy_movsb;

static inline void oshm_copy(void *dst, const void *src, size_t n)
{
#if defined(__x86_64__) && !defined(OSHM_COPY_CHECKED)
    if (n >= OSHM_COPY_MOVSB_MIN && n < OSHM_COPY_MOVSB_MAX && oshm_copy_movsb) {
        __asm__ volatile("rep movsb" : "+D"(dst), "+S"(src), "+c"(n) : : "memory");
        return;
    }
#endif
    memcpy(dst, src, n);
}

#endif
