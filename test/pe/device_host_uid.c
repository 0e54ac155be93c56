/* Start-up from a unique id, without oshrun: this driver forks the job's
 * processes itself, as a test driver or a launcher without PMIx would.
 * Rank 0 makes the id (shmemd_get_uniqueid) and hands it to the others
 * through pipes; each starts with shmemd_init_attr, heap sizes from the
 * attributes, checks its rank, the job size and the heap sizes, then moves
 * data around the ring (host RMA and a kernel) and checks it.
 *   device_host_uid NPROCS          the job, NPROCS processes
 *   device_host_uid stranger        a 2-process job, and before rank 1
 *                                   joins, a process holding the id with
 *                                   one secret character changed tries to
 *                                   join as rank 1: it must be refused and
 *                                   the job must still run.
 *   device_host_uid abort           3 processes; rank 2 calls
 *                                   shmem_global_exit(7) while the others
 *                                   wait in a barrier: with no launcher to
 *                                   end them, every rank must still end,
 *                                   none with status 0. */
#include <shmem/device.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

#define HEAP (48u << 20)

static int aborting;
#define DEVICE_HEAP (24u << 20)

struct ring_args {
    int *dst;
    int value;
};

static void ring_kernel(void *p)
{
    const struct ring_args *a = p;
    int n = shmemd_n_pes();
    shmemd_int_p(a->dst, a->value, (shmemd_my_pe() + 1) % n);
    shmemd_barrier_all();
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

/* One process of the job. UID_OUT: where rank 0 writes its id (NOUT
 * pipes); UID_IN: where the others read it. */
static int run_rank(int rank, int nranks, int uid_in, const int *uid_out, int nout,
                    int flip_secret)
{
    alarm(60);
    shmemd_uniqueid_t uid = SHMEMD_UNIQUEID_INITIALIZER;
    if (rank == 0 && !flip_secret) {
        if (shmemd_get_uniqueid(&uid) != 0)
            return 2;
        for (int i = 0; i < nout; i++)
            if (write(uid_out[i], &uid, sizeof uid) != (ssize_t)sizeof uid)
                return 2;
    } else {
        read_all(uid_in, &uid, sizeof uid);
    }
    if (flip_secret) {
        /* One character of the secret (bytes 74.. of the id, after the
         * magic, the address and the port) changed. */
        uid.internal[74] = uid.internal[74] == 'a' ? 'b' : 'a';
    }
    shmemd_init_attr_t attr = SHMEMD_INIT_ATTR_INITIALIZER;
    attr.heap_size = HEAP;
    attr.device_heap_size = DEVICE_HEAP;
    attr.device_id = rank % 2;
    if (shmemd_set_attr_uniqueid_args(rank, nranks, &uid, &attr) != 0)
        return 2;
    if (shmemd_init_attr(SHMEMD_INIT_WITH_UNIQUEID, &attr) != 0)
        return flip_secret ? 42 : 2;
    if (flip_secret) {
        fprintf(stderr, "stranger: joined a job it has no secret for\n");
        return 2;
    }
    if (aborting) {
        if (rank == nranks - 1)
            shmem_global_exit(7);
        shmem_barrier_all();
        return 0; /* never reached: the job ended */
    }
    CHECK(shmem_my_pe() == rank, "rank %d started as PE %d", rank, shmem_my_pe());
    CHECK(shmem_n_pes() == nranks, "%d ranks, shmem_n_pes %d", nranks, shmem_n_pes());
    CHECK(shmemd_device_id() == rank % 2, "device %d", shmemd_device_id());
    size_t dh = shmemx_device_heap_size();
    CHECK(dh >= DEVICE_HEAP && dh < 2 * DEVICE_HEAP, "device heap %zu bytes, asked %u", dh,
          DEVICE_HEAP);
    /* The symmetric heap holds what was asked and not the default 1G. */
    void *big = shmem_malloc(HEAP / 2);
    CHECK(big != NULL, "half of the asked heap is not there");
    shmem_free(big);
    void *too_big = shmem_malloc(2 * (size_t)HEAP);
    CHECK(too_big == NULL, "twice the asked heap was allocated: heap_size ignored");

    static int ring; /* symmetric data */
    int next = (rank + 1) % nranks, prev = (rank + nranks - 1) % nranks;
    shmem_int_p(&ring, 1000 + rank, next);
    shmem_barrier_all();
    CHECK(ring == 1000 + prev, "host ring: %d", ring);
    int *dev = shmemd_calloc(1, sizeof *dev);
    struct ring_args a = {.dst = dev, .value = 2000 + rank};
    CHECK(shmemx_launch(ring_kernel, 1, 2, &a, sizeof a, NULL) == 0, "launch");
    shmemx_stream_synchronize(NULL);
    shmem_barrier_all();
    CHECK(*dev == 2000 + prev, "kernel ring: %d", *dev);
    shmemd_free(dev);
    shmem_finalize();
    return 0;
}

static pid_t start(int rank, int nranks, int uid_in, const int *uid_out, int nout, int flip)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0)
        exit(run_rank(rank, nranks, uid_in, uid_out, nout, flip));
    return pid;
}

static int status_of(pid_t pid)
{
    int st;
    if (waitpid(pid, &st, 0) != pid)
        return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int main(int argc, char **argv)
{
    int stranger = argc > 1 && strcmp(argv[1], "stranger") == 0;
    aborting = argc > 1 && strcmp(argv[1], "abort") == 0;
    int n = stranger ? 2 : aborting ? 3 : argc > 1 ? atoi(argv[1]) : 2;
    if (n < 1 || n > 16) {
        fprintf(stderr, "usage: device_host_uid NPROCS|stranger\n");
        return 2;
    }
    /* Not started by oshrun: nothing of a launcher in the environment. */
    unsetenv("OSHRUN_ADDR");
    int nout = n - 1 + stranger;
    /* Static: the forked ranks exit holding them (LeakSanitizer). */
    static int (*pipes)[2];
    static int *outs;
    static pid_t *pids;
    pipes = calloc((size_t)nout + 1, sizeof *pipes);
    outs = calloc((size_t)nout + 1, sizeof *outs);
    for (int i = 0; i < nout; i++) {
        if (pipe(pipes[i]) != 0)
            return 2;
        outs[i] = pipes[i][1];
    }
    pids = calloc((size_t)n, sizeof *pids);
    pids[0] = start(0, n, -1, outs, nout, 0);
    int failed = 0;
    if (stranger) {
        pid_t s = start(1, n, pipes[n - 1][0], NULL, 0, 1);
        int st = status_of(s);
        if (st != 42 && st != 1) {
            fprintf(stderr, "driver: the stranger ended with %d, not refused\n", st);
            failed = 1;
        } else {
            printf("driver: the stranger was refused (status %d)\n", st);
        }
    }
    for (int r = 1; r < n; r++)
        pids[r] = start(r, n, pipes[r - 1][0], NULL, 0, 0);
    for (int r = 0; r < n; r++) {
        int st = status_of(pids[r]);
        if (aborting) {
            printf("driver: rank %d ended with %d\n", r, st);
            if (st == 0)
                failed = 1;
        } else if (st != 0) {
            fprintf(stderr, "driver: rank %d ended with %d\n", r, st);
            failed = 1;
        }
    }
    if (!failed)
        printf("device_host_uid: %d processes %s\n", n, aborting ? "ended, passed" : "passed");
    free(pids);
    free(outs);
    free(pipes);
    return failed;
}
