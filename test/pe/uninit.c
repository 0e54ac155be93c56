/* One routine called before shmem_init or after shmem_finalize, chosen by
 * argv: "before ROUTINE" or "after ROUTINE". The library must say so,
 * naming the routine, and end the PE; test/uninit_test.sh checks the
 * message and the exit status (the library's, never a crash). */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int target;
static long psync[SHMEM_REDUCE_SYNC_SIZE];
static int src[4], dst[4];

static void call(const char *routine)
{
    if (!strcmp(routine, "shmem_putmem")) {
        shmem_putmem(&target, &target, sizeof target, 0);
    } else if (!strcmp(routine, "shmem_int_g")) {
        printf("shmem_int_g returned %d\n", shmem_int_g(&target, 0));
    } else if (!strcmp(routine, "shmem_int_atomic_fetch_add")) {
        printf("fetch_add returned %d\n", shmem_int_atomic_fetch_add(&target, 1, 0));
    } else if (!strcmp(routine, "shmem_int_sum_reduce")) {
        shmem_int_sum_reduce(SHMEM_TEAM_WORLD, dst, src, 4);
    } else if (!strcmp(routine, "shmem_int_sum_to_all")) {
        shmem_int_sum_to_all(dst, src, 4, 0, 0, 1, src, psync);
    } else if (!strcmp(routine, "shmem_barrier_all")) {
        shmem_barrier_all();
    } else if (!strcmp(routine, "shmem_malloc")) {
        printf("shmem_malloc returned %p\n", shmem_malloc(64));
    } else if (!strcmp(routine, "shmem_my_pe")) {
        printf("shmem_my_pe returned %d\n", shmem_my_pe());
    } else if (!strcmp(routine, "shmem_n_pes")) {
        printf("shmem_n_pes returned %d\n", shmem_n_pes());
    } else if (!strcmp(routine, "shmem_quiet")) {
        shmem_quiet();
    } else if (!strcmp(routine, "shmem_int_test_any")) {
        printf("test_any returned %zu\n", shmem_int_test_any(&target, 1, NULL, SHMEM_CMP_EQ, 0));
    } else if (!strcmp(routine, "shmem_int_wait_until")) {
        shmem_int_wait_until(&target, SHMEM_CMP_EQ, 0);
    } else {
        fprintf(stderr, "unknown routine '%s'\n", routine);
        _Exit(2);
    }
}

int main(int argc, char **argv)
{
    if (argc != 3 || (strcmp(argv[1], "before") && strcmp(argv[1], "after"))) {
        fprintf(stderr, "usage: uninit before|after ROUTINE\n");
        return 2;
    }
    if (!strcmp(argv[1], "after")) {
        shmem_init();
        shmem_finalize();
    }
    call(argv[2]);
    fflush(stdout);
    /* Reaching here means the library let the call through. */
    fprintf(stderr, "uninit: %s %s returned\n", argv[2], argv[1]);
    return 3;
}
