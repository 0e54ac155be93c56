/*
 * Whether an operation leaves its PE without that PE's next call, timed
 * (docs/progress.md). Standard OpenSHMEM only (1.4, so that Open MPI's
 * OSHMEM builds it; put-with-signal where the header has it).
 *
 *   oshrun -np N posted_bench bsp [SECONDS]
 *     The bulk-synchronous program: shmem_init, compute SECONDS (wall
 *     time, a busy loop), shmem_barrier_all, compute SECONDS, barrier.
 *     Prints the job's time from the first PE out of shmem_init to the last
 *     PE's end; ideally 2 * SECONDS.
 *   oshrun -np N posted_bench delays [ROUNDS [HOLD_S]]
 *     Per operation (the end of shmem_init, barrier_all and sync_all with
 *     PE 0 arriving last, a broadcast from PE 0, non-fetching atomic set
 *     and add, a put, put-with-signal): PE 0 does it and then stays away
 *     from the library HOLD_S (spinning and sleeping in turn); every other
 *     PE notes when it reached them. Prints, per operation, the median
 *     over rounds of the round's worst delay and the worst of all, in ms.
 *     A held operation shows as about HOLD_S.
 */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_ROUNDS 64

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void compute(double s)
{
    double t = now();
    while (now() - t < s)
        ;
}

static void away(double s, int round)
{
    if (round % 2) {
        struct timespec t = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
        nanosleep(&t, NULL);
    } else {
        compute(s);
    }
}

static int bsp(double s)
{
    /* From the first PE out of shmem_init (its own length is start-up's,
     * not the question here; a PE held in it by another still counts). */
    static double t_start, t_end;
    shmem_init();
    t_start = now();
    compute(s);
    shmem_barrier_all();
    compute(s);
    shmem_barrier_all();
    t_end = now();
    shmem_barrier_all();
    int me = shmem_my_pe(), np = shmem_n_pes();
    if (me == 0) {
        double first = t_start, last = t_end;
        for (int p = 0; p < np; p++) {
            double a = shmem_double_g(&t_start, p), b = shmem_double_g(&t_end, p);
            if (a < first)
                first = a;
            if (b > last)
                last = b;
        }
        printf("bsp %d PEs, 2 x %.1f s of computing: %.3f s\n", np, s, last - first);
    }
    shmem_finalize();
    return 0;
}

enum { OP_BARRIER, OP_SYNC, OP_BCAST, OP_SET, OP_ADD, OP_PUT, OP_SIGNAL, NOPS };
static const char *const op_names[NOPS] = {"barrier_all", "sync_all", "broadcast", "atomic_set",
                                           "atomic_add", "put",      "put_signal"};

static long flag[NOPS], bsrc[4], bdst[4], psync[SHMEM_BCAST_SYNC_SIZE];
static uint64_t sig;
static double t_op[MAX_ROUNDS], t_got[MAX_ROUNDS], t_init;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void print_row(const char *name, double *worst, int rounds)
{
    qsort(worst, (size_t)rounds, sizeof *worst, cmp_double);
    double med = rounds % 2 ? worst[rounds / 2] : (worst[rounds / 2 - 1] + worst[rounds / 2]) / 2;
    printf("%-14s%14.3f%14.3f\n", name, med * 1e3, worst[rounds - 1] * 1e3);
}

static int delays(int rounds, double hold)
{
    shmem_init();
    t_init = now();
    int me = shmem_my_pe(), np = shmem_n_pes();
    if (me == 0)
        away(hold, 0);
    shmem_barrier_all();
    for (int i = 0; i < SHMEM_BCAST_SYNC_SIZE; i++)
        psync[i] = SHMEM_SYNC_VALUE;
    if (me == 0) {
        printf("# OSU-style OpenSHMEM Posted Operation Delay Test\n");
        printf("# %d PEs, %d rounds, PE 0 away %.2f s after each operation\n", np, rounds, hold);
        printf("# %-12s%14s%14s\n", "Operation", "Median (ms)", "Worst (ms)");
        double spread = 0;
        for (int p = 0; p < np; p++) {
            double d = shmem_double_g(&t_init, p) - t_init;
            if (d > spread)
                spread = d;
        }
        printf("%-14s%14.3f%14.3f\n", "init", spread * 1e3, spread * 1e3);
    }
    shmem_barrier_all();
    for (int op = 0; op < NOPS; op++) {
#ifndef SHMEM_SIGNAL_SET
        if (op == OP_SIGNAL)
            continue;
#endif
        for (int r = 0; r < rounds; r++) {
            shmem_barrier_all();
            long v = (long)(op * MAX_ROUNDS + r + 1);
            if (me == 0) {
                usleep(20000); /* arrive last */
                t_op[r] = now();
                switch (op) {
                case OP_BARRIER: shmem_barrier_all(); break;
                case OP_SYNC: shmem_sync_all(); break;
                case OP_BCAST: shmem_broadcast64(bdst, bsrc, 4, 0, 0, 0, np, psync); break;
                default:
                    for (int p = 1; p < np; p++) {
                        if (op == OP_SET)
                            shmem_long_atomic_set(&flag[op], v, p);
                        else if (op == OP_ADD)
                            shmem_long_atomic_add(&flag[op], 1, p);
                        else if (op == OP_PUT)
                            shmem_long_p(&flag[op], v, p);
#ifdef SHMEM_SIGNAL_SET
                        else
                            shmem_putmem_signal(&flag[op], &v, sizeof v, &sig, (uint64_t)v,
                                                SHMEM_SIGNAL_SET, p);
#endif
                    }
                }
                away(hold, r);
            } else {
                switch (op) {
                case OP_BARRIER: shmem_barrier_all(); break;
                case OP_SYNC: shmem_sync_all(); break;
                case OP_BCAST: shmem_broadcast64(bdst, bsrc, 4, 0, 0, 0, np, psync); break;
                case OP_ADD: shmem_long_wait_until(&flag[op], SHMEM_CMP_GE, r + 1); break;
#ifdef SHMEM_SIGNAL_SET
                case OP_SIGNAL: shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, (uint64_t)v); break;
#endif
                default: shmem_long_wait_until(&flag[op], SHMEM_CMP_EQ, v); break;
                }
                t_got[r] = now();
            }
        }
        shmem_barrier_all();
        if (me == 0) {
            double worst[MAX_ROUNDS] = {0};
            for (int p = 1; p < np; p++)
                for (int r = 0; r < rounds; r++) {
                    double d = shmem_double_g(&t_got[r], p) - t_op[r];
                    if (d > worst[r])
                        worst[r] = d;
                }
            print_row(op_names[op], worst, rounds);
        }
        shmem_barrier_all();
    }
    shmem_finalize();
    return 0;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "delays";
    if (!strcmp(mode, "bsp"))
        return bsp(argc > 2 ? atof(argv[2]) : 2.0);
    int rounds = argc > 2 ? atoi(argv[2]) : 6;
    if (rounds < 1 || rounds > MAX_ROUNDS)
        rounds = 6;
    return delays(rounds, argc > 3 ? atof(argv[3]) : 0.2);
}
