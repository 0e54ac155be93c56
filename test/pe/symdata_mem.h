/* What the remapped data segment costs, seen from the program: the memory
 * allocated to the "shmem-data" memfds this process holds (its own and any
 * peer's it imported), and the process's own anonymous memory. Read from
 * /proc so that no internal interface is needed. */
#ifndef OSHM_TEST_SYMDATA_MEM_H
#define OSHM_TEST_SYMDATA_MEM_H

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The size of the big static arrays. Under AddressSanitizer a quarter:
 * LeakSanitizer reads every global at exit, and each never-written page of
 * the data segment it reads becomes a page of shared memory (a read fault on
 * a shared memfd mapping allocates), which at 1 GiB a PE is seconds and
 * gigabytes at exit. 256 MiB still tells pages in use from the whole array. */
#if defined(__SANITIZE_ADDRESS__)
#define SYMDATA_TEST_BIG ((size_t)256 << 20)
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SYMDATA_TEST_BIG ((size_t)256 << 20)
#endif
#endif
#ifndef SYMDATA_TEST_BIG
#define SYMDATA_TEST_BIG ((size_t)1 << 30)
#endif

/* The largest allocation (st_blocks, in bytes) of the data memfds open in
 * this process; *COUNT gets how many there are (0 means none was found,
 * which a caller must treat as a failure of the check itself). */
static inline long long symdata_memfd_bytes(int *count)
{
    long long most = 0;
    *count = 0;
    DIR *d = opendir("/proc/self/fd");
    if (!d)
        return -1;
    struct dirent *e;
    while ((e = readdir(d))) {
        char target[256];
        ssize_t n = readlinkat(dirfd(d), e->d_name, target, sizeof target - 1);
        if (n <= 0)
            continue;
        target[n] = '\0';
        struct stat st;
        if (strncmp(target, "/memfd:shmem-data", 17) != 0 ||
            fstatat(dirfd(d), e->d_name, &st, 0) != 0)
            continue;
        (*count)++;
        if ((long long)st.st_blocks * 512 > most)
            most = (long long)st.st_blocks * 512;
    }
    closedir(d);
    return most;
}

/* RssAnon of this process in bytes (-1 if unknown). */
static inline long long rss_anon_bytes(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f)
        return -1;
    char line[256];
    long long kb = -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "RssAnon: %lld kB", &kb) == 1)
            break;
    fclose(f);
    return kb < 0 ? -1 : kb * 1024;
}

static inline double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

#endif
