/*
 * Barrier latency over all PEs, the way OSU's osu_oshm_barrier measures it:
 * SKIP untimed barriers, then ITERS timed ones, the time per barrier
 * averaged over the PEs. The active-set shmem_barrier (OSU's row, two
 * pSync arrays in turn), then barrier_all, sync_all and (1.5) team_sync.
 *   oshrun -np N barrier_bench [iterations]
 */
#include <shmem.h>

#include "bench_util.h"

#define SKIP 1000
#define ITERS 10000

static long psync[2][SHMEM_BARRIER_SYNC_SIZE];

int main(int argc, char **argv)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    long iters = argc > 1 ? atol(argv[1]) : ITERS;
    if (iters < 1)
        iters = ITERS;
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < SHMEM_BARRIER_SYNC_SIZE; i++)
            psync[k][i] = SHMEM_SYNC_VALUE;
    const char *labels[] = {"barrier", "barrier_all", "sync_all", "team_sync"};
    const int ops = BENCH_HAVE_1_5 ? 4 : 3;
    if (me == 0)
        bench_section("Barrier Latency Test", "Operation           Latency (us)");
    for (int op = 0; op < ops; op++) {
        double t;
        shmem_barrier_all();
        BENCH_OSU_LOOP(t, SKIP, iters, {
            if (op == 0)
                shmem_barrier(0, 0, n, psync[bench_i_ & 1]);
            else if (op == 1)
                shmem_barrier_all();
            else if (op == 2)
                shmem_sync_all();
#if BENCH_HAVE_1_5
            else
                shmem_team_sync(SHMEM_TEAM_WORLD);
#endif
        });
        t = bench_average_over_pes(t);
        if (me == 0) {
            printf("%-20s %14.3f\n", labels[op], t);
            fflush(stdout);
        }
    }
    shmem_finalize();
    return 0;
}
