/* barrier_all and sync_all: no PE leaves before all arrived, many times
 * over, with puts before the barrier visible after it. */
#include "check.h"

static long counter;
static long seen[1024];

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    const int rounds = n > 64 ? 30 : n > 4 ? 300 : 1000;
    for (int r = 1; r <= rounds; r++) {
        /* everyone writes round r into everyone's slot for it */
        for (int pe = 0; pe < n; pe++)
            shmem_long_p(&seen[me], r, pe);
        shmem_barrier_all();
        for (int pe = 0; pe < n; pe++)
            CHECK(seen[pe] == r, "round %d: PE %d's put missing (%ld)", r, pe, seen[pe]);
        /* nobody starts round r+1 before everyone checked round r */
        if (r % 2)
            shmem_sync_all();
        else
            shmem_barrier_all();
    }
    /* a barrier orders a put to a single counter from all PEs in turn */
    for (int turn = 0; turn < n; turn++) {
        if (me == turn)
            for (int pe = 0; pe < n; pe++)
                shmem_long_p(&counter, turn + 1, pe);
        shmem_barrier_all();
        CHECK(counter == turn + 1, "turn %d: counter %ld", turn, counter);
        shmem_barrier_all();
    }
    /* An active set of every other PE (a stride over a network picks the
     * gathered barrier at 3 and 4 members, dissemination elsewhere), then
     * a strided team of the odd PEs: members only, puts before, values
     * after, rounds enough for a fast member to lap a slow one. */
    static long psync[SHMEM_BARRIER_SYNC_SIZE];
    for (int i = 0; i < SHMEM_BARRIER_SYNC_SIZE; i++)
        psync[i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all();
    int evens = (n + 1) / 2, odds = n / 2;
    if (me % 2 == 0)
        for (int r = 1; r <= rounds; r++) {
            for (int pe = 0; pe < n; pe += 2)
                shmem_long_p(&seen[me], -r, pe);
            shmem_barrier(0, 1, evens, psync);
            for (int pe = 0; pe < n; pe += 2)
                CHECK(seen[pe] == -r, "active set, round %d: PE %d's put missing (%ld)", r, pe,
                      seen[pe]);
            shmem_barrier(0, 1, evens, psync);
        }
    shmem_barrier_all();
    shmem_team_t odd = SHMEM_TEAM_INVALID;
    if (odds > 0)
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, odds, NULL, 0, &odd);
    if (odd != SHMEM_TEAM_INVALID) {
        for (int r = 1; r <= rounds; r++) {
            for (int pe = 1; pe < n; pe += 2)
                shmem_long_p(&seen[me], 2 * r, pe);
            shmem_quiet();
            shmem_team_sync(odd);
            for (int pe = 1; pe < n; pe += 2)
                CHECK(seen[pe] == 2 * r, "team, round %d: PE %d's put missing (%ld)", r, pe,
                      seen[pe]);
            shmem_team_sync(odd);
        }
        shmem_team_destroy(odd);
    }
    shmem_finalize();
    if (me == 0)
        printf("barrier: %d PEs, %d rounds passed\n", n, rounds);
    return 0;
}
