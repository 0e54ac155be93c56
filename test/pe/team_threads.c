/* Teams made and unmade by several threads at once under
 * SHMEM_THREAD_MULTIPLE. Each of four threads per PE owns a parent team
 * (world for thread 0, a duplicate of world for the others) and, over and
 * over, splits it (the whole parent, its even PEs, or the rows and columns
 * of a 2D split), uses each new team (sync, broadcast, sum reduction, a put
 * through a context of the team) and destroys it. Two teams created at the
 * same time by different threads must get sync words of their own on every
 * PE: teams sharing words consume each other's barrier signals (a hang,
 * which the alarm turns into a failure) or mix their collectives' data
 * (wrong values). First, a split whose partners are late blocks only its
 * own thread: PE 0's thread 0 waits in a split that the other PEs' threads
 * 0 enter only after thread 1 has split another parent on every PE.
 *
 *   team_threads [ITERATIONS]   (per thread) */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"

#define NTHREADS 4
#define ALARM_S 50 /* below the test's timeout: a hang reports itself */

static long iterations = 300;
static shmem_team_t parents[NTHREADS];
/* The threads of a PE start each iteration together, so that their splits
 * overlap as much as they can. */
static pthread_barrier_t together;

/* Symmetric (data segment), one set per thread. */
static long uses[NTHREADS]; /* teams used, per thread: all iterations ran */
static long bsrc[NTHREADS], bdst[NTHREADS], rsrc[NTHREADS], rdst[NTHREADS], box[NTHREADS];

static void on_alarm(int sig)
{
    (void)sig;
    static const char msg[] = "team_threads: not done before the alarm: hung\n";
    (void)!write(2, msg, sizeof msg - 1);
    _exit(3);
}

static long value(int t, long it, int pe)
{
    return (it * NTHREADS + t) * 1000 + pe + 1;
}

static void use(shmem_team_t team, int t, long it)
{
    int n = shmem_team_n_pes(team), me = shmem_team_my_pe(team);
    int world = shmem_my_pe();
    CHECK(n > 0 && me >= 0 && me < n, "thread %d: team of %d PEs, my index %d", t, n, me);
    CHECK(shmem_team_translate_pe(team, me, SHMEM_TEAM_WORLD) == world,
          "thread %d: my index %d translates to %d", t, me,
          shmem_team_translate_pe(team, me, SHMEM_TEAM_WORLD));
    CHECK(shmem_team_sync(team) == 0, "thread %d: team sync", t);

    int root = (int)(it % n);
    int root_world = shmem_team_translate_pe(team, root, SHMEM_TEAM_WORLD);
    bsrc[t] = value(t, it, world);
    bdst[t] = -1;
    shmem_long_broadcast(team, &bdst[t], &bsrc[t], 1, root);
    CHECK(bdst[t] == value(t, it, root_world), "thread %d iteration %ld: broadcast gave %ld, "
          "%ld expected", t, it, bdst[t], value(t, it, root_world));

    long sum = 0;
    for (int i = 0; i < n; i++)
        sum += value(t, it, shmem_team_translate_pe(team, i, SHMEM_TEAM_WORLD));
    rsrc[t] = value(t, it, world);
    rdst[t] = -1;
    shmem_long_sum_reduce(team, &rdst[t], &rsrc[t], 1);
    CHECK(rdst[t] == sum, "thread %d iteration %ld: sum %ld, %ld expected", t, it, rdst[t], sum);

    shmem_ctx_t ctx;
    CHECK(shmem_team_create_ctx(team, 0, &ctx) == 0, "thread %d: context on a team", t);
    shmem_ctx_long_p(ctx, &box[t], value(t, it, world), (me + 1) % n);
    shmem_ctx_quiet(ctx);
    shmem_team_sync(team);
    int prev = shmem_team_translate_pe(team, (me + n - 1) % n, SHMEM_TEAM_WORLD);
    CHECK(box[t] == value(t, it, prev), "thread %d iteration %ld: box %ld, %ld expected", t, it,
          box[t], value(t, it, prev));
    shmem_ctx_destroy(ctx);
    uses[t]++;
}

/* Set on PEs other than 0 by PE 0's thread 1 once its split is done. */
static int late_go;

static void *late_split(void *arg)
{
    int t = (int)(long)arg, me = shmem_my_pe(), n = shmem_n_pes();
    shmem_team_t team;
    if (t == 0 && me != 0)
        shmem_int_wait_until(&late_go, SHMEM_CMP_EQ, 1);
    CHECK(shmem_team_split_strided(parents[t], 0, 1, n, NULL, 0, &team) == 0,
          "thread %d: split", t);
    if (t == 1 && me == 0)
        for (int pe = 1; pe < n; pe++)
            shmem_int_atomic_set(&late_go, 1, pe);
    use(team, t, iterations); /* values no iteration of run() uses */
    shmem_team_destroy(team);
    return NULL;
}

static void run_threads(void *(*fn)(void *), int nthreads)
{
    pthread_t th[NTHREADS];
    for (long t = 0; t < nthreads; t++)
        CHECK(pthread_create(&th[t], NULL, fn, (void *)t) == 0, "pthread_create");
    for (int t = 0; t < nthreads; t++)
        pthread_join(th[t], NULL);
}

static void *run(void *arg)
{
    int t = (int)(long)arg;
    shmem_team_t parent = parents[t];
    int pn = shmem_team_n_pes(parent);
    for (long it = 0; it < iterations; it++) {
        pthread_barrier_wait(&together);
        shmem_team_t a = SHMEM_TEAM_INVALID, b = SHMEM_TEAM_INVALID;
        int shape = (int)((it + t) % 3), rc;
        if (shape == 0)
            rc = shmem_team_split_strided(parent, 0, 1, pn, NULL, 0, &a);
        else if (shape == 1)
            rc = shmem_team_split_strided(parent, 0, 2, (pn + 1) / 2, NULL, 0, &a);
        else
            rc = shmem_team_split_2d(parent, 2, NULL, 0, &a, NULL, 0, &b);
        CHECK(rc == 0, "thread %d iteration %ld: split (shape %d) failed", t, it, shape);
        bool member = shape != 1 || shmem_team_my_pe(parent) % 2 == 0;
        CHECK((a != SHMEM_TEAM_INVALID) == member, "thread %d iteration %ld: membership", t, it);
        if (a != SHMEM_TEAM_INVALID)
            use(a, t, it);
        if (b != SHMEM_TEAM_INVALID)
            use(b, t, it);
        shmem_team_destroy(a);
        shmem_team_destroy(b);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc > 1)
        iterations = atol(argv[1]);
    int provided;
    if (shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided) != 0 ||
        provided != SHMEM_THREAD_MULTIPLE) {
        fprintf(stderr, "team_threads: SHMEM_THREAD_MULTIPLE not provided\n");
        return 1;
    }
    signal(SIGALRM, on_alarm);
    alarm(ALARM_S);
    int n = shmem_n_pes();
    parents[0] = SHMEM_TEAM_WORLD;
    for (int t = 1; t < NTHREADS; t++)
        CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, n, NULL, 0, &parents[t]) == 0,
              "duplicating world");
    pthread_barrier_init(&together, NULL, NTHREADS);
    run_threads(late_split, 2);
    shmem_barrier_all();
    memset(uses, 0, sizeof uses);
    run_threads(run, NTHREADS);
    /* Per iteration: 1 team (whole parent), 1 on even PEs (even half), 2
     * (row and column). */
    int me = shmem_my_pe();
    for (int t = 0; t < NTHREADS; t++) {
        long want = 0;
        for (long it = 0; it < iterations; it++) {
            int shape = (int)((it + t) % 3);
            want += shape == 0 ? 1 : shape == 1 ? me % 2 == 0 : 2;
        }
        CHECK(uses[t] == want, "thread %d used %ld teams, %ld expected", t, uses[t], want);
    }
    pthread_barrier_destroy(&together);
    for (int t = 1; t < NTHREADS; t++)
        shmem_team_destroy(parents[t]);
    shmem_barrier_all();
    alarm(0);
    if (shmem_my_pe() == 0)
        printf("team_threads: %ld iterations x %d threads passed\n", iterations, NTHREADS);
    shmem_finalize();
    return 0;
}
