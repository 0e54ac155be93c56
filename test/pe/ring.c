/* The ring: each PE puts to the next one, into a global and into the heap. */
#include "check.h"

#define N 64
long ring_global[N];

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    int next = (me + 1) % n, prev = (me + n - 1) % n;
    long *ring_heap = shmem_malloc(N * sizeof(long));
    long src[N];
    for (int round = 0; round < 10; round++) {
        for (int i = 0; i < N; i++)
            src[i] = me * 100000L + round * 1000L + i;
        shmem_long_put(ring_global, src, N, next);
        shmem_long_put(ring_heap, src, N, next);
        shmem_barrier_all();
        for (int i = 0; i < N; i++) {
            long want = prev * 100000L + round * 1000L + i;
            CHECK(ring_global[i] == want, "global[%d] = %ld, want %ld", i, ring_global[i], want);
            CHECK(ring_heap[i] == want, "heap[%d] = %ld, want %ld", i, ring_heap[i], want);
        }
        shmem_barrier_all();
    }
    shmem_free(ring_heap);
    shmem_finalize();
    if (me == 0)
        printf("ring: %d PEs passed\n", n);
    return 0;
}
