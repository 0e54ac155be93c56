/* The unique id's rendezvous under attack (test/trust_test.sh): this driver
 * forks the job's processes itself, as device_host_uid does.
 *   uid_trust proxy DIR NPROCS
 *       rank 0 joins directly, the other ranks through test/bootproxy.py:
 *       the driver writes the rendezvous's "IP PORT" to DIR/upstream, its
 *       secret to DIR/secret, waits for DIR/port and hands ranks 1.. an id
 *       naming the proxy. The job moves data round a ring and finalizes.
 *   uid_trust strangers NPROCS CMD...
 *       once rank 0 made the id, runs "CMD... HOST PORT" (strangers that
 *       hold connections to the rendezvous) with STRANGERS_READY naming a
 *       file it creates once they are connected, then starts the other
 *       ranks and says how long their start-up took from there (until every
 *       rank passed its first ring); the job then waits for CMD to end (the
 *       rendezvous must close the strangers by itself) and finalizes, and
 *       CMD's status is passed on.
 * Prints "uid_trust: N processes passed in T s" when every rank ended well. */
#include <shmem/device.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

/* The id's layout (src/boot/boot_uid.c): magic, host, port, secret. */
#define UID_HOST 8
#define UID_PORT 72
#define UID_SECRET 74

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

static void read_all(int fd, void *buf, size_t len)
{
    char *p = buf;
    while (len) {
        ssize_t r = read(fd, p, len);
        if (r <= 0) {
            fprintf(stderr, "driver: lost the id pipe\n");
            _exit(3);
        }
        p += r;
        len -= (size_t)r;
    }
}

/* strangers: each rank says on STARTED when it is up; rank 0 then holds
 * the job until RELEASE exists. */
static int started = -1;
static const char *release;

static int run_rank(int rank, int nranks, const shmemd_uniqueid_t *uid)
{
    alarm(60);
    shmemd_init_attr_t attr = SHMEMD_INIT_ATTR_INITIALIZER;
    attr.heap_size = 16u << 20;
    attr.device_heap_size = 1u << 20;
    if (shmemd_set_attr_uniqueid_args(rank, nranks, uid, &attr) != 0 ||
        shmemd_init_attr(SHMEMD_INIT_WITH_UNIQUEID, &attr) != 0)
        return 2;
    static int ring;
    int next = (rank + 1) % nranks, prev = (rank + nranks - 1) % nranks;
    shmem_int_p(&ring, 1000 + rank, next);
    shmem_barrier_all();
    CHECK(ring == 1000 + prev, "ring: %d", ring);
    if (started >= 0) {
        CHECK(write(started, "", 1) == 1, "started pipe");
        for (int i = 0; rank == 0 && i < 3000 && access(release, F_OK) != 0; i++)
            usleep(10000);
        shmem_barrier_all();
    }
    shmem_finalize();
    return 0;
}

/* Rank 0: makes the id, writes it to OUT, and runs. */
static pid_t start_rank0(int nranks, int out)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        shmemd_uniqueid_t uid = SHMEMD_UNIQUEID_INITIALIZER;
        if (shmemd_get_uniqueid(&uid) != 0 || write(out, &uid, sizeof uid) != (ssize_t)sizeof uid)
            _exit(2);
        close(out);
        _exit(run_rank(0, nranks, &uid));
    }
    return pid;
}

static pid_t start_rank(int rank, int nranks, const shmemd_uniqueid_t *uid)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0)
        _exit(run_rank(rank, nranks, uid));
    return pid;
}

static int status_of(pid_t pid)
{
    int st;
    if (waitpid(pid, &st, 0) != pid)
        return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static void write_file(const char *dir, const char *name, const char *text)
{
    char path[4096], tmp[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f || fputs(text, f) < 0 || fclose(f) != 0 || rename(tmp, path) != 0) {
        fprintf(stderr, "driver: cannot write %s\n", path);
        exit(2);
    }
}

static int read_port(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/port", dir);
    for (int i = 0; i < 1500; i++) {
        FILE *f = fopen(path, "r");
        int port = 0;
        if (f) {
            if (fscanf(f, "%d", &port) != 1)
                port = 0;
            fclose(f);
        }
        if (port > 0)
            return port;
        usleep(20000);
    }
    fprintf(stderr, "driver: no proxy port in %s\n", path);
    exit(2);
}

int main(int argc, char **argv)
{
    bool proxy = argc == 4 && !strcmp(argv[1], "proxy");
    bool strangers = argc >= 4 && !strcmp(argv[1], "strangers");
    if (!proxy && !strangers) {
        fprintf(stderr, "usage: uid_trust proxy DIR NPROCS | strangers NPROCS CMD...\n");
        return 2;
    }
    int n = atoi(argv[proxy ? 3 : 2]);
    if (n < 2 || n > 16)
        return 2;
    unsetenv("OSHRUN_ADDR");
    int p[2], s[2];
    if (pipe(p) != 0 || pipe(s) != 0)
        return 2;
    int started_in = s[0];
    char tmpdir[] = "/tmp/uid_trust_XXXXXX";
    char release_path[64];
    if (!proxy) {
        if (!mkdtemp(tmpdir))
            return 2;
        snprintf(release_path, sizeof release_path, "%s/release", tmpdir);
        release = release_path;
        started = s[1];
    }
    static pid_t *pids; /* static: the forked ranks exit holding it (LeakSanitizer) */
    pids = calloc((size_t)n, sizeof *pids);
    pids[0] = start_rank0(n, p[1]);
    close(p[1]);
    shmemd_uniqueid_t uid;
    read_all(p[0], &uid, sizeof uid);
    char host[65], text[256];
    memcpy(host, uid.internal + UID_HOST, 64);
    host[64] = '\0';
    uint16_t port;
    memcpy(&port, uid.internal + UID_PORT, 2);
    pid_t helper = -1;
    shmemd_uniqueid_t theirs = uid;
    if (proxy) {
        snprintf(text, sizeof text, "%s %u\n", host, port);
        write_file(argv[2], "upstream", text);
        snprintf(text, sizeof text, "%.32s\n", uid.internal + UID_SECRET);
        write_file(argv[2], "secret", text);
        uint16_t via = (uint16_t)read_port(argv[2]);
        memset(theirs.internal + UID_HOST, 0, 64);
        memcpy(theirs.internal + UID_HOST, "127.0.0.1", sizeof "127.0.0.1");
        memcpy(theirs.internal + UID_PORT, &via, 2);
    } else {
        char portstr[16];
        snprintf(portstr, sizeof portstr, "%u", port);
        char **cmd = calloc((size_t)argc, sizeof *cmd);
        int k = 0;
        for (int i = 3; i < argc; i++)
            cmd[k++] = argv[i];
        cmd[k++] = host;
        cmd[k++] = portstr;
        char ready[] = "/tmp/uid_trust_ready_XXXXXX";
        int rfd = mkstemp(ready);
        if (rfd < 0)
            return 2;
        close(rfd);
        unlink(ready);
        setenv("STRANGERS_READY", ready, 1);
        fflush(NULL);
        helper = fork();
        if (helper == 0) {
            execvp(cmd[0], cmd);
            perror("driver: strangers");
            _exit(127);
        }
        free(cmd);
        for (int i = 0; i < 1000 && access(ready, F_OK) != 0; i++)
            usleep(10000);
        unlink(ready);
    }
    double t0 = now_s(), took = 0;
    for (int r = 1; r < n; r++)
        pids[r] = start_rank(r, n, &theirs);
    int failed = 0;
    if (helper > 0) {
        char c;
        for (int r = 0; r < n; r++)
            if (read(started_in, &c, 1) != 1)
                failed = 1;
        took = now_s() - t0;
        if (status_of(helper) != 0) {
            fprintf(stderr, "driver: the strangers were not all closed in time\n");
            failed = 1;
        }
        helper = -1;
        write_file(tmpdir, "release", "");
    }
    for (int r = 0; r < n; r++) {
        int st = status_of(pids[r]);
        if (st != 0) {
            fprintf(stderr, "driver: rank %d ended with %d\n", r, st);
            failed = 1;
        }
    }
    if (!proxy)
        unlink(release);
    else
        took = now_s() - t0;
    if (!failed)
        printf("uid_trust: %d processes passed in %.1f s\n", n, took);
    if (!proxy)
        rmdir(tmpdir);
    free(pids);
    return failed;
}
