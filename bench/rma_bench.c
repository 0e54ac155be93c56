/*
 * Put and get latency and bandwidth between PE 0 and PE 1, 1 byte to 4 MiB,
 * with a plain memcpy of the same sizes as the machine's limit. Uses only
 * the standard OpenSHMEM API, so any implementation's oshcc builds it.
 *
 *   oshrun -np 2 rma_bench [max_bytes]
 *
 * latency: time per blocking shmem_putmem (+ quiet) or shmem_getmem;
 * bandwidth: a window of non-blocking puts/gets, then one quiet.
 */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"

#define MAX_DEFAULT (4u << 20)
#define WINDOW 16

static int iterations(size_t size)
{
    if (size <= 4096)
        return 20000;
    if (size <= 65536)
        return 2000;
    return size <= (1u << 20) ? 200 : 50;
}

int main(int argc, char **argv)
{
    shmem_init();
    int me = shmem_my_pe();
    if (shmem_n_pes() < 2) {
        if (me == 0)
            fprintf(stderr, "rma_bench needs 2 PEs\n");
        shmem_finalize();
        return 1;
    }
    size_t max = argc > 1 ? strtoul(argv[1], NULL, 0) : MAX_DEFAULT;
    char *target = shmem_malloc(max * WINDOW);
    char *local = malloc(max * WINDOW), *copy = malloc(max * WINDOW);
    memset(target, 1, max * WINDOW);
    memset(local, 2, max * WINDOW);
    memset(copy, 3, max * WINDOW);
    shmem_barrier_all();

    if (me == 0) {
        char name[SHMEM_MAX_NAME_LEN];
        shmem_info_get_name(name);
        printf("# %s: PE 0 -> PE 1, best of 3\n", name);
        printf("%10s %12s %12s %12s %12s %12s %10s\n", "bytes", "put_lat_us", "get_lat_us",
               "put_MB/s", "get_MB/s", "memcpy_MB/s", "put/memcpy");
        for (size_t size = 1; size <= max; size *= 2) {
            int n = iterations(size);
            double put_t, get_t, putbw_t, getbw_t, cpy_t;
            BENCH_BEST_OF_3(put_t, for (int i = 0; i < n; i++) {
                shmem_putmem(target, local, size, 1);
                shmem_quiet();
            });
            BENCH_BEST_OF_3(get_t, for (int i = 0; i < n; i++) shmem_getmem(local, target, size, 1));
            int rounds = n / WINDOW > 0 ? n / WINDOW : 1;
            BENCH_BEST_OF_3(putbw_t, for (int r = 0; r < rounds; r++) {
                for (int w = 0; w < WINDOW; w++)
                    shmem_putmem_nbi(target + (size_t)w * size, local + (size_t)w * size, size, 1);
                shmem_quiet();
            });
            BENCH_BEST_OF_3(getbw_t, for (int r = 0; r < rounds; r++) {
                for (int w = 0; w < WINDOW; w++)
                    shmem_getmem_nbi(local + (size_t)w * size, target + (size_t)w * size, size, 1);
                shmem_quiet();
            });
            BENCH_BEST_OF_3(cpy_t, for (int r = 0; r < rounds; r++) {
                for (int w = 0; w < WINDOW; w++)
                    memcpy(copy + (size_t)w * size, local + (size_t)w * size, size);
                __asm__ __volatile__("" ::: "memory");
            });
            double bytes = (double)size * WINDOW * rounds;
            double put_mbs = bytes / putbw_t, get_mbs = bytes / getbw_t, cpy_mbs = bytes / cpy_t;
            printf("%10zu %12.3f %12.3f %12.1f %12.1f %12.1f %10.2f\n", size, put_t / n, get_t / n,
                   put_mbs, get_mbs, cpy_mbs, put_mbs / cpy_mbs);
            fflush(stdout);
        }
    }
    shmem_barrier_all();
    shmem_free(target);
    free(local);
    free(copy);
    shmem_finalize();
    return 0;
}
