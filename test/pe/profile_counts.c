/* Known traffic for the built-in profiler (test/profile_test.sh counts it in
 * the summary, the per-PE files, comm.csv and the trace): from each PE,
 * 1000 8-byte puts and 5 atomic adds to its right neighbour, one 64 KiB get
 * from its left one, 10 barriers. Calls made while shmem_pcontrol(0) has
 * paused the profiler must not count. Checks its own values too: the job's
 * result must not depend on profiling. */
#include <shmem.h>
#include <string.h>

#include "check.h"

static char src[65536], dst[65536];
static long word, counter;

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), np = shmem_n_pes();
    int right = (me + 1) % np, left = (me + np - 1) % np;
    for (int i = 0; i < (int)sizeof src; i++)
        src[i] = (char)(me + i);
    for (long i = 0; i < 999; i++) {
        long v = me * 10000 + i;
        shmem_putmem(&word, &v, sizeof v, right);
    }
    for (int i = 0; i < 5; i++)
        shmem_long_atomic_add(&counter, 1, right);
    /* Paused: neither counted nor traced. */
    shmem_pcontrol(0);
    for (int i = 0; i < 7; i++)
        shmem_long_p(&word, 999999, right);
    shmem_pcontrol(1);
    shmem_long_p(&word, me * 10000 + 999, right); /* the 1000th put */
    for (int i = 0; i < 9; i++)
        shmem_barrier_all();
    shmem_getmem(dst, src, sizeof dst, left);
    for (int i = 0; i < (int)sizeof dst; i++)
        CHECK(dst[i] == (char)(left + i), "byte %d from PE %d: %d", i, left, dst[i]);
    shmem_barrier_all();
    CHECK(word == left * 10000 + 999, "word %ld", word);
    CHECK(counter == 5, "counter %ld", counter);
    shmem_finalize();
    return 0;
}
