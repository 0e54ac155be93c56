/* Progress: PE 1 computes for 2 s without calling the library while PE 0
 * puts to it and waits for completion with shmem_quiet, 50 times. Where the
 * target's memory is written in software (UCX over tcp), only a progress
 * thread lets those complete before PE 1 calls the library again.
 *
 *   progress [BOUND_MS [thread|thread-plain]]
 *
 * With SHMEM_PROGRESS_THREAD set (and not 0) the worst put+quiet must stay
 * below BOUND_MS (default 200: it proves progress happens, it is not a speed
 * requirement). Without it the figure is only printed. With "thread" (UCX
 * carries the puts, PEs do not outnumber cores) every PE must also run a
 * thread named shmem-progress, at a nice value 10 below the program's where
 * the process may lower its nice that far (CAP_SYS_NICE or RLIMIT_NICE),
 * else at the program's own: a thread that inherits the computing thread's
 * weight waits for its tick more often (docs/multinode.md, "Progress").
 * With "thread-plain" (a libfabric provider without wait descriptors, whose
 * thread wakes to poll) the thread must keep the program's nice value. */
#include <dirent.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

#define ROUNDS 50
#define COMPUTE_S 2.0
#define LEN 8

static long dst[LEN];

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static bool may_lower_nice_to(int nice)
{
    unsigned long long eff = 0;
    char line[256];
    FILE *f = fopen("/proc/self/status", "r");
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "CapEff: %llx", &eff) == 1)
            break;
    if (f)
        fclose(f);
    if (eff & (1ull << 23)) /* CAP_SYS_NICE */
        return true;
    struct rlimit rl;
    return getrlimit(RLIMIT_NICE, &rl) == 0 &&
           (rl.rlim_cur == RLIM_INFINITY || (rlim_t)(20 - nice) <= rl.rlim_cur);
}

/* The nice value of this process's thread named shmem-progress, or
 * INT_MIN when there is none. */
static int progress_thread_nice(void)
{
    int nice = INT_MIN;
    DIR *d = opendir("/proc/self/task");
    for (struct dirent *e; d && (e = readdir(d));) {
        char path[300], text[1024] = "";
        snprintf(path, sizeof path, "/proc/self/task/%s/comm", e->d_name);
        FILE *f = fopen(path, "r");
        bool named = f && fgets(text, sizeof text, f) && !strcmp(text, "shmem-progress\n");
        if (f)
            fclose(f);
        if (!named)
            continue;
        snprintf(path, sizeof path, "/proc/self/task/%s/stat", e->d_name);
        f = fopen(path, "r");
        if (f && fgets(text, sizeof text, f)) {
            /* Field 19 is the nice value; the 2nd, the name, ends at ')'. */
            char *p = strrchr(text, ')');
            for (int field = 2; p && field < 19; field++)
                p = strchr(p + 1, ' ');
            if (p)
                nice = atoi(p + 1);
        }
        if (f)
            fclose(f);
    }
    if (d)
        closedir(d);
    return nice;
}

static void check_thread_nice(bool boost)
{
    int program = getpriority(PRIO_PROCESS, 0);
    int boosted = program - 10 < -20 ? -20 : program - 10;
    int expected = boost && may_lower_nice_to(boosted) ? boosted : program;
    int seen = INT_MIN;
    /* The thread sets its nice value when it starts. */
    for (double t0 = now(); now() - t0 < 5.0; usleep(1000))
        if ((seen = progress_thread_nice()) == expected)
            break;
    CHECK(seen != INT_MIN, "no thread named shmem-progress");
    CHECK(seen == expected, "the progress thread runs at nice %d, expected %d (program %d)", seen,
          expected, program);
    if (shmem_my_pe() == 0)
        printf("progress: the progress thread runs at nice %d, the program at %d\n", seen,
               program);
}

int main(int argc, char **argv)
{
    shmem_init();
    int me = shmem_my_pe();
    double bound_ms = argc > 1 ? atof(argv[1]) : 200.0;
    const char *pt = getenv("SHMEM_PROGRESS_THREAD");
    bool progress_thread = pt && *pt && strcmp(pt, "0") != 0;
    if (progress_thread && argc > 2 && !strncmp(argv[2], "thread", 6))
        check_thread_nice(!strcmp(argv[2], "thread"));
    if (shmem_n_pes() < 2) {
        printf("progress: needs 2 PEs: skipped\n");
        shmem_finalize();
        return 0;
    }

    int status = 0;
    shmem_barrier_all();
    if (me == 1) {
        /* Computing: no library call in here, on purpose. */
        double t0 = now();
        while (now() - t0 < COMPUTE_S)
            continue;
    } else if (me == 0) {
        double worst = 0, t0 = now();
        long src[LEN];
        for (long r = 1; r <= ROUNDS; r++) {
            for (int i = 0; i < LEN; i++)
                src[i] = r;
            double s = now();
            shmem_long_put(dst, src, LEN, 1);
            shmem_quiet();
            double d = now() - s;
            if (d > worst)
                worst = d;
        }
        double total = now() - t0;
        printf("progress: worst put+quiet to a computing PE %.3f ms (%d rounds in %.3f s), "
               "progress thread %s, bound %.0f ms\n",
               worst * 1e3, ROUNDS, total, progress_thread ? "requested" : "not requested",
               bound_ms);
        fflush(stdout); /* PE 0 may fail: the figure must show */
        if (progress_thread && worst * 1e3 > bound_ms) {
            fprintf(stderr, "progress: FAILED: %.3f ms > %.0f ms with SHMEM_PROGRESS_THREAD=%s\n",
                    worst * 1e3, bound_ms, pt);
            status = 1;
        }
    }
    shmem_barrier_all();
    if (me == 1)
        for (int i = 0; i < LEN; i++)
            CHECK(dst[i] == ROUNDS, "dst[%d] = %ld, expected %d", i, dst[i], ROUNDS);
    shmem_finalize();
    return status;
}
