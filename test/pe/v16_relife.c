/* OpenSHMEM 1.6: the last shmem_finalize releases everything, and
 * shmem_init may follow it. Several lives in one process, each using the
 * heap, global data, teams, contexts and collectives; between lives the
 * process must hold no more than before the first: the same descriptors,
 * threads, no mapping of /dev/shm or of the library's memfds (the global
 * data's stays: the program's variables live in it). Exits non-zero on any
 * difference. */
#include <dirent.h>
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LIVES 4

static long mark[8]; /* global data */

static int count_dir(const char *path)
{
    DIR *d = opendir(path);
    if (!d)
        return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        n += e->d_name[0] != '.';
    closedir(d);
    return n - 1; /* the directory stream's own descriptor, for /proc/self/fd */
}

/* What this process holds that a finished life must not leave behind: open
 * descriptors of /dev/shm or of the library's memfds, and mappings of them
 * (the heaps'). Counts them; prints each. */
static int leftovers(int life)
{
    int found = 0;
    DIR *d = opendir("/proc/self/fd");
    struct dirent *e;
    while (d && (e = readdir(d))) {
        char link[300], target[256];
        snprintf(link, sizeof link, "/proc/self/fd/%s", e->d_name);
        ssize_t n = readlink(link, target, sizeof target - 1);
        if (n <= 0)
            continue;
        target[n] = '\0';
        if (strstr(target, "/dev/shm/") || strstr(target, "memfd:shmem")) {
            fprintf(stderr, "after life %d: descriptor %s -> %s\n", life, e->d_name, target);
            found++;
        }
    }
    if (d)
        closedir(d);
    FILE *maps = fopen("/proc/self/maps", "r");
    char line[512];
    while (maps && fgets(line, sizeof line, maps)) {
        if (strstr(line, "/dev/shm/") || strstr(line, "memfd:shmem-heap") ||
            strstr(line, "memfd:shmem-device")) {
            fprintf(stderr, "after life %d: mapping %s", life, line);
            found++;
        }
    }
    if (maps)
        fclose(maps);
    return found;
}

static int one_life(int life)
{
    int bad = 0;
    if (life % 2)
        shmem_init();
    else {
        int provided;
        if (shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided) != 0 ||
            provided != SHMEM_THREAD_MULTIPLE) {
            fprintf(stderr, "life %d: init_thread failed\n", life);
            return 1;
        }
    }
    int me = shmem_my_pe(), n = shmem_n_pes();
    long *h = shmem_calloc(1024, sizeof(long));
    long *big = shmem_malloc((size_t)8 << 20); /* grows the heap */
    if (!h || !big) {
        fprintf(stderr, "PE %d life %d: allocation failed\n", me, life);
        return 1;
    }
    big[(1 << 20) - 1] = life;
    mark[0] = -1;
    shmem_barrier_all();
    int right = (me + 1) % n, left = (me + n - 1) % n;
    shmem_long_p(&mark[0], 1000 * life + me, right);
    shmem_long_p(&h[1023], 2000 * life + me, right);
    shmem_long_p(&big[(1 << 20) - 2], 3000 * life + me, right);
    shmem_barrier_all();
    if (mark[0] != 1000 * life + left || h[1023] != 2000 * life + left ||
        big[(1 << 20) - 2] != 3000 * life + left) {
        fprintf(stderr, "PE %d life %d: got %ld %ld %ld\n", me, life, mark[0], h[1023],
                big[(1 << 20) - 2]);
        bad++;
    }
    shmem_team_t t;
    shmem_ctx_t ctx;
    if (shmem_team_split_strided(SHMEM_TEAM_WORLD, n - 1, -1, n, NULL, 0, &t) != 0 ||
        shmem_team_create_ctx(t, 0, &ctx) != 0) {
        fprintf(stderr, "PE %d life %d: team or context failed\n", me, life);
        return 1;
    }
    h[0] = me;
    shmem_long_sum_reduce(t, &h[1], &h[0], 1);
    if (h[1] != (long)n * (n - 1) / 2) {
        fprintf(stderr, "PE %d life %d: sum %ld\n", me, life, h[1]);
        bad++;
    }
    shmem_ctx_long_atomic_add(ctx, &h[2], 1, 0);
    shmem_ctx_quiet(ctx);
    shmem_barrier_all();
    long total = shmem_long_atomic_fetch(&h[2], n - 1);
    if (total != n) {
        fprintf(stderr, "PE %d life %d: %ld adds, want %d\n", me, life, total, n);
        bad++;
    }
    /* Odd lives leave their team, context and memory to the finalize;
     * even ones give them back. */
    if (life % 2 == 0) {
        shmem_ctx_destroy(ctx);
        shmem_team_destroy(t);
        shmem_free(big);
        shmem_free(h);
    }
    /* A nested init and its finalize change nothing. */
    shmem_init();
    shmem_finalize();
    shmem_finalize();
    return bad;
}

int main(void)
{
    int bad = 0;
    int fds = -1, threads = -1;
    for (int life = 0; life < LIVES; life++) {
        bad += one_life(life);
        bad += leftovers(life);
        int f = count_dir("/proc/self/fd"), th = count_dir("/proc/self/task") + 1;
        /* A joined thread may still be listed for a moment: the kernel
         * wakes pthread_join before it removes the task. Give it a second. */
        for (int wait = 0; life > 0 && (f != fds || th != threads) && wait < 100; wait++) {
            usleep(10000);
            f = count_dir("/proc/self/fd");
            th = count_dir("/proc/self/task") + 1;
        }
        /* The first life may load libraries that stay (UCX's, PMIx's): from
         * then on, every life ends where the first ended. */
        if (life == 0) {
            fds = f;
            threads = th;
        } else if (f != fds || th != threads) {
            fprintf(stderr, "after life %d: %d descriptors and %d threads, after life 0 %d "
                            "and %d\n", life, f, th, fds, threads);
            bad++;
        }
    }
    int me = shmem_my_pe();
    printf("PE %d: %d lives, %s\n", me, LIVES, bad ? "FAILED" : "passed");
    return bad ? 1 : 0;
}
