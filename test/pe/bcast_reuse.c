/*
 * Active-set broadcasts called back to back, as programs written for
 * OpenSHMEM 1.4 call them: two pSync arrays and two dest arrays taken in
 * turn, no barrier in between while the root stays the same, and the root
 * changing its source as soon as a call returns. From the specification's
 * words (shmem_broadcast, 1.4 and later):
 *  - on return the source may be reused: every receiver gets the value the
 *    root's source held during its call, never the next round's;
 *  - on return a receiver's dest holds the data, and the root's dest is
 *    left as it was;
 *  - on return the local pSync holds its original values again (every PE,
 *    the root included; the array of this call: the root may already be
 *    using the other one).
 * The switch of roots, and of the active set, happens after a barrier: the
 * rules let a pSync array be reused only once every collective that used it
 * has completed on every PE.
 *
 * Sizes: 8 B to the push/pull boundary (8 KiB) and above it. The thread
 * level comes from argv[1]: "single", "multiple" (the root then waits for
 * its receivers in the call), or "mixed" (odd PEs multiple, even single:
 * each receiver must acknowledge where its root expects it).
 */
#include <stdlib.h>

#include "check.h"

#define ROUNDS 300
#define MAX_LONGS 4096 /* 32 KiB */

static long psync[2][SHMEM_BCAST_SYNC_SIZE];
static long src[MAX_LONGS], dst[2][MAX_LONGS];

static int me, npes;

static long value(int round, int root, size_t i)
{
    return (long)round * 1000003L + (long)root * 7919L + (long)i;
}

/* The array this call used; the other one the root may already be using
 * for the next call. */
static void check_psync(int round, int k)
{
    for (int i = 0; i < SHMEM_BCAST_SYNC_SIZE; i++)
        CHECK(psync[k][i] == SHMEM_SYNC_VALUE, "round %d: pSync[%d][%d] = %ld after return", round,
              k, i, psync[k][i]);
}

/* Before the barrier that precedes a stretch: the root may write our dest
 * as soon as it has left that barrier. */
static void reset_dest(void)
{
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < MAX_LONGS; i++)
            dst[k][i] = -1;
}

/* One stretch: ROUNDS broadcasts of NLONGS from ROOT (index in the set
 * start, 2^log_stride, size), no barrier between them. */
static void stretch(int start, int log_stride, int size, int root, size_t nlongs)
{
    int stride = 1 << log_stride;
    int idx = (me - start) % stride == 0 ? (me - start) / stride : -1;
    if (me < start || idx < 0 || idx >= size)
        return;
    int root_pe = start + root * stride;
    for (size_t i = 0; i < nlongs; i++)
        src[i] = value(0, root_pe, i);
    for (int round = 0; round < ROUNDS; round++) {
        int k = round & 1;
        shmem_broadcast64(dst[k], src, nlongs, root, start, log_stride, size, psync[k]);
        if (me == root_pe) {
            /* The source is ours again: the next round's values at once. */
            for (size_t i = 0; i < nlongs; i++)
                src[i] = value(round + 1, root_pe, i);
            CHECK(dst[k][0] == -1 && dst[k][nlongs - 1] == -1,
                  "round %d: the root's dest was written", round);
        } else {
            for (size_t i = 0; i < nlongs; i += 1 + nlongs / 64)
                CHECK(dst[k][i] == value(round, root_pe, i),
                      "round %d, %zu longs from PE %d: dest[%zu] = %ld, want %ld", round, nlongs,
                      root_pe, i, dst[k][i], value(round, root_pe, i));
            CHECK(dst[k][nlongs - 1] == value(round, root_pe, nlongs - 1),
                  "round %d: last element %ld", round, dst[k][nlongs - 1]);
        }
        check_psync(round, k);
    }
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "single";
    int want = SHMEM_THREAD_SINGLE, got;
    if (strcmp(mode, "multiple") == 0)
        want = SHMEM_THREAD_MULTIPLE;
    /* PE numbers are not known before init: the launcher's rank is. */
    const char *rank = getenv("OSHRUN_RANK");
    if (!rank)
        rank = getenv("PMIX_RANK");
    if (strcmp(mode, "mixed") == 0 && rank && atoi(rank) % 2)
        want = SHMEM_THREAD_MULTIPLE;
    CHECK(shmem_init_thread(want, &got) == 0 && got >= want, "init_thread %d", want);
    me = shmem_my_pe();
    npes = shmem_n_pes();
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < SHMEM_BCAST_SYNC_SIZE; i++)
            psync[k][i] = SHMEM_SYNC_VALUE;
    reset_dest();
    shmem_barrier_all();

    static const size_t sizes[] = {1, 16, 1024, 2048};
    const int roots[] = {0, npes - 1, npes / 2};
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
        for (int r = 0; r < 3; r++) {
            if ((r == 1 && roots[1] == 0) || (r == 2 && (roots[2] == 0 || roots[2] == npes - 1)))
                continue;
            stretch(0, 0, npes, roots[r], sizes[s]);
            reset_dest();
            shmem_barrier_all();
        }
    /* A strided set that leaves PE 0 out, its last member the root. */
    if (npes >= 4) {
        stretch(1, 1, npes / 2, npes / 2 - 1, 16);
        reset_dest();
        shmem_barrier_all();
    }
    if (me == 0)
        printf("bcast_reuse %s: %d PEs passed\n", mode, npes);
    shmem_finalize();
    return 0;
}
