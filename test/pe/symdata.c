/* Global and static data are symmetric: initialized, zero-initialized,
 * static in a function, large arrays; reached by put, get and shmem_ptr. */
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

int initialized_global = 1234;
double zero_global[3];
static char big_static[1 << 20];
const char readonly_text[] = "kept read-only";

static int counter_in_function(void)
{
    static int calls = 100;
    return ++calls;
}

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    int next = (me + 1) % n, prev = (me + n - 1) % n;
    CHECK(initialized_global == 1234, "initialized global lost its value: %d", initialized_global);
    CHECK(counter_in_function() == 101, "function static");
    CHECK(strcmp(readonly_text, "kept read-only") == 0, "rodata");
    shmem_barrier_all(); /* everyone checked the initial values before any put */

    double d[3] = {me + 0.5, me + 1.5, me + 2.5};
    shmem_double_put(zero_global, d, 3, next);
    shmem_int_p(&initialized_global, 5000 + me, next);
    memset(big_static, me, sizeof big_static);
    shmem_barrier_all();
    CHECK(zero_global[2] == prev + 2.5, "bss put: %f", zero_global[2]);
    CHECK(initialized_global == 5000 + prev, "data put: %d", initialized_global);
    char got[4096];
    shmem_getmem(got, big_static + sizeof big_static - sizeof got, sizeof got, next);
    for (size_t i = 0; i < sizeof got; i++)
        CHECK(got[i] == (char)next, "large static byte %zu", i);
    char *peer = shmem_ptr(big_static, next);
    if (mapped_pe(next))
        CHECK(peer && peer[12345] == (char)next, "shmem_ptr into a static array");
    else
        CHECK(!peer, "shmem_ptr to a PE reached over the network");
    int *peer_static = shmem_ptr(&initialized_global, prev);
    if (mapped_pe(prev))
        CHECK(peer_static && *peer_static == 5000 + (prev + n - 1) % n, "shmem_ptr to a global");
    shmem_barrier_all();

    /* A forked child gets its own copy of the globals, as fork promises:
     * its writes do not reach the parent. */
    int before = initialized_global;
    pid_t child = fork();
    if (child == 0) {
        initialized_global = -1;
        big_static[0] = 42;
        _exit(initialized_global == -1 ? 0 : 1);
    }
    int status = -1;
    waitpid(child, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status %d", status);
    CHECK(initialized_global == before && big_static[0] == (char)me,
          "a forked child's write reached the parent's globals");
    shmem_barrier_all();
    shmem_finalize();
    if (me == 0)
        printf("symdata: %d PEs passed\n", n);
    return 0;
}
