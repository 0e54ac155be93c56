/* Known traffic for the built-in profiler (test/profile_test.sh counts it in
 * the summary, the per-PE files, comm.csv and the trace): from each PE,
 * 1000 8-byte puts and 5 atomic adds to its right neighbour, one 64 KiB get
 * from its left one, 10 barriers. Calls made while shmem_pcontrol(0) has
 * paused the profiler must not count. Checks its own values too: the job's
 * result must not depend on profiling.
 *
 * With PROFILE_COUNTS_LAST_FAILS set, PE 0 says whether SHMEM_PROFILE_DIR
 * holds a trace.json when it leaves (oshrun merges the traces after every
 * PE ended; other launchers have PE 0 merge them at shmem_finalize), and the
 * last PE fails after its shmem_finalize: its trace must be merged still. */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
    if (getenv("PROFILE_COUNTS_LAST_FAILS")) {
        const char *dir = getenv("SHMEM_PROFILE_DIR");
        char path[4096], said[4096];
        snprintf(path, sizeof path, "%s/trace.json", dir ? dir : "oshm-profile");
        /* The launcher ends the job at the failure: PE 0 speaks first. */
        snprintf(said, sizeof said, "%s/pe0.said", dir ? dir : "oshm-profile");
        if (me == 0) {
            printf("trace.json at PE 0's exit: %s\n", access(path, F_OK) == 0 ? "yes" : "no");
            fflush(stdout);
            FILE *f = fopen(said, "w");
            if (f)
                fclose(f);
        }
        if (me == np - 1) {
            for (int i = 0; i < 1000 && access(said, F_OK) != 0; i++)
                usleep(10000);
            return 3;
        }
    }
    return 0;
}
