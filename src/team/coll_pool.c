#include "team/coll.h"

#include <stdlib.h>

#include "util/log.h"

/* One pool per thread: threads of a THREAD_MULTIPLE program may run
 * collectives on different teams at once. It only grows, so a program that
 * repeats a call of one size allocates once; it lives as long as the thread
 * (a few calls' worth of memory, not worth a destructor). */
static _Thread_local void *pool;
static _Thread_local size_t pool_bytes;

void *oshm_coll_scratch(size_t bytes, const char *routine)
{
    if (bytes <= pool_bytes)
        return pool;
    /* Round up to a power of two (at least a page) so that a series of
     * growing calls reallocates O(log) times. */
    size_t want = 4096;
    while (want < bytes)
        want <<= 1;
    void *p = NULL;
    if (posix_memalign(&p, 64, want) != 0)
        oshm_fatal("%s: out of memory for %zu bytes of scratch space", routine, want);
    free(pool);
    pool = p;
    pool_bytes = want;
    return pool;
}
