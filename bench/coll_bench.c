/*
 * Collectives over all PEs, 4 B to 32 KiB per PE (to 1 MiB for broadcast
 * and the reduction, where algorithms change with size): broadcast, collect,
 * fcollect, alltoall and a sum reduction, through the active-set routines
 * that OpenSHMEM 1.4 and 1.5 implementations share (so the same source
 * compares both). The OSU micro-benchmarks' method (osu_oshm_broadcast and
 * its siblings): per size, untimed warm-up calls, then timed ones; only the
 * call is timed, a barrier follows each (outside the time; the active-set
 * routines may reuse pSync only after one), two pSync arrays alternate, and
 * the row is each PE's average call time averaged over the PEs. Where 1.5
 * is available, also the one-way latency of put-with-signal.
 *   oshrun -np N coll_bench [WHICH [MAX_BYTES [ITERS]]]
 * WHICH: a comma-separated list of broadcast, collect, fcollect, alltoall,
 * reduce, signal (default all); MAX_BYTES caps the sizes; ITERS replaces
 * the timed calls per size (a fifth of it untimed first), for PE counts
 * far above the cores, where one call takes milliseconds.
 */
#include <shmem.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"

#define MAX_BYTES 32768
#define MAX_BYTES_LARGE (1 << 20) /* broadcast and reduce */
/* OSU's counts for collectives: 200 untimed and 1,000 timed calls up to
 * 8 KiB, 10 and 100 above. */
#define SKIP 200
#define ITERS 1000
#define SKIP_LARGE 10
#define ITERS_LARGE 100

static long psync[2][SHMEM_REDUCE_SYNC_SIZE];
static long pwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE + MAX_BYTES_LARGE / 16];

static void collective(int op, long *dst, const long *src, size_t nlong, int n, long *ps)
{
    switch (op) {
    case 0: shmem_broadcast64(dst, src, nlong, 0, 0, 0, n, ps); break;
    case 1: shmem_collect64(dst, src, nlong, 0, 0, n, ps); break;
    case 2: shmem_fcollect64(dst, src, nlong, 0, 0, n, ps); break;
    case 3: shmem_alltoall64(dst, src, nlong, 0, 0, n, ps); break;
    default: shmem_long_sum_to_all(dst, src, (int)nlong, 0, 0, n, pwrk, ps);
    }
}

static const char *const names[] = {"broadcast", "collect", "fcollect", "alltoall", "reduce",
                                    "signal"};

/* Whether NAME is in the comma-separated LIST (NULL: all). */
static int chosen(const char *list, const char *name)
{
    if (!list)
        return 1;
    size_t len = strlen(name);
    for (const char *p = list; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
        if (strncmp(p, name, len) == 0 && (p[len] == ',' || p[len] == '\0'))
            return 1;
    return 0;
}

int main(int argc, char **argv)
{
    const char *which = argc > 1 ? argv[1] : NULL;
    size_t cap = argc > 2 ? strtoul(argv[2], NULL, 0) : 0;
    int iters_arg = argc > 3 ? atoi(argv[3]) : 0;
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
            psync[k][i] = SHMEM_SYNC_VALUE;
    size_t room = MAX_BYTES * (size_t)n > MAX_BYTES_LARGE ? MAX_BYTES * (size_t)n : MAX_BYTES_LARGE;
    long *src = shmem_malloc(room);
    long *dst = shmem_malloc(room);
    memset(src, 1, room);
    static const char *titles[] = {"Broadcast Latency Test", "Collect Latency Test",
                                   "Fcollect Latency Test", "Alltoall Latency Test",
                                   "Reduce Latency Test (long sum_to_all)"};
    for (int op = 0; op < 5; op++) {
        if (!chosen(which, names[op]))
            continue;
        if (me == 0)
            bench_section(titles[op], "Size          Latency (us)");
        size_t max = op == 0 || op == 4 ? MAX_BYTES_LARGE : MAX_BYTES;
        if (cap && cap < max)
            max = cap;
        for (size_t bytes = 8; bytes <= max; bytes *= 4) {
            size_t nlong = bytes / 8;
            int large = bytes > BENCH_LARGE_MESSAGE;
            int skip = large ? SKIP_LARGE : SKIP, iters = large ? ITERS_LARGE : ITERS;
            if (iters_arg > 0) {
                iters = iters_arg;
                skip = iters_arg / 5;
            }
            double timer = 0;
            shmem_barrier_all();
            for (int i = 0; i < skip + iters; i++) {
                double t0 = bench_now_us();
                collective(op, dst, src, nlong, n, psync[i % 2]);
                if (i >= skip)
                    timer += bench_now_us() - t0;
                shmem_barrier_all();
            }
            double t = bench_average_over_pes(timer / iters);
            if (me == 0)
                printf("%-12zu %14.3f\n", bytes, t);
        }
    }
#if BENCH_HAVE_1_5
    if (n >= 2 && chosen(which, names[5])) {
        static uint64_t sig;
        double t = 0;
        if (me == 0)
            bench_section("Put Signal Latency Test (one way, put + signal_wait_until)",
                          "Size          Latency (us)");
        for (size_t bytes = 8; bytes <= MAX_BYTES; bytes *= 4) {
            shmem_barrier_all();
            sig = 0;
            shmem_barrier_all();
            if (me < 2) {
                int peer = 1 - me;
                uint64_t round = 0;
                BENCH_OSU_LOOP(t, bench_skip(bytes), bench_iters(bytes), {
                    round++;
                    if (me == 0) {
                        shmem_putmem_signal(dst, src, bytes, &sig, round, SHMEM_SIGNAL_SET, peer);
                        shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, round);
                    } else {
                        shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, round);
                        shmem_putmem_signal(dst, src, bytes, &sig, round, SHMEM_SIGNAL_SET, peer);
                    }
                });
            }
            if (me == 0)
                printf("%-12zu %14.3f\n", bytes, t / 2);
        }
    }
#endif
    shmem_barrier_all();
    shmem_free(src);
    shmem_free(dst);
    shmem_finalize();
    return 0;
}
