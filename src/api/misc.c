/*
 * Deprecated cache management (memory is coherent: nothing to do) and the
 * profiling control hook, which the built-in profiler (SHMEM_PROFILE)
 * listens to: level 0 pauses it, any other level resumes it.
 */
#include "api/api.h"
#include "util/prof.h"

OSHM_FN(void, shmem_clear_cache_inv, (void)) {}
OSHM_FN(void, shmem_set_cache_inv, (void)) {}
OSHM_FN(void, shmem_clear_cache_line_inv, (void *dest)) { (void)dest; }
OSHM_FN(void, shmem_set_cache_line_inv, (void *dest)) { (void)dest; }
OSHM_FN(void, shmem_udcflush, (void)) {}
OSHM_FN(void, shmem_udcflush_line, (void *dest)) { (void)dest; }
OSHM_FN(void, shmem_pcontrol, (const int level, ...)) { oshm_prof_listen(level != 0); }
