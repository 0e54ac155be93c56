/*
 * Collectives that may leave before their peers are done with this PE's
 * memory (src/team/coll_deferred.c), called back to back.
 *
 * Broadcasts, active sets, as programs written for OpenSHMEM 1.4 call them: two pSync arrays and two dest arrays taken in
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
 * Sizes: 8 B to the push/pull boundary (8 KiB) and above it.
 *
 * Reductions (sum of longs, 1 to 300 elements: the staged sizes and one
 * above), back to back with no barrier: active sets alternating two pSync
 * arrays (and, for 1 and 16 elements, one pSync and pWrk for every call),
 * SHMEM_TEAM_WORLD and a strided team; in place and not; every PE
 * changes its source as soon as a call returns, and the values change
 * every round, so a PE that combined a peer's next source, or a staged
 * copy overwritten early, gives a wrong sum.
 *
 * Collects (shmem_collect64 and shmem_long_collect, PE p giving its own
 * number of longs), back to back with no barrier, every fourth followed by
 * a 16- or 2-long sum on its own pSync arrays: blocks all small (staged, under 2
 * KiB), all above 2 KiB (lent from source) and mixed in one call; dest
 * alternating, source changed as soon as a call returns, values changing
 * every round. The collect must place each PE's block at the sum of the
 * sizes before it, hold this round's values, and write nothing past the
 * last block.
 *
 * The thread level comes from argv[1]: "single", "multiple" (the root then waits for
 * its receivers in the call), or "mixed" (odd PEs multiple, even single:
 * each receiver must acknowledge where its root expects it).
 */
#include <stdbool.h>
#include <stdlib.h>

#include "check.h"

#define ROUNDS 300
#define GATHER_ROUNDS 64 /* per shape and set: 12 kinds of call */
#define MAX_LONGS 4096 /* 32 KiB */

static long psync[2][SHMEM_REDUCE_SYNC_SIZE], psync_sum[2][SHMEM_REDUCE_SYNC_SIZE];
static long pwrk[2][SHMEM_REDUCE_MIN_WRKDATA_SIZE + 300];
static long src[MAX_LONGS], dst[2][MAX_LONGS], sum_src[16], sum_dst[16];

static int me, npes;

static long value(int round, int root, size_t i)
{
    return (long)round * 1000003L + (long)root * 7919L + (long)i;
}

/* The array this call used; the other one the root may already be using
 * for the next call. */
static void check_psync(int round, int k)
{
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
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

static long term(int round, int pe, size_t i)
{
    return (long)round * 131L + (long)pe * 17L + (long)i;
}

/* Whether this PE belongs to TEAM when it is valid (then *START, *STRIDE
 * and *SIZE become its world PEs), else to the set they name. */
static bool member(shmem_team_t team, int *start, int *stride, int *size)
{
    if (team == SHMEM_TEAM_INVALID)
        return me >= *start && (me - *start) % *stride == 0 && (me - *start) / *stride < *size;
    if (shmem_team_my_pe(team) < 0)
        return false;
    *start = shmem_team_translate_pe(team, 0, SHMEM_TEAM_WORLD);
    *size = shmem_team_n_pes(team);
    *stride = *size > 1 ? shmem_team_translate_pe(team, 1, SHMEM_TEAM_WORLD) - *start : 1;
    return true;
}

/* ROUNDS sums of NELEMS over the set (start, 2^log_stride, size), or over
 * TEAM when it is valid; IN_PLACE: dest is source. ONE: an active set's
 * calls all take the first pSync and pWrk, as programs do for small sums
 * although the specification asks for a barrier before each reuse; a
 * partner may then be one call ahead and its signals land in this PE's
 * pSync after this call returned, so the pSync is not checked. */
static void sums(shmem_team_t team, int start, int log_stride, int size, size_t nelems,
                 int in_place, bool one)
{
    int stride = 1 << log_stride;
    if (!member(team, &start, &stride, &size))
        return;
    long *source = src, *dest = in_place ? src : dst[0];
    for (size_t i = 0; i < nelems; i++)
        source[i] = term(0, me, i);
    for (int round = 0; round < ROUNDS; round++) {
        int k = one ? 0 : round & 1;
        if (team != SHMEM_TEAM_INVALID)
            CHECK(shmem_long_sum_reduce(team, dest, source, nelems) == 0, "sum_reduce");
        else
            shmem_long_sum_to_all(dest, source, (int)nelems, start, log_stride, size, pwrk[k],
                                  psync[k]);
        for (size_t i = 0; i < nelems; i += 1 + nelems / 16) {
            long want = 0;
            for (int j = 0; j < size; j++)
                want += term(round, start + j * stride, i);
            CHECK(dest[i] == want, "round %d, sum of %zu over %d+%d*k<%d%s%s: [%zu] = %ld, want %ld",
                  round, nelems, start, stride, size, team != SHMEM_TEAM_INVALID ? " (team)" : "",
                  in_place ? " in place" : "", i, dest[i], want);
        }
        for (size_t i = 0; i < nelems; i++)
            source[i] = term(round + 1, me, i);
        if (team == SHMEM_TEAM_INVALID && !one)
            check_psync(round, k);
    }
}

/* How many longs PE gives to a collect of SHAPE: all staged, odd PEs
 * lending (over 2 KiB) beside even ones staging, all lending. */
static size_t gather_count(int shape, int pe)
{
    if (shape == 0)
        return (size_t)(pe % 3) + 1;
    if (shape == 1)
        return pe % 2 ? 300 + (size_t)pe : 2;
    return 260 + (size_t)pe;
}

static long gathered(int round, int pe, size_t i)
{
    return (long)round * 7717L + (long)pe * 100003L + (long)i;
}

/* ROUNDS collects of SHAPE over the set (start, 2^log_stride, size), or
 * over TEAM when it is valid, every fourth followed by a sum of 16 or 2 longs. */
static void gathers(shmem_team_t team, int start, int log_stride, int size, int shape)
{
    int stride = 1 << log_stride;
    if (!member(team, &start, &stride, &size))
        return;
    size_t count = gather_count(shape, me);
    for (int round = 0; round < GATHER_ROUNDS; round++) {
        int k = round & 1;
        for (size_t i = 0; i < count; i++)
            src[i] = gathered(round, me, i);
        if (team != SHMEM_TEAM_INVALID)
            CHECK(shmem_long_collect(team, dst[k], src, count) == 0, "long_collect");
        else
            shmem_collect64(dst[k], src, count, start, log_stride, size, psync[k]);
        size_t at = 0;
        for (int j = 0; j < size; j++) {
            int pe = start + j * stride;
            size_t c = gather_count(shape, pe);
            for (size_t i = 0; i < c; i += 1 + c / 8)
                CHECK(dst[k][at + i] == gathered(round, pe, i),
                      "round %d, collect shape %d over %d+%d*k<%d%s: PE %d's [%zu] at %zu = %ld, "
                      "want %ld",
                      round, shape, start, stride, size, team != SHMEM_TEAM_INVALID ? " (team)" : "",
                      pe, i, at + i, dst[k][at + i], gathered(round, pe, i));
            CHECK(dst[k][at + c - 1] == gathered(round, pe, c - 1), "round %d: PE %d's last",
                  round, pe);
            at += c;
        }
        CHECK(dst[k][at] == -1, "round %d: collect wrote past its %zu longs", round, at);
        for (size_t i = 0; i < count; i++)
            src[i] = -2; /* ours again: a peer that reads it now reads garbage */
        if (team == SHMEM_TEAM_INVALID)
            check_psync(round, k);
        if (round % 4 != 3)
            continue; /* collects back to back, then one sum */
        /* 16 longs, or 2: a small one receives where a team keeps what a
         * collect is still reading (a PE past the collect starts it at once). */
        int ns = round % 8 == 3 ? 2 : 16;
        for (int i = 0; i < ns; i++)
            sum_src[i] = term(round, me, (size_t)i);
        if (team != SHMEM_TEAM_INVALID)
            CHECK(shmem_long_sum_reduce(team, sum_dst, sum_src, (size_t)ns) == 0, "sum_reduce");
        else
            shmem_long_sum_to_all(sum_dst, sum_src, ns, start, log_stride, size, pwrk[k],
                                  psync_sum[k]);
        long want = 0;
        for (int j = 0; j < size; j++)
            want += term(round, start + j * stride, (size_t)ns - 1);
        CHECK(sum_dst[ns - 1] == want, "round %d: sum after collect %ld, want %ld", round,
              sum_dst[ns - 1], want);
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
        for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
            psync[k][i] = psync_sum[k][i] = SHMEM_SYNC_VALUE;
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
    shmem_team_t odd = SHMEM_TEAM_INVALID;
    if (npes >= 3)
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, npes / 2, NULL, 0, &odd);
    static const size_t counts[] = {1, 16, 256, 300};
    for (size_t c = 0; c < sizeof counts / sizeof *counts; c++)
        for (int in_place = 0; in_place < 2; in_place++) {
            sums(SHMEM_TEAM_INVALID, 0, 0, npes, counts[c], in_place, false);
            shmem_barrier_all();
            if (counts[c] <= 16 && !in_place) {
                sums(SHMEM_TEAM_INVALID, 0, 0, npes, counts[c], in_place, true);
                shmem_barrier_all();
                check_psync(-1, 0); /* every signal taken back once all are done */
            }
            sums(SHMEM_TEAM_WORLD, 0, 0, npes, counts[c], in_place, false);
            if (npes >= 4) {
                shmem_barrier_all();
                sums(SHMEM_TEAM_INVALID, 1, 1, npes / 2, counts[c], in_place, false);
            }
            if (odd != SHMEM_TEAM_INVALID)
                sums(odd, 0, 0, 0, counts[c], in_place, false);
            shmem_barrier_all();
        }
    reset_dest();
    shmem_barrier_all();
    for (int shape = 0; shape < 3; shape++) {
        gathers(SHMEM_TEAM_INVALID, 0, 0, npes, shape);
        reset_dest();
        shmem_barrier_all();
        gathers(SHMEM_TEAM_WORLD, 0, 0, npes, shape);
        reset_dest();
        shmem_barrier_all();
        if (npes >= 4) {
            gathers(SHMEM_TEAM_INVALID, 1, 1, npes / 2, shape);
            reset_dest();
            shmem_barrier_all();
        }
        if (odd != SHMEM_TEAM_INVALID) {
            gathers(odd, 0, 0, 0, shape);
            reset_dest();
        }
        shmem_barrier_all();
    }
    if (odd != SHMEM_TEAM_INVALID)
        shmem_team_destroy(odd);
    if (me == 0)
        printf("coll_reuse %s: %d PEs passed\n", mode, npes);
    shmem_finalize();
    return 0;
}
