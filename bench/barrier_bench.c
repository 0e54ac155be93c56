/*
 * Latency of barrier_all, sync_all and (1.5) team_sync over all PEs.
 *   oshrun -np N barrier_bench
 */
#include <shmem.h>

#include "bench_util.h"

#define ITERS 20000

int main(void)
{
    shmem_init();
    int me = shmem_my_pe();
    const char *labels[] = {"barrier_all", "sync_all", "team_sync"};
    const int ops = BENCH_HAVE_1_5 ? 3 : 2;
    if (me == 0)
        bench_section("Barrier Latency Test", "Operation           Latency (us)");
    for (int op = 0; op < ops; op++) {
        double t;
        shmem_barrier_all();
        BENCH_BEST_OF_3(t, for (int i = 0; i < ITERS; i++) {
            if (op == 0)
                shmem_barrier_all();
            else if (op == 1)
                shmem_sync_all();
#if BENCH_HAVE_1_5
            else
                shmem_team_sync(SHMEM_TEAM_WORLD);
#endif
        });
        if (me == 0)
            printf("%-20s %14.3f\n", labels[op], t / ITERS);
    }
    shmem_finalize();
    return 0;
}
