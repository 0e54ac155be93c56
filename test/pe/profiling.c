/* The profiling interface: a tool defines shmem_NAME, counts, and reaches
 * the library through pshmem_NAME. Both names resolve; the tool's wins. */
#include <pshmem.h>

#include "check.h"

static long calls_p, calls_barrier;

void shmem_long_p(long *dest, long value, int pe)
{
    calls_p++;
    pshmem_long_p(dest, value, pe);
}

void shmem_barrier_all(void)
{
    calls_barrier++;
    pshmem_barrier_all();
}

static long slot;

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    for (int i = 0; i < 10; i++)
        shmem_long_p(&slot, me * 100 + i, (me + 1) % n);
    shmem_barrier_all();
    CHECK(slot == (me + n - 1) % n * 100 + 9, "value through the wrapper: %ld", slot);
    CHECK(calls_p == 10 && calls_barrier == 1, "wrapper saw %ld puts, %ld barriers", calls_p,
          calls_barrier);
    /* The profiling name works by itself too. */
    CHECK(pshmem_my_pe() == me && pshmem_n_pes() == n, "pshmem_my_pe/n_pes");
    shmem_finalize();
    if (me == 0)
        printf("profiling: %d PEs passed\n", n);
    return 0;
}
