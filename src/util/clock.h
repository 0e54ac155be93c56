/*
 * The clocks the library reads on its own account: the monotonic clock in
 * ns, and a cheaper counter for hot paths whose rate the reader measures
 * itself.
 */
#ifndef OSHM_UTIL_CLOCK_H
#define OSHM_UTIL_CLOCK_H

#include <stdint.h>
#include <time.h>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define OSHM_CLOCK_HAVE_TSC 1
#endif

static inline uint64_t oshm_clock_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* The time stamp counter (a third of clock_gettime's cost on a KVM guest,
 * 11 against 27 ns), else the monotonic clock in ns. Its rate is not
 * known here, nor whether it ticks alike on every core: a reader measures
 * the one and does not trust the other alone. */
static inline uint64_t oshm_ticks(void)
{
#ifdef OSHM_CLOCK_HAVE_TSC
    return __rdtsc();
#else
    return oshm_clock_ns();
#endif
}

#endif
