/* The built-in profiler with threads and contexts (test/profile_test.sh):
 * under SHMEM_THREAD_MULTIPLE two threads of each PE each create a private
 * context, put 100 8-byte values to the right neighbour through it, quiet
 * and destroy it; every call counts once, on the calling thread's track. */
#include <pthread.h>
#include <shmem.h>

#include "check.h"

#define PUTS 100
static long slots[2][PUTS];

static void *worker(void *arg)
{
    int t = (int)(long)arg, me = shmem_my_pe(), right = (me + 1) % shmem_n_pes();
    shmem_ctx_t ctx;
    CHECK(shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx) == 0, "thread %d: shmem_ctx_create", t);
    for (long i = 0; i < PUTS; i++)
        shmem_ctx_long_p(ctx, &slots[t][i], me * 1000 + i, right);
    shmem_ctx_quiet(ctx);
    shmem_ctx_destroy(ctx);
    return NULL;
}

int main(void)
{
    int provided;
    CHECK(shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided) == 0 &&
              provided == SHMEM_THREAD_MULTIPLE, "SHMEM_THREAD_MULTIPLE");
    pthread_t th[2];
    for (long t = 0; t < 2; t++)
        CHECK(pthread_create(&th[t], NULL, worker, (void *)t) == 0, "pthread_create");
    for (int t = 0; t < 2; t++)
        pthread_join(th[t], NULL);
    shmem_barrier_all();
    int left = (shmem_my_pe() + shmem_n_pes() - 1) % shmem_n_pes();
    for (int t = 0; t < 2; t++)
        for (long i = 0; i < PUTS; i++)
            CHECK(slots[t][i] == left * 1000 + i, "slot %d %ld: %ld", t, i, slots[t][i]);
    shmem_finalize();
    return 0;
}
