/* Every PE says hello and reads its neighbour's PE number with a get. */
#include <shmem.h>
#include <stdio.h>

int whoami; /* a global: symmetric, reachable from every PE */

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    whoami = me;
    shmem_barrier_all();
    int neighbour = shmem_int_g(&whoami, (me + 1) % npes);
    printf("Hello from PE %d of %d; my neighbour is PE %d\n", me, npes, neighbour);
    shmem_finalize();
    return 0;
}
