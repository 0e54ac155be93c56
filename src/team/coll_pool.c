#include "team/coll.h"

#include <pthread.h>
#include <stdlib.h>

#include "util/log.h"

/* One pool per thread: threads of a THREAD_MULTIPLE program may run
 * collectives on different teams at once. It only grows, so a program that
 * repeats a call of one size allocates once. A thread's pool is freed when
 * the thread ends (the key's destructor). */
static _Thread_local void *pool;
static _Thread_local size_t pool_bytes;
static pthread_key_t pool_key;
static pthread_once_t pool_once = PTHREAD_ONCE_INIT;

static void make_key(void)
{
    if (pthread_key_create(&pool_key, free) != 0)
        oshm_fatal("collectives: no thread-specific key for scratch space");
}

void *oshm_coll_scratch(size_t bytes, const char *routine)
{
    if (bytes <= pool_bytes)
        return pool;
    pthread_once(&pool_once, make_key);
    /* A power of two (at least a page), so that a series of growing calls
     * reallocates O(log) times. */
    size_t want = 4096;
    while (want < bytes)
        want <<= 1;
    void *p = NULL;
    if (posix_memalign(&p, 64, want) != 0)
        oshm_fatal("%s: out of memory for %zu bytes of scratch space", routine, want);
    free(pool);
    pool = p;
    pool_bytes = want;
    pthread_setspecific(pool_key, p);
    return pool;
}
