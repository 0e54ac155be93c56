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
    shmem_finalize();
    if (me == 0)
        printf("barrier: %d PEs, %d rounds passed\n", n, rounds);
    return 0;
}
