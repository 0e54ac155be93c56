/* shmem_align gives addresses aligned to every power of two up to the heap
 * size (SHMEM_SYMMETRIC_SIZE, set by the test), at the same offset on every
 * PE; a larger alignment is refused by every PE alike. */
#include <stdint.h>
#include <stdlib.h>

#include "check.h"

/* Each PE's offset of the aligned block from a reference allocation,
 * gathered on every PE by puts. */
static long offsets[64];

static void check_block(char *p, char *ref, size_t align, size_t size)
{
    int me = shmem_my_pe(), n = shmem_n_pes();
    CHECK(p != NULL, "shmem_align(%zu, %zu) failed", align, size);
    CHECK((uintptr_t)p % align == 0, "shmem_align(%zu, %zu) = %p is misaligned by %zu", align,
          size, (void *)p, (size_t)((uintptr_t)p % align));
    /* Symmetry: every PE's block lies at the same offset from the
     * reference allocation. */
    long off = (long)(p - ref);
    for (int pe = 0; pe < n; pe++)
        shmem_long_p(&offsets[me], off, pe);
    shmem_barrier_all();
    for (int pe = 0; pe < n; pe++)
        CHECK(offsets[pe] == off, "align %zu: PE %d's block is at offset %ld, this PE's at %ld",
              align, pe, offsets[pe], off);
    /* And a put to the block lands in the right place at both ends. */
    int next = (me + 1) % n, prev = (me + n - 1) % n;
    shmem_long_p((long *)p, 1000 + me, next);
    shmem_long_p((long *)(p + size - sizeof(long)), 2000 + me, next);
    shmem_barrier_all();
    CHECK(*(long *)p == 1000 + prev, "align %zu: first word %ld, want %d", align, *(long *)p,
          1000 + prev);
    CHECK(*(long *)(p + size - sizeof(long)) == 2000 + prev, "align %zu: last word %ld, want %d",
          align, *(long *)(p + size - sizeof(long)), 2000 + prev);
    shmem_barrier_all();
}

int main(void)
{
    shmem_init();
    CHECK(shmem_n_pes() <= 64, "at most 64 PEs");
    const char *env = getenv("SHMEM_SYMMETRIC_SIZE");
    CHECK(env != NULL, "the test sets SHMEM_SYMMETRIC_SIZE");
    size_t heap = shmemx_heap_size();
    CHECK((heap & (heap - 1)) == 0, "SHMEM_SYMMETRIC_SIZE=%s is not a power of two", env);

    char *ref = shmem_malloc(64);
    CHECK(ref != NULL, "shmem_malloc(64)");
    int tried = 0;
    for (size_t align = 4096; align <= heap; align *= 2) {
        /* A small block, then one as large as the alignment (the whole heap
         * at the end). */
        char *p = shmem_align(align, 1000);
        check_block(p, ref, align, 1000);
        shmem_free(p);
        p = shmem_align(align, align);
        check_block(p, ref, align, align);
        shmem_free(p);
        tried++;
    }
    CHECK(tried >= 14, "only %d alignments tried", tried);

    /* Beyond the heap no PE can promise the same offset: NULL everywhere. */
    void *big = shmem_align(heap * 2, 1000);
    CHECK(big == NULL, "shmem_align(%zu, 1000) = %p in a heap of %zu", heap * 2, big, heap);
    shmem_free(ref);
    if (shmem_my_pe() == 0)
        printf("align: %d alignments up to %zu passed\n", tried, heap);
    shmem_finalize();
    return 0;
}
