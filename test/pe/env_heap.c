/* The symmetric heap is as large as the environment asked (OpenSHMEM:
 * "at least as large as" SHMEM_SYMMETRIC_SIZE), and not the default.
 *   env_heap ASKED TOO_MUCH
 * ASKED bytes allocate; TOO_MUCH bytes (more than ASKED, less than the
 * default 1G) do not. */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: env_heap ASKED TOO_MUCH\n");
        return 2;
    }
    size_t asked = strtoull(argv[1], NULL, 0), too_much = strtoull(argv[2], NULL, 0);
    shmem_init();
    int me = shmem_my_pe();
    char *p = shmem_malloc(asked);
    if (!p) {
        fprintf(stderr, "PE %d: FAIL: shmem_malloc(%zu) failed under the size asked\n", me, asked);
        shmem_global_exit(1);
    }
    /* The whole block is usable, here and on a neighbour. */
    p[asked - 1] = (char)me;
    shmem_barrier_all();
    int next = (me + 1) % shmem_n_pes();
    char far = shmem_char_g(&p[asked - 1], next);
    if (far != (char)next) {
        fprintf(stderr, "PE %d: FAIL: last byte of PE %d reads %d\n", me, next, far);
        shmem_global_exit(1);
    }
    shmem_free(p);
    void *big = shmem_malloc(too_much);
    if (big) {
        fprintf(stderr, "PE %d: FAIL: shmem_malloc(%zu) succeeded: the size asked did not "
                        "take effect\n", me, too_much);
        shmem_global_exit(1);
    }
    shmem_finalize();
    if (me == 0)
        printf("env_heap: %zu bytes available, %zu refused: passed\n", asked, too_much);
    return 0;
}
