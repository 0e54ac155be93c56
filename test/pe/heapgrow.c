/* Symmetric memory that grows: every new block is reachable by every PE at
 * once, at both ends, by puts, gets and AMOs, and one transfer may span
 * memory backed at different times. Over a network backend each growth is
 * a new registration whose keys reach the peers during the allocation, so
 * this is the test of that path. Run with SHMEM_SYMMETRIC_SIZE=256M. */
#include <shmem.h>
#include <shmemx.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

enum { NBLOCKS = 5 };
static const size_t sizes[NBLOCKS] = {(size_t)1 << 20, (size_t)3 << 20, (size_t)7 << 20,
                                      (size_t)17 << 20, (size_t)33 << 20};

static long pattern(int pe, int block, size_t i) { return (long)pe << 40 | (long)block << 32 | (long)i; }

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes(), next = (me + 1) % npes,
        prev = (me + npes - 1) % npes;
    char *blocks[NBLOCKS];
    size_t committed = shmemx_heap_committed();
    for (int b = 0; b < NBLOCKS; b++) {
        blocks[b] = shmem_malloc(sizes[b]);
        CHECK(blocks[b] != NULL, "block %d of %zu bytes", b, sizes[b]);
        size_t now = shmemx_heap_committed();
        CHECK(now >= committed, "backed heap shrank from %zu to %zu", committed, now);
        committed = now;
        /* The first and last words of the new block, written by the
         * previous PE the moment the allocation returns. */
        long *words = (long *)blocks[b];
        size_t n = sizes[b] / sizeof(long);
        long head = pattern(me, b, 0), tail = pattern(me, b, n - 1);
        shmem_long_p(&words[0], head, next);
        shmem_long_p(&words[n - 1], tail, next);
        shmem_long_atomic_add(&words[n - 2], 1 + me, next);
        shmem_barrier_all();
        CHECK(words[0] == pattern(prev, b, 0), "block %d head %lx", b, (unsigned long)words[0]);
        CHECK(words[n - 1] == pattern(prev, b, n - 1), "block %d tail %lx", b,
              (unsigned long)words[n - 1]);
        CHECK(shmem_long_atomic_fetch(&words[n - 2], me) == 1 + prev, "block %d AMO word %ld", b,
              words[n - 2]);
        CHECK(shmem_long_g(&words[n - 1], next) == pattern(me, b, n - 1), "block %d get of tail",
              b);
        shmem_barrier_all();
    }

    /* One put and one get over every block at once: whatever ranges the
     * memory was registered in, the transfer covers them all. */
    size_t span = (size_t)(blocks[NBLOCKS - 1] + sizes[NBLOCKS - 1] - blocks[0]);
    long *all = (long *)blocks[0];
    size_t n = span / sizeof(long);
    long *src = malloc(span), *back = malloc(span);
    CHECK(src && back, "out of memory");
    for (size_t i = 0; i < n; i++)
        src[i] = pattern(me, 9, i);
    shmem_long_put(all, src, n, next);
    shmem_barrier_all();
    for (size_t i = 0; i < n; i += 4093)
        CHECK(all[i] == pattern(prev, 9, i), "spanning put: word %zu is %lx", i,
              (unsigned long)all[i]);
    CHECK(all[n - 1] == pattern(prev, 9, n - 1), "spanning put: last word");
    shmem_long_get(back, all, n, next);
    CHECK(memcmp(back, src, span) == 0, "spanning get differs from what was put there");
    /* A strided put whose elements lie in every block. */
    shmem_barrier_all();
    ptrdiff_t stride = (ptrdiff_t)(n / 64);
    shmem_long_iput(all, src, stride, 1, 64, next);
    shmem_barrier_all();
    for (int i = 0; i < 64; i++)
        CHECK(all[(size_t)i * (size_t)stride] == pattern(prev, 9, (size_t)i), "strided element %d",
              i);
    shmem_barrier_all();
    free(src);
    free(back);
    for (int b = NBLOCKS - 1; b >= 0; b--)
        shmem_free(blocks[b]);
    if (me == 0)
        printf("heapgrow: %d PEs passed (%zu bytes backed)\n", npes, committed);
    shmem_finalize();
    return 0;
}
