/* Barriers and point-to-point waits, as OpenSHMEM 1.5 states them, at any
 * PE count and however few cores the PEs share (test/waits.cmake runs it
 * with PEs outnumbering cores too):
 *  - shmem_barrier_all / shmem_sync_all / shmem_team_sync: no PE leaves
 *    before every PE of the set has arrived, also when one arrives late
 *    (late enough that the others' waits count as long and yield);
 *  - shmem_barrier_all completes the puts issued before it;
 *  - team_sync on a strided team synchronizes its members only;
 *  - wait_until returns once the variable satisfies the comparison, and a
 *    put fenced before the flag is visible then (a token passed round a
 *    ring);
 *  - wait_until_all / _any / _some wait on a set of flags that every other
 *    PE sets in turn, and return exactly the satisfied ones.
 * Correctness only: speed is measured in bench/, never here.
 *   oshrun -np N waits [rounds]
 */
#include <stdlib.h>
#include <time.h>

#include "check.h"

#define MAX_PES 64

static long arrived[MAX_PES];
static long token;
static long payload;
static long flags[MAX_PES];

static void nap_ms(long ms)
{
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

/* Round R: every PE puts R into its slot on every PE, one PE arrives
 * late, then the set synchronizes by SYNC; every slot must hold R. */
static void barrier_rounds(int rounds, int me, int n)
{
    for (int r = 1; r <= rounds; r++) {
        /* A late PE, now and then; rarely late for long (tens of ms), so
         * that the others' waits run past the spin into the yields. */
        if (r % 97 == 0 && me == r % n)
            nap_ms(r % 3 == 0 ? 60 : 2);
        for (int pe = 0; pe < n; pe++)
            shmem_long_p(&arrived[me], r, pe);
        switch (r % 3) {
        case 0:
            shmem_barrier_all();
            break;
        case 1:
            shmem_quiet();
            shmem_sync_all();
            break;
        default:
            shmem_quiet();
            shmem_team_sync(SHMEM_TEAM_WORLD);
            break;
        }
        for (int pe = 0; pe < n; pe++)
            CHECK(arrived[pe] == r, "round %d: PE %d had not arrived (slot holds %ld)", r, pe,
                  arrived[pe]);
        /* Nobody overwrites round r's slots before everyone checked them. */
        shmem_barrier_all();
    }
}

/* A team of every other PE (0, 2, 4, ...): its members synchronize among
 * themselves while the others take no part. */
static void strided_team(int rounds, int me, int n)
{
    shmem_team_t evens;
    int size = (n + 1) / 2;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, size, NULL, 0, &evens);
    if (me % 2 == 0) {
        CHECK(evens != SHMEM_TEAM_INVALID, "PE %d: no team of even PEs", me);
        for (int r = 1; r <= rounds; r++) {
            for (int i = 0; i < size; i++)
                shmem_long_p(&arrived[me], -r, 2 * i);
            shmem_quiet();
            shmem_team_sync(evens);
            for (int i = 0; i < size; i++)
                CHECK(arrived[2 * i] == -r, "team round %d: PE %d had not arrived (%ld)", r,
                      2 * i, arrived[2 * i]);
            shmem_team_sync(evens);
        }
        shmem_team_destroy(evens);
    }
    shmem_barrier_all();
}

/* A token goes round the ring ROUNDS times; each holder first puts the
 * payload it expects the next PE to find, fences, then passes the token. */
static void ring_waits(int rounds, int me, int n)
{
    int next = (me + 1) % n;
    long last = (long)rounds * n;
    for (long t = me; t < last; t += n) {
        if (t > 0) {
            shmem_long_wait_until(&token, SHMEM_CMP_GE, t);
            CHECK(token == t, "token %ld while waiting for %ld", token, t);
            CHECK(payload == 1000 + t, "token %ld arrived before its payload (%ld)", t, payload);
        }
        shmem_long_p(&payload, 1000 + t + 1, next);
        shmem_fence();
        shmem_long_p(&token, t + 1, next);
    }
    shmem_barrier_all();
}

/* Each other PE in turn sets its flag on PE 0 (turns kept by barriers);
 * PE 0 waits with _any, _some and finally _all, and checks what it got. */
static void set_waits(int me, int n)
{
    size_t idx[MAX_PES];
    for (int turn = 1; turn < n; turn++) {
        if (me == turn)
            shmem_long_atomic_set(&flags[turn], turn, 0);
        if (me == 0) {
            size_t got = turn % 2 ? shmem_long_wait_until_any(flags, (size_t)n, NULL,
                                                              SHMEM_CMP_NE, 0)
                                  : (shmem_long_wait_until_some(flags, (size_t)n, idx, NULL,
                                                                SHMEM_CMP_EQ, turn) == 1
                                         ? idx[0]
                                         : SIZE_MAX);
            CHECK(got == (size_t)turn, "turn %d: wait returned element %zu", turn, got);
            CHECK(flags[turn] == turn, "turn %d: flag holds %ld", turn, flags[turn]);
            flags[turn] = 0; /* so the next _any sees only the next turn's */
        }
        shmem_barrier_all();
    }
    /* All at once: PE 0 waits for every other PE's flag. */
    if (me != 0)
        shmem_long_atomic_set(&flags[me], -me, 0);
    if (me == 0) {
        int status[MAX_PES] = {1}; /* element 0 is PE 0's own: left out */
        shmem_long_wait_until_all(flags, (size_t)n, status, SHMEM_CMP_LT, 0);
        for (int pe = 1; pe < n; pe++)
            CHECK(flags[pe] == -pe, "flag of PE %d holds %ld", pe, flags[pe]);
    }
    shmem_barrier_all();
}

int main(int argc, char **argv)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    int rounds = argc > 1 ? atoi(argv[1]) : 300;
    if (n > MAX_PES) {
        if (me == 0)
            fprintf(stderr, "waits: at most %d PEs\n", MAX_PES);
        shmem_global_exit(1);
    }
    barrier_rounds(rounds, me, n);
    strided_team(rounds / 3 + 1, me, n);
    ring_waits(rounds / 3 + 1, me, n);
    set_waits(me, n);
    shmem_finalize();
    if (me == 0)
        printf("waits: %d PEs, %d rounds passed\n", n, rounds);
    return 0;
}
