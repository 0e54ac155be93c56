/* Start-up cost follows the data in use, not the size of the data segment:
 * a 1 GiB static array (256 MiB under ASan, symdata_mem.h) with a few pages
 * written must neither make shmem_init/shmem_finalize slow nor take shared
 * memory for the pages never touched (issue 12: 3 s at 2 PEs for 256 MiB,
 * 65 s for 1 GiB, and 1 GiB of shared memory per PE). Also checks that the
 * written pages kept their values.
 *   symdata_startup [MAX_SECONDS]   (default 1.5) */
#include <stdlib.h>

#include "check.h"
#include "symdata_mem.h"

#define HUGE SYMDATA_TEST_BIG
static char huge[HUGE];
/* Few pages: even where shared memory uses 2 MiB pages, far below this. */
#define MAX_DATA_BYTES ((long long)16 << 20)

static const size_t touched[] = {0, HUGE / 3, HUGE - 1};
#define NTOUCHED (sizeof touched / sizeof touched[0])

int main(int argc, char **argv)
{
    double max_seconds = argc > 1 ? atof(argv[1]) : 1.5;
    for (size_t i = 0; i < NTOUCHED; i++)
        huge[touched[i]] = (char)(11 + i);

    double t0 = now_seconds();
    shmem_init();
    double t_init = now_seconds() - t0;
    int me = shmem_my_pe(), n = shmem_n_pes();

    /* Both costs are measured and reported before the verdict, so that a
     * failure shows the time and the memory together. */
    int nfds;
    long long bytes = symdata_memfd_bytes(&nfds);
    CHECK(nfds >= 1, "no shmem-data memfd found in /proc/self/fd");
    for (size_t i = 0; i < NTOUCHED; i++) {
        CHECK(huge[touched[i]] == (char)(11 + i), "byte %zu: %d", touched[i], huge[touched[i]]);
        int pe = (me + 1) % n;
        char v = shmem_char_g(&huge[touched[i]], pe);
        CHECK(v == (char)(11 + i), "byte %zu of PE %d: %d", touched[i], pe, v);
    }
    shmem_barrier_all();

    double t1 = now_seconds();
    shmem_finalize();
    double total = t_init + (now_seconds() - t1);
    printf("symdata_startup: PE %d of %d: shmem_init %.3f s, with shmem_finalize %.3f s; "
           "data memfd %lld KiB\n", me, n, t_init, total, bytes >> 10);
    fflush(stdout);
    int failed = 0;
    if (total > max_seconds) {
        fprintf(stderr, "PE %d: start-up and finalize took %.3f s: over %.2f s\n", me, total,
                max_seconds);
        failed = 1;
    }
    if (bytes < 0 || bytes >= MAX_DATA_BYTES) {
        fprintf(stderr, "PE %d: a data memfd holds %lld KiB for %zu written pages of a %zu MiB "
                "array: over %lld KiB\n", me, bytes >> 10, NTOUCHED, HUGE >> 20,
                MAX_DATA_BYTES >> 10);
        failed = 1;
    }
    return failed;
}
