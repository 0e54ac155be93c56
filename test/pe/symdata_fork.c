/* A child forked after shmem_init gets a private copy of the globals with
 * the right values (initialized data, pages written, pages never touched),
 * and that copy costs what is in use, not the size of the segment: a 1 GiB
 * static array (256 MiB under ASan) with a few pages written adds little to
 * the child's anonymous memory. The child's writes do not reach the parent. */
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "symdata_mem.h"

#define HUGE SYMDATA_TEST_BIG
static char huge[HUGE];
int initialized = 4321;
static const size_t written[] = {0, HUGE / 2 + 5, HUGE - 1};
#define NW (sizeof written / sizeof written[0])
/* Far below the array; room for the child's own stack, heap and sanitizers. */
#define MAX_CHILD_GROWTH ((long long)64 << 20)

/* In the child: 0 when all is as expected, else the number of the check. */
static int child(int me, long long anon_before)
{
    long long grown = rss_anon_bytes() - anon_before;
    if (initialized != 4321 + me)
        return 2;
    for (size_t i = 0; i < NW; i++)
        if (huge[written[i]] != (char)(me + 1 + (int)i))
            return 3;
    if (huge[12345] || huge[HUGE / 3] || huge[HUGE - 4096])
        return 4;
    if (grown > MAX_CHILD_GROWTH) {
        fprintf(stderr, "PE %d: the forked child's anonymous memory grew by %lld MiB\n", me,
                grown >> 20);
        return 5;
    }
    initialized = -1;
    huge[written[1]] = 99;
    huge[HUGE / 3] = 98;
    return initialized == -1 && huge[HUGE / 3] == 98 ? 0 : 6;
}

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    initialized += me;
    /* Written after shmem_init, by this PE and, for one page, by a peer. */
    huge[written[0]] = (char)(me + 1);
    huge[written[2]] = (char)(me + 3);
    shmem_barrier_all();
    shmem_char_p(&huge[written[1]], (char)((me + 1) % n + 2), (me + 1) % n);
    shmem_barrier_all();

    long long anon_before = rss_anon_bytes();
    CHECK(anon_before > 0, "RssAnon unknown");
    pid_t pid = fork();
    if (pid == 0)
        _exit(child(me, anon_before));
    int status = -1;
    CHECK(waitpid(pid, &status, 0) == pid, "waitpid");
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child of PE %d: status %d (check %d)",
          me, status, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    CHECK(initialized == 4321 + me && huge[written[1]] == (char)(me + 2) && huge[HUGE / 3] == 0,
          "a forked child's write reached the parent's globals");
    shmem_barrier_all();
    shmem_finalize();
    if (me == 0)
        printf("symdata_fork: %d PEs passed\n", n);
    return 0;
}
