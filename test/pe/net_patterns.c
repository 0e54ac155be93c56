/* Three programs that ran past 60 s over libfabric tcp at 4 PEs where they
 * take about a second over shared memory (issue 28), as one, with their
 * values checked; the test's timeout is the bound:
 *   contexts   16 contexts created at once, a put on each, quiet, destroy,
 *              four times over (each context an endpoint of its own, and a
 *              connection to its peer);
 *   vector     a vector of int flags, each PE setting its own at every PE
 *              with the C11 generic atomic_set and waiting for all of them
 *              with the generic wait_until_all, 200 rounds;
 *   split      collect over a team made with a strided split (every other
 *              PE), 200 rounds.
 *   net_patterns [ROUNDS_SCALE]   (a divisor of the rounds, for slow runs) */
#include <stdlib.h>

#include "check.h"

#define CONTEXTS 16
static long slots[CONTEXTS];
static int flags[64];
static long csrc[4], cdst[64];

static void contexts(int me, int npes)
{
    for (int round = 0; round < 4; round++) {
        shmem_ctx_t ctx[CONTEXTS];
        for (int i = 0; i < CONTEXTS; i++)
            CHECK(shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx[i]) == 0, "context %d", i);
        for (int i = 0; i < CONTEXTS; i++)
            shmem_ctx_long_p(ctx[i], &slots[i], 100L * round + me, (me + 1) % npes);
        for (int i = 0; i < CONTEXTS; i++) {
            shmem_ctx_quiet(ctx[i]);
            shmem_ctx_destroy(ctx[i]);
        }
        shmem_barrier_all();
        int from = (me + npes - 1) % npes;
        for (int i = 0; i < CONTEXTS; i++)
            CHECK(slots[i] == 100L * round + from, "round %d, context %d: %ld", round, i,
                  slots[i]);
        shmem_barrier_all();
    }
}

static void vector(int me, int npes, int rounds)
{
    for (int r = 1; r <= rounds; r++) {
        for (int p = 0; p < npes; p++)
            shmem_atomic_set(&flags[me], r, p);
        shmem_wait_until_all(flags, (size_t)npes, NULL, SHMEM_CMP_GE, r);
    }
    shmem_barrier_all();
    for (int p = 0; p < npes; p++)
        CHECK(flags[p] == rounds, "flag of PE %d: %d", p, flags[p]);
}

static void split(int me, int npes, int rounds)
{
    shmem_team_t team;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (npes + 1) / 2, NULL, 0, &team);
    if (team != SHMEM_TEAM_INVALID) {
        int n = shmem_team_n_pes(team);
        for (int r = 0; r < rounds; r++) {
            csrc[0] = me * 1000 + r;
            shmem_collect(team, cdst, csrc, 1);
            for (int i = 0; i < n; i++)
                CHECK(cdst[i] == 2 * i * 1000 + r, "round %d, block %d: %ld", r, i, cdst[i]);
        }
        shmem_team_destroy(team);
    }
    shmem_barrier_all();
}

int main(int argc, char **argv)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    int scale = argc > 1 ? atoi(argv[1]) : 1;
    int rounds = 200 / (scale > 0 ? scale : 1);
    if (npes > 64) {
        if (me == 0)
            printf("net_patterns: at most 64 PEs\n");
        shmem_finalize();
        return 0;
    }
    contexts(me, npes);
    vector(me, npes, rounds);
    split(me, npes, rounds);
    if (me == 0)
        printf("net_patterns: %d PEs passed\n", npes);
    shmem_finalize();
    return 0;
}
