/*
 * OpenSHMEM 1.6 routines that exist to be faster, against what a 1.5
 * program does instead (PE 0 issues, the others serve):
 *   session   N small puts (shmem_long_p, 16-byte putmem) to consecutive
 *             addresses of PE 1, then quiet, inside a SHMEM_CTX_SESSION_BATCH
 *             session and outside one; and N non-fetching AMOs to PE 1;
 *   pe_quiet  a large non-blocking put to PE 2 in flight, an 8-byte put to
 *             PE 1, then shmem_pe_quiet(PE 1) against shmem_quiet (3 PEs).
 *
 *   oshrun -np 2|3 v16_bench [N]
 */
#include <shmem.h>
#include <stdlib.h>

#include "bench_util.h"

#define BIG (4u << 20)

static long cells[1 << 16];
static char big_target[BIG];
static long counter;

enum loop { P_LOOP, PUT16_LOOP, AMO_LOOP };

/* us per operation of N operations then one quiet. */
static double run(enum loop k, int n, int session)
{
    shmem_ctx_session_config_t cfg = {.total_ops = (size_t)n};
    double t;
    BENCH_BEST_OF_3(t, for (int rep = 0; rep < 20; rep++) {
        if (session)
            shmem_ctx_session_start(SHMEM_CTX_DEFAULT, SHMEM_CTX_SESSION_BATCH, &cfg,
                                    SHMEM_CTX_SESSION_TOTAL_OPS);
        for (int i = 0; i < n; i++) {
            switch (k) {
            case P_LOOP: shmem_long_p(&cells[i], i, 1); break;
            case PUT16_LOOP: shmem_putmem(&cells[2 * i], &cells[2 * i], 16, 1); break;
            case AMO_LOOP: shmem_long_atomic_add(&counter, 1, 1); break;
            }
        }
        shmem_quiet();
        if (session)
            shmem_ctx_session_stop(SHMEM_CTX_DEFAULT);
    });
    return t / (20.0 * n);
}

/* us for the completion call after a BIG put to PE 2 and 8 bytes to PE 1. */
static double completion(int per_pe, char *src)
{
    double total = 0;
    const int reps = 20;
    for (int r = 0; r < reps; r++) {
        shmem_putmem_nbi(big_target, src, BIG, 2);
        shmem_long_p(&cells[0], r, 1);
        double t0 = bench_now_us();
        if (per_pe) {
            int one = 1;
            shmem_pe_quiet(&one, 1);
        } else {
            shmem_quiet();
        }
        total += bench_now_us() - t0;
        shmem_quiet();
    }
    return total / reps;
}

int main(int argc, char **argv)
{
    if (!bench_init_pair("v16_bench", 0))
        return 0;
    int n = argc > 1 ? atoi(argv[1]) : 4096;
    if (n < 1 || n > (1 << 15))
        n = 4096;
    if (shmem_my_pe() == 0) {
        printf("# v16_bench: %d PEs, N = %d, us per operation (best of 3)\n", shmem_n_pes(), n);
        const char *name[] = {"long_p to consecutive cells", "putmem 16 B, consecutive",
                              "long_atomic_add"};
        for (int k = 0; k <= AMO_LOOP; k++) {
            double plain = run((enum loop)k, n, 0), batch = run((enum loop)k, n, 1);
            printf("%-30s plain %8.3f  session %8.3f  (%.2fx)\n", name[k], plain, batch,
                   plain / batch);
        }
        if (shmem_n_pes() >= 3) {
            char *src = calloc(1, BIG);
            double q = completion(0, src), pq = completion(1, src);
            printf("completion after 4 MiB nbi to PE 2 + 8 B to PE 1: quiet %.1f us, "
                   "pe_quiet(PE 1) %.1f us (%.2fx)\n", q, pq, q / pq);
            free(src);
        }
    }
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
