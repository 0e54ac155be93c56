/*
 * Put and get between PE 0 and PE 1, 1 byte to 4 MiB, into the symmetric
 * heap and into a global array: latency (blocking, and non-blocking with one
 * quiet each; the blocking put is followed by a quiet too, so that the
 * time is the put's delivery), bandwidth (a window of non-blocking
 * transfers, one quiet), put message rate, and a plain memcpy of the same
 * sizes as the machine's limit. OSU's loop: warm-up iterations untimed,
 * then the average (bench_util.h).
 * Uses only the standard OpenSHMEM API.
 *
 *   oshrun -np 2 rma_bench [max_bytes | size,size,...] [heap]
 * "heap" leaves out the [global] rows (bench/compare's short run: another
 * implementation may reach globals through a slow path that takes minutes).
 */
#include <shmem.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"

#define MAX_BYTES (4u << 20)
#define WINDOW 16
#define RATE_MAX 4096

static char global_target[MAX_BYTES];

enum kind { PUT, GET, PUT_NBI, GET_NBI, MEMCPY };

/* Time per transfer, in us, OSU's loop (bench_util.h): blocking ones
 * complete one by one; each non-blocking one is followed by its own quiet. */
static double latency(enum kind k, char *remote, char *local, size_t size)
{
    double t;
    BENCH_OSU_LOOP(t, bench_skip(size), bench_iters(size), {
        switch (k) {
        case PUT: shmem_putmem(remote, local, size, 1); shmem_quiet(); break;
        case GET: shmem_getmem(local, remote, size, 1); break;
        case PUT_NBI: shmem_putmem_nbi(remote, local, size, 1); shmem_quiet(); break;
        case GET_NBI: shmem_getmem_nbi(local, remote, size, 1); shmem_quiet(); break;
        case MEMCPY: memcpy(remote, local, size); break;
        }
        __asm__ __volatile__("" ::: "memory");
    });
    return t;
}

/* MB/s over windows of WINDOW non-blocking transfers, one quiet each, as
 * OSU's bandwidth tests do (warm-up windows untimed). */
static double bandwidth(enum kind k, char *remote, char *local, size_t size)
{
    int rounds = bench_iters(size) / WINDOW + 1;
    double t;
    BENCH_OSU_LOOP(t, bench_skip(size) / WINDOW + 1, rounds, {
        for (int w = 0; w < WINDOW; w++) {
            size_t off = (size_t)w * size;
            if (k == PUT)
                shmem_putmem_nbi(remote + off, local + off, size, 1);
            else if (k == GET)
                shmem_getmem_nbi(local + off, remote + off, size, 1);
            else
                memcpy(remote + off, local + off, size);
        }
        shmem_quiet();
        __asm__ __volatile__("" ::: "memory");
    });
    return (double)size * WINDOW / t;
}

int main(int argc, char **argv)
{
    if (!bench_init_pair("rma_bench", 0))
        return 1;
    int me = shmem_my_pe();
    size_t sizes[BENCH_MAX_SIZES];
    size_t nsizes = bench_sizes(argc > 1 ? argv[1] : NULL, MAX_BYTES, MAX_BYTES, sizes);
    int heap_only = argc > 2 && strcmp(argv[2], "heap") == 0;
    size_t max = bench_max_size(sizes, nsizes);
    char *heap_target = shmem_malloc(max * WINDOW);
    char *local = malloc(max * WINDOW), *copy = malloc(max * WINDOW);
    memset(heap_target, 1, max * WINDOW);
    memset(local, 2, max * WINDOW);
    memset(copy, 3, max * WINDOW);
    shmem_barrier_all();

    if (me == 0) {
        static const struct {
            const char *title;
            enum kind kind;
            int global;
        } lat[] = {
            {"Put Latency Test [heap]", PUT, 0},         {"Put Latency Test [global]", PUT, 1},
            {"Get Latency Test [heap]", GET, 0},         {"Get Latency Test [global]", GET, 1},
            {"Put_nbi Latency Test [heap]", PUT_NBI, 0}, {"Get_nbi Latency Test [heap]", GET_NBI, 0},
        };
        for (size_t t = 0; t < sizeof lat / sizeof lat[0]; t++) {
            bench_section(lat[t].title, "Size          Latency (us)");
            if (lat[t].global && heap_only)
                continue;
            char *remote = lat[t].global ? global_target : heap_target;
            for (size_t i = 0; i < nsizes; i++) {
                printf("%-12zu %14.3f\n", sizes[i], latency(lat[t].kind, remote, local, sizes[i]));
                fflush(stdout);
            }
        }
        bench_section("Put Bandwidth Test [heap]", "Size          Bandwidth (MB/s)   memcpy (MB/s)");
        for (size_t i = 0; i < nsizes; i++)
        {
            printf("%-12zu %14.1f %14.1f\n", sizes[i], bandwidth(PUT, heap_target, local, sizes[i]),
                   bandwidth(MEMCPY, copy, local, sizes[i]));
            fflush(stdout);
        }
        bench_section("Get Bandwidth Test [heap]", "Size          Bandwidth (MB/s)   memcpy (MB/s)");
        for (size_t i = 0; i < nsizes; i++)
        {
            printf("%-12zu %14.1f %14.1f\n", sizes[i], bandwidth(GET, heap_target, local, sizes[i]),
                   bandwidth(MEMCPY, copy, local, sizes[i]));
            fflush(stdout);
        }
        bench_section("Put Message Rate Test [heap]", "Size          Messages/s");
        for (size_t i = 0; i < nsizes; i++) {
            size_t size = sizes[i];
            if (size > RATE_MAX)
                continue;
            double t;
            const int n = 100000;
            BENCH_OSU_LOOP(t, 1, 3, {
                for (int i = 0; i < n; i++)
                    shmem_putmem_nbi(heap_target + (size_t)(i % WINDOW) * size, local, size, 1);
                shmem_quiet();
            });
            printf("%-12zu %14.0f\n", size, n / t * 1e6);
            fflush(stdout);
        }
        fflush(stdout);
    }
    shmem_barrier_all();
    shmem_free(heap_target);
    free(local);
    free(copy);
    shmem_finalize();
    return 0;
}
