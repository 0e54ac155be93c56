/* Operations leave their PE without that PE's next call (docs/progress.md):
 * "every operation that a PE has issued reaches its target within a
 * bounded time whether or not that PE ever calls the library again".
 *
 *   posted SIDE HOLD [multiple]
 *
 * PE 0 issues one operation at a time (arriving last where it is a
 * collective), then stays away from the library until every other PE has
 * seen the operation, or HOLD_S seconds. HOLD says how it stays away: spin
 * (a busy loop), sleep (1 ms naps) or block (poll(2) on a FIFO that the last
 * PE to see the operation writes to: a blocking system call). The other PEs
 * note when the operation reached them (the value they wait for is there,
 * or their call of the collective returned) in SIDE, a file that every PE
 * maps: a channel that is not the library's, so that PE 0 learns of it
 * without a call. An operation that waited for PE 0's next call shows as
 * a delay of HOLD_S; one over BOUND_S fails the test. "multiple": the job
 * runs at SHMEM_THREAD_MULTIPLE.
 *
 * Operations: the end of shmem_init; blocking and non-blocking puts (8 B,
 * and 512 KiB in fragments), shmem_p, a strided put, a put on a context of
 * its own, shmem_p in a session that batches puts; non-fetching AMOs (set, add, inc, or, xor); put-with-signal
 * (blocking and nbi), shmem_signal_add; barrier_all, sync_all, a team's
 * sync; broadcast, collect, fcollect, alltoall, a sum reduction; a team
 * split; shmem_finalize. */
#include <fcntl.h>
#include <poll.h>
#include <shmem.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define HOLD_S 2.0
#define BOUND_S 0.5
#define MAX_PES 16
#define BIG (512 * 1024 / sizeof(long))

enum op {
    OP_INIT, OP_PUT, OP_PUT_NBI, OP_PUT_BIG_NBI, OP_P, OP_IPUT, OP_CTX_PUT_NBI, OP_SESSION_P,
    OP_SET, OP_ADD,
    OP_INC, OP_OR, OP_XOR, OP_PUT_SIGNAL, OP_PUT_SIGNAL_NBI, OP_SIGNAL_ADD, OP_BARRIER, OP_SYNC,
    OP_TEAM_SYNC, OP_BROADCAST, OP_COLLECT, OP_FCOLLECT, OP_ALLTOALL, OP_REDUCE, OP_TEAM_SPLIT,
    OP_FINALIZE, NOPS
};
static const char *const names[NOPS] = {
    "init", "put", "put_nbi", "put_nbi 512K", "p", "iput", "ctx put_nbi", "session p", "atomic_set",
    "atomic_add", "atomic_inc", "atomic_or", "atomic_xor", "put_signal", "put_signal_nbi",
    "signal_add", "barrier_all", "sync_all", "team_sync", "broadcast", "collect", "fcollect",
    "alltoall", "sum_reduce", "team_split", "finalize"};

/* What the PEs tell each other outside the library. */
struct side {
    _Atomic int seen[NOPS];       /* PEs the operation reached */
    double t_op[NOPS];            /* when PE 0 began it */
    double t_seen[NOPS][MAX_PES]; /* when it reached each PE */
    double held[NOPS];            /* how long PE 0 stayed away */
    int bad_value[NOPS];          /* a PE saw a wrong value */
};

static struct side *side;
static int me, npes, fifo = -1;
static const char *side_path;
static char fifo_path[4096];
static shmem_ctx_t ctx;

static long word[NOPS], big[BIG], bsrc[4], bdst[4], cdst[4 * MAX_PES], adst[MAX_PES],
    asrc[MAX_PES], rsrc, rdst;
static uint64_t sig[NOPS];

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void nap(double s)
{
    struct timespec t = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    nanosleep(&t, NULL);
}

static void map_side(bool create)
{
    int fd = open(side_path, O_RDWR | O_CREAT | (create ? O_TRUNC : 0), 0600);
    if (fd < 0 || ftruncate(fd, sizeof *side) != 0) {
        perror(side_path);
        exit(2);
    }
    side = mmap(NULL, sizeof *side, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (side == MAP_FAILED) {
        perror("mmap");
        exit(2);
    }
}

/* A PE other than 0: OP has reached it (BAD: with a wrong value). */
static void reached(enum op op, bool bad)
{
    side->t_seen[op][me] = now();
    if (bad)
        side->bad_value[op] = 1;
    if (atomic_fetch_add(&side->seen[op], 1) + 1 == npes - 1) {
        int w = open(fifo_path, O_WRONLY | O_NONBLOCK);
        if (w >= 0) {
            (void)!write(w, "x", 1);
            close(w);
        }
    }
}

/* PE 0, right after OP: away from the library until every other PE has
 * seen OP, or HOLD_S. */
static void hold(enum op op, const char *how)
{
    double start = now();
    while (atomic_load(&side->seen[op]) < npes - 1 && now() - start < HOLD_S) {
        if (!strcmp(how, "sleep")) {
            nap(0.001);
        } else if (!strcmp(how, "block")) {
            struct pollfd p = {.fd = fifo, .events = POLLIN};
            int left_ms = (int)((HOLD_S - (now() - start)) * 1000) + 1;
            if (poll(&p, 1, left_ms) > 0) {
                char c;
                (void)!read(fifo, &c, 1);
            }
        }
    }
    side->held[op] = now() - start;
}

/* The receiving side of a point-to-point operation: waits for its value. */
static void wait_word(enum op op)
{
    shmem_long_wait_until(&word[op], SHMEM_CMP_EQ, op + 1);
    reached(op, false);
}

/* The sources of PE 0's puts: a non-blocking put's stays untouched until
 * quiet. */
static long value[NOPS];

static void initiate(enum op op)
{
    long v = op + 1, *src = &value[op];
    *src = v;
    for (int p = 1; p < npes; p++) {
        switch (op) {
        case OP_PUT: shmem_long_put(&word[op], src, 1, p); break;
        case OP_PUT_NBI: shmem_long_put_nbi(&word[op], src, 1, p); break;
        case OP_P: shmem_long_p(&word[op], v, p); break;
        case OP_IPUT: shmem_long_iput(&word[op], src, 1, 1, 1, p); break;
        case OP_CTX_PUT_NBI: shmem_ctx_long_put_nbi(ctx, &word[op], src, 1, p); break;
        case OP_SESSION_P: /* a run of two words the session may hold */
            shmem_ctx_long_p(ctx, &word[op - 1], v, p);
            shmem_ctx_long_p(ctx, &word[op], v, p);
            break;
        case OP_SET: shmem_long_atomic_set(&word[op], v, p); break;
        case OP_ADD: shmem_long_atomic_add(&word[op], v, p); break;
        case OP_INC:
            for (long i = 0; i < v; i++)
                shmem_long_atomic_inc(&word[op], p);
            break;
        case OP_OR: shmem_ulong_atomic_or((unsigned long *)&word[op], (unsigned long)v, p); break;
        case OP_XOR: shmem_ulong_atomic_xor((unsigned long *)&word[op], (unsigned long)v, p); break;
        case OP_PUT_SIGNAL:
            shmem_putmem_signal(&word[op], src, sizeof v, &sig[op], (uint64_t)v, SHMEM_SIGNAL_SET, p);
            break;
        case OP_PUT_SIGNAL_NBI:
            shmem_putmem_signal_nbi(&word[op], src, sizeof v, &sig[op], (uint64_t)v,
                                    SHMEM_SIGNAL_ADD, p);
            break;
        case OP_SIGNAL_ADD: shmem_signal_add(&sig[op], (uint64_t)v, p); break;
        default: break;
        }
    }
    if (op == OP_PUT_BIG_NBI)
        for (int p = 1; p < npes; p++)
            shmem_long_put_nbi(big, big, BIG, p); /* PE 0's own copy holds the values */
}

/* Every PE: OP, PE 0 last; PE 0 then holds, the others note the time. */
static void run(enum op op, const char *how)
{
    shmem_barrier_all();
    if (me == 0) {
        nap(0.02); /* the others are waiting by now */
        side->t_op[op] = now();
    }
    bool collective = op >= OP_BARRIER;
    bool bad = false;
    shmem_team_t team = SHMEM_TEAM_INVALID;
    if (me == 0 && !collective) {
        if (op == OP_SESSION_P)
            shmem_ctx_session_start(ctx, SHMEM_CTX_SESSION_BATCH, NULL, 0);
        initiate(op);
    } else if (!collective) {
        if (op == OP_PUT_SIGNAL || op == OP_PUT_SIGNAL_NBI || op == OP_SIGNAL_ADD) {
            shmem_signal_wait_until(&sig[op], SHMEM_CMP_EQ, (uint64_t)(op + 1));
            bad = op != OP_SIGNAL_ADD && word[op] != op + 1;
            reached(op, bad);
        } else if (op == OP_PUT_BIG_NBI) {
            shmem_long_wait_until(&big[BIG - 1], SHMEM_CMP_EQ, op + 1);
            shmem_long_wait_until(&big[0], SHMEM_CMP_EQ, op + 1);
            reached(op, false);
        } else if (op == OP_SESSION_P) {
            shmem_long_wait_until(&word[op], SHMEM_CMP_EQ, op + 1);
            reached(op, word[op - 1] != op + 1);
        } else {
            wait_word(op);
        }
    } else {
        switch (op) {
        case OP_BARRIER: shmem_barrier_all(); break;
        case OP_SYNC: shmem_sync_all(); break;
        case OP_TEAM_SYNC: shmem_team_sync(SHMEM_TEAM_WORLD); break;
        case OP_BROADCAST:
            shmem_long_broadcast(SHMEM_TEAM_WORLD, bdst, bsrc, 4, 0);
            bad = me != 0 && bdst[3] != op + 1;
            break;
        case OP_COLLECT:
            shmem_long_collect(SHMEM_TEAM_WORLD, cdst, bsrc, 1);
            for (int p = 0; p < npes; p++)
                bad |= cdst[p] != op + 1 + p;
            break;
        case OP_FCOLLECT:
            shmem_long_fcollect(SHMEM_TEAM_WORLD, cdst, bsrc, 1);
            for (int p = 0; p < npes; p++)
                bad |= cdst[p] != op + 1 + p;
            break;
        case OP_ALLTOALL:
            shmem_long_alltoall(SHMEM_TEAM_WORLD, adst, asrc, 1);
            for (int p = 0; p < npes; p++)
                bad |= adst[p] != 1000 * p + me;
            break;
        case OP_REDUCE:
            shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &rdst, &rsrc, 1);
            bad = rdst != (long)npes * (npes + 1) / 2;
            break;
        case OP_TEAM_SPLIT:
            shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &team);
            bad = team == SHMEM_TEAM_INVALID || shmem_team_n_pes(team) != npes;
            break;
        case OP_FINALIZE: shmem_finalize(); break;
        default: break;
        }
        if (me != 0)
            reached(op, bad);
        else if (bad)
            side->bad_value[op] = 1;
    }
    if (me == 0)
        hold(op, how);
    if (me == 0 && op == OP_SESSION_P)
        shmem_ctx_session_stop(ctx);
    if (team != SHMEM_TEAM_INVALID)
        shmem_team_destroy(team);
}

/* PE 0, at the end: each operation's worst delay. */
static int report(const char *how)
{
    int failed = 0;
    printf("posted, %d PEs, initiator holding by %s (bound %.1f s, hold %.1f s):\n", npes, how,
           BOUND_S, HOLD_S);
    for (int op = 0; op < NOPS; op++) {
        double worst = 0;
        for (int p = 1; p < npes; p++) {
            double d = side->t_seen[op][p] - side->t_op[op];
            if (d > worst)
                worst = d;
        }
        int seen = atomic_load(&side->seen[op]);
        bool bad = worst > BOUND_S || seen < npes - 1 || side->bad_value[op];
        printf("  %-16s worst %8.3f ms, PE 0 away %8.3f ms%s\n", names[op], worst * 1e3,
               side->held[op] * 1e3,
               bad ? (side->bad_value[op] ? "  FAILED: a wrong value"
                      : seen < npes - 1  ? "  FAILED: never arrived while PE 0 was away"
                                         : "  FAILED: arrived late")
                   : "");
        failed |= bad;
    }
    return failed;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: posted SIDE spin|sleep|block [multiple]\n");
        return 2;
    }
    side_path = argv[1];
    const char *how = argv[2];
    snprintf(fifo_path, sizeof fifo_path, "%s.fifo", side_path);
    bool multiple = argc > 3 && !strcmp(argv[3], "multiple");
    const char *rank = getenv("OSHRUN_RANK");
    bool first = rank && !strcmp(rank, "0");
    if (first) { /* before shmem_init: the others map it once their init returned */
        map_side(true);
        unlink(fifo_path);
        if (mkfifo(fifo_path, 0600) != 0) {
            perror(fifo_path);
            return 2;
        }
        fifo = open(fifo_path, O_RDWR | O_NONBLOCK); /* a writer of its own: never a hang-up */
    }
    if (multiple) {
        int provided;
        shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided);
    } else {
        shmem_init();
    }
    double t_init = now();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    if (npes > MAX_PES || (me == 0) != first) {
        fprintf(stderr, "posted: runs under oshrun, with at most %d PEs\n", MAX_PES);
        shmem_global_exit(2);
    }
    if (me != 0)
        map_side(false);
    side->t_op[OP_INIT] = 0;
    if (me == 0) {
        side->t_seen[OP_INIT][0] = t_init;
        hold(OP_INIT, how);
    } else {
        side->t_seen[OP_INIT][me] = t_init;
        reached(OP_INIT, false);
    }
    for (int i = 0; i < 4; i++)
        bsrc[i] = OP_BROADCAST + 1;
    for (int p = 0; p < npes; p++)
        asrc[p] = 1000 * me + p;
    rsrc = me + 1;
    shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx);
    for (long i = 0; i < (long)BIG; i++)
        big[i] = me == 0 ? OP_PUT_BIG_NBI + 1 : 0;
    for (int op = OP_PUT; op < OP_FINALIZE; op++) {
        if (op == OP_COLLECT || op == OP_FCOLLECT)
            bsrc[0] = op + 1 + me;
        run((enum op)op, how);
        if (me == 0)
            shmem_quiet(); /* the nbi sources are free again */
        if (op == OP_CTX_PUT_NBI && me == 0)
            shmem_ctx_quiet(ctx);
    }
    shmem_ctx_destroy(ctx);
    run(OP_FINALIZE, how);
    if (me != 0)
        return 0;
    /* The init "delay": how much later than PE 0 the others left it. */
    double first_out = side->t_seen[OP_INIT][0];
    side->t_op[OP_INIT] = first_out;
    int failed = report(how);
    unlink(fifo_path);
    return failed ? 1 : 0;
}
