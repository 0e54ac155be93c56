/* Symmetric memory management: same offsets everywhere, usable by peers at
 * once, alignment, calloc zeroing, realloc contents, exhaustion gives NULL.
 * Run with SHMEM_SYMMETRIC_SIZE=64M. */
#include <shmem/shmemx.h>
#include <stdint.h>
#include <string.h>

#include "check.h"

static int me, npes, next;

int main(void)
{
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    next = (me + 1) % npes;

    /* Addresses of successive allocations relative to the first are the same
     * on every PE: compare through a put of each PE's view. */
    enum { K = 40 };
    void *blocks[K];
    long *view = shmem_calloc((size_t)npes * K, sizeof(long));
    char *first = shmem_malloc(1);
    for (int i = 0; i < K; i++) {
        size_t size = (size_t)(i * 977 % 5000) + 1;
        blocks[i] = (i % 3 == 0) ? shmem_align((size_t)64 << (i % 7), size)
                                 : (i % 3 == 1) ? shmem_malloc(size) : shmem_calloc(size, 1);
        CHECK(blocks[i] != NULL, "allocation %d", i);
        if (i % 3 == 0)
            CHECK((uintptr_t)blocks[i] % ((size_t)64 << (i % 7)) == 0, "alignment %d", i);
        if (i % 3 == 2)
            for (size_t b = 0; b < size; b++)
                CHECK(((char *)blocks[i])[b] == 0, "calloc not zero at %zu", b);
        memset(blocks[i], 0xA5, size); /* dirty it for later reuse */
        if (i % 5 == 4) {
            shmem_free(blocks[i - 2]);
            blocks[i - 2] = NULL;
        }
    }
    long offs[K];
    for (int i = 0; i < K; i++)
        offs[i] = blocks[i] ? (long)((char *)blocks[i] - first) : -1;
    for (int pe = 0; pe < npes; pe++)
        shmem_long_put(view + (size_t)me * K, offs, K, pe);
    shmem_barrier_all();
    for (int pe = 0; pe < npes; pe++)
        for (int i = 0; i < K; i++)
            CHECK(view[(size_t)pe * K + i] == offs[i], "block %d at offset %ld on PE %d, %ld here",
                  i, view[(size_t)pe * K + i], pe, offs[i]);
    for (int i = 0; i < K; i++)
        if (blocks[i])
            shmem_free(blocks[i]);
    /* Mapped wherever shared memory reaches the PE; a network peer is not. */
    for (int pe = 0; pe < npes; pe++)
        CHECK((shmem_ptr(first, pe) != NULL) == (strcmp(shmemx_transport_name(pe), "shm") == 0),
              "shmem_ptr of the first block on PE %d (reached by %s)", pe,
              shmemx_transport_name(pe));

    /* A block is usable by a peer as soon as shmem_malloc returns. */
    int *fresh = shmem_malloc(1000 * sizeof(int));
    for (int i = 0; i < 1000; i++)
        shmem_int_p(&fresh[i], me, next);
    shmem_barrier_all();
    for (int i = 0; i < 1000; i++)
        CHECK(fresh[i] == (me + npes - 1) % npes, "fresh[%d] = %d", i, fresh[i]);

    /* realloc keeps the contents, grown in place or moved. */
    for (int i = 0; i < 1000; i++)
        fresh[i] = i;
    int *grown = shmem_realloc(fresh, 100000 * sizeof(int));
    CHECK(grown != NULL, "realloc");
    for (int i = 0; i < 1000; i++)
        CHECK(grown[i] == i, "realloc lost element %d", i);
    shmem_int_p(&grown[99999], 7, next);
    shmem_barrier_all();
    CHECK(grown[99999] == 7, "put into the grown block");
    int *shrunk = shmem_realloc(grown, 10 * sizeof(int));
    CHECK(shrunk == grown && shrunk[9] == 9, "shrinking moved or lost data");
    CHECK(shmem_realloc(shrunk, 0) == NULL, "realloc to 0");
    int *from_null = shmem_realloc(NULL, 64);
    CHECK(from_null != NULL, "realloc(NULL)");
    shmem_free(from_null);

    /* Most of the heap in one block, touched everywhere and reachable. */
    size_t heap = shmemx_heap_size();
    CHECK(heap == (size_t)64 << 20, "heap size %zu (SHMEM_SYMMETRIC_SIZE=64M)", heap);
    char *big = shmem_malloc(heap - (1 << 20));
    CHECK(big != NULL, "large block");
    memset(big, me, heap - (1 << 20));
    shmem_barrier_all();
    shmem_char_p(&big[heap - (1 << 20) - 1], (char)(me + 1), next);
    shmem_barrier_all();
    CHECK(big[heap - (1 << 20) - 1] == (char)((me + npes - 1) % npes + 1), "end of large block");
    /* Exhaustion is a NULL, on every PE, not a crash. */
    void *too_much = shmem_malloc(heap);
    CHECK(too_much == NULL, "allocation beyond the heap succeeded");
    CHECK(shmem_malloc(0) == NULL, "malloc(0)");
    CHECK(shmem_calloc(SIZE_MAX / 2, 4) == NULL, "calloc overflow");
    CHECK(shmem_align(3, 64) == NULL, "alignment 3");
    shmem_free(big);
    /* After freeing, the space is whole again. */
    big = shmem_malloc_with_hints(heap - (1 << 20), SHMEM_MALLOC_ATOMICS_REMOTE);
    CHECK(big != NULL, "heap not whole after free");
    shmem_free(big);
    void *old = shmalloc(16);
    CHECK(old != NULL, "shmalloc");
    old = shrealloc(old, 32);
    shfree(old);
    shmem_free(NULL);
    shmem_free(view);
    shmem_free(first);
    shmem_finalize();
    if (me == 0)
        printf("heap: %d PEs passed\n", npes);
    return 0;
}
