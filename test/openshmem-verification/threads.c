/* 9.2 Thread support and 9.11 memory ordering: SHMEM_THREAD_MULTIPLE with
 * threads issuing RMA and AMOs at once; fence orders puts to one PE; quiet
 * completes them. */
#include <pthread.h>

#include "vv.h"

#define THREADS 4
#define PER_THREAD 500

static long *counter;
static long *slots;

static void *worker(void *arg)
{
    int t = (int)(long)arg, me = VV_ME, n = VV_NPES;
    shmem_ctx_t ctx;
    if (shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx) != 0)
        ctx = SHMEM_CTX_DEFAULT;
    for (int i = 0; i < PER_THREAD; i++) {
        shmem_long_atomic_inc(counter, i % n);
        shmem_ctx_long_p(ctx, &slots[(me * THREADS + t)], i + 1, (me + 1) % n);
    }
    shmem_ctx_quiet(ctx);
    if (ctx != SHMEM_CTX_DEFAULT)
        shmem_ctx_destroy(ctx);
    return NULL;
}

int main(void)
{
    int provided;
    if (shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided) != 0)
        return 1;
    int me = VV_ME, n = VV_NPES;
    VV_CHECK(provided == SHMEM_THREAD_MULTIPLE, "provided %d", provided);
    counter = shmem_calloc(1, sizeof(long));
    slots = shmem_calloc((size_t)n * THREADS, sizeof(long));
    pthread_t th[THREADS];
    for (long t = 0; t < THREADS; t++)
        pthread_create(&th[t], NULL, worker, (void *)t);
    for (int t = 0; t < THREADS; t++)
        pthread_join(th[t], NULL);
    shmem_barrier_all();
    long want = 0;
    for (int p = 0; p < n; p++)
        for (int i = 0; i < PER_THREAD; i++)
            want += (i % n == me) * THREADS;
    VV_CHECK(*counter == want, "counter %ld want %ld", *counter, want);
    int prev = (me + n - 1) % n;
    for (int t = 0; t < THREADS; t++)
        VV_CHECK(slots[prev * THREADS + t] == PER_THREAD, "thread %d's last put", t);
    vv_case_end("9.2", "SHMEM_THREAD_MULTIPLE", "rma amo ctx");

    /* fence: data then flag to the same PE; whoever sees the flag sees the data. */
    static long data[256], flag;
    long src[256];
    for (int round = 1; round <= 50; round++) {
        for (int i = 0; i < 256; i++)
            src[i] = round * 1000 + i;
        shmem_long_put(data, src, 256, (me + 1) % n);
        shmem_fence();
        shmem_long_atomic_set(&flag, round, (me + 1) % n);
        shmem_long_wait_until(&flag, SHMEM_CMP_GE, round);
        VV_CHECK(data[255] == round * 1000 + 255 || flag > round, "round %d: flag before data", round);
        shmem_barrier_all();
    }
    /* quiet: after it, a get sees every put issued before. */
    for (int i = 0; i < 256; i++)
        src[i] = -i;
    shmem_long_put_nbi(data, src, 256, (me + 1) % n);
    shmem_quiet();
    long back[256];
    shmem_long_get(back, data, 256, (me + 1) % n);
    VV_CHECK(back[255] == -255, "quiet did not complete the put");
    shmem_barrier_all();
    vv_case_end("9.11", "fence and quiet", "long");
    shmem_free(counter);
    shmem_free(slots);
    return vv_finish("9.2 9.11");
}
