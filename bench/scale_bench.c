/*
 * What a job costs each PE as it grows (bench/scale drives it): start-up
 * (from the launcher's start, OSHM_SCALE_T0 in the environment, to this PE
 * past shmem_init), time in shmem_init, time to reach every other PE once
 * (a put to each, then a quiet: first-use connections and mappings
 * included), and what the PE holds after that: resident memory, open
 * descriptors, memory mappings. PE 0 prints the maximum over PEs of each,
 * as one line of "name value" pairs.
 *
 * Standard OpenSHMEM 1.4 calls only (shmem_long_max_to_all), so that the
 * same source builds with another implementation's oshcc.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, also with -std=c11 */
#include <dirent.h>
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { T_START, T_INIT, T_REACH, RSS_KB, FDS, MAPS, N_VALUES };

static const char *names[N_VALUES] = {"startup_ms", "init_ms", "reach_us",
                                      "rss_kb",     "fds",     "maps"};

static long values[N_VALUES], most[N_VALUES];
static long work[SHMEM_REDUCE_MIN_WRKDATA_SIZE + N_VALUES];
static long psync[SHMEM_REDUCE_SYNC_SIZE];
static long slot;

static double now_ms(clockid_t clock)
{
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static long status_kb(const char *key)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long v = -1;
    size_t n = strlen(key);
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, key, n) == 0)
            v = atol(line + n);
    if (f)
        fclose(f);
    return v;
}

static long count_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    long n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        n += e->d_name[0] != '.';
    if (d)
        closedir(d);
    return n - 1; /* the listing's own */
}

static long count_maps(void)
{
    FILE *f = fopen("/proc/self/maps", "r");
    long n = 0;
    for (int c; f && (c = getc(f)) != EOF;)
        n += c == '\n';
    if (f)
        fclose(f);
    return n;
}

int main(void)
{
    double t0 = now_ms(CLOCK_MONOTONIC);
    shmem_init();
    double t1 = now_ms(CLOCK_MONOTONIC), wall1 = now_ms(CLOCK_REALTIME);
    int me = shmem_my_pe(), n = shmem_n_pes();
    const char *launch = getenv("OSHM_SCALE_T0"); /* ms since the epoch */
    values[T_START] = launch ? (long)(wall1 - atof(launch)) : -1;
    values[T_INIT] = (long)(t1 - t0);
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
        psync[i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all();

    double t2 = now_ms(CLOCK_MONOTONIC);
    for (int i = 1; i < n; i++)
        shmem_long_p(&slot, me, (me + i) % n);
    shmem_quiet();
    values[T_REACH] = (long)((now_ms(CLOCK_MONOTONIC) - t2) * 1e3);
    shmem_barrier_all();

    values[RSS_KB] = status_kb("VmRSS:");
    values[FDS] = count_fds();
    values[MAPS] = count_maps();
    shmem_long_max_to_all(most, values, N_VALUES, 0, 0, n, work, psync);
    if (me == 0) {
        printf("np %d", n);
        for (int v = 0; v < N_VALUES; v++)
            printf(" %s %ld", names[v], most[v]);
        printf("\n");
        fflush(stdout);
    }
    shmem_finalize();
    return 0;
}
