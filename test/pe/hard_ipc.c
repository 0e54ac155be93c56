/* The victim of test/hardening_ipc_attack.py: start-up, puts through shared
 * memory, barrier, finalize, while a process outside the job attacks every
 * PE's IPC socket.
 *
 * HARD_IPC_READY (a path): PE 0 creates it once every PE is up, so the
 * attacker knows the sockets are being served rather than still being made.
 * HARD_IPC_GO (a path): the PEs then wait for it before the second round and
 * finalize, so that the attack is in place when finalize stops the service.
 * HARD_IPC_LATE_RANK: that PE starts 1.5 s late. No PE imports from another
 * before every PE has published its keys, so meanwhile the others' sockets
 * are open and not yet used: an attacker reaches them before any import. */
#include <fcntl.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

#define N 64

static long dst[N];

/* Each PE writes its number into the next PE's buffer; checks what the
 * previous PE wrote into its own. */
static void ring_round(int round)
{
    int me = shmem_my_pe(), n = shmem_n_pes();
    long src[N];
    for (int i = 0; i < N; i++)
        src[i] = 1000L * round + 10L * me + i;
    shmem_long_put(dst, src, N, (me + 1) % n);
    shmem_barrier_all();
    int from = (me + n - 1) % n;
    for (int i = 0; i < N; i++)
        CHECK(dst[i] == 1000L * round + 10L * from + i, "round %d: dst[%d] = %ld", round, i,
              dst[i]);
    shmem_barrier_all();
}

static void wait_for_file(const char *path)
{
    struct timespec tick = {.tv_nsec = 10 * 1000 * 1000};
    for (int i = 0; i < 3000; i++) { /* 30 s: the test's bound is shorter */
        if (access(path, F_OK) == 0)
            return;
        nanosleep(&tick, NULL);
    }
    CHECK(0, "%s never appeared", path);
}

int main(void)
{
    const char *late = getenv("HARD_IPC_LATE_RANK"), *rank = getenv("OSHRUN_RANK");
    if (late && rank && atoi(late) == atoi(rank))
        nanosleep(&(struct timespec){.tv_sec = 1, .tv_nsec = 500 * 1000 * 1000}, NULL);
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    CHECK(mapped_pe((me + 1) % n), "next PE not mapped");
    ring_round(1);

    const char *ready = getenv("HARD_IPC_READY"), *go = getenv("HARD_IPC_GO");
    if (me == 0 && ready) {
        int fd = open(ready, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
        CHECK(fd >= 0, "cannot create %s", ready);
        close(fd);
    }
    if (me == 0 && go)
        wait_for_file(go);
    shmem_barrier_all();

    ring_round(2);
    shmem_finalize();
    if (me == 0)
        printf("hard_ipc: %d PEs passed\n", n);
    return 0;
}
