/* What the installed-tree tests (install_test.sh, modules_test.sh) build
 * with the installed oshcc: each PE puts its number into its right
 * neighbour's variable, then checks that it holds its left neighbour's.
 * One line per PE ("...: ok"), exit status 0 only when right. */
#include <shmem.h>
#include <stdio.h>

static int from_left = -1;

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    shmem_int_p(&from_left, me, (me + 1) % n);
    shmem_barrier_all();
    int good = from_left == (me + n - 1) % n;
    printf("PE %d of %d: %s\n", me, n, good ? "ok" : "WRONG");
    shmem_finalize();
    return good ? 0 : 1;
}
