/* Setup and query routines. */
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int global_int = 5;

int main(void)
{
    int provided = -1;
    CHECK(shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided) == 0, "init_thread failed");
    CHECK(provided == SHMEM_THREAD_MULTIPLE, "provided %d", provided);
    shmem_init(); /* a second initialization is harmless */
    int q = -1;
    shmem_query_thread(&q);
    CHECK(q == SHMEM_THREAD_MULTIPLE, "query_thread %d", q);

    int me = shmem_my_pe(), n = shmem_n_pes();
    const char *size = getenv("OSHRUN_SIZE");
    CHECK(n >= 1 && me >= 0 && me < n, "my_pe %d n_pes %d", me, n);
    CHECK(!size || atoi(size) == n, "n_pes %d but launcher says %s", n, size);
    CHECK(_my_pe() == me && _num_pes() == n, "deprecated names disagree");

    int major = 0, minor = 0;
    shmem_info_get_version(&major, &minor);
    CHECK(major == 1 && minor == 6, "version %d.%d", major, minor);
    char name[SHMEM_MAX_NAME_LEN];
    shmem_info_get_name(name);
    CHECK(strcmp(name, SHMEM_VENDOR_STRING) == 0, "name '%s'", name);

    int *heap = shmem_malloc(sizeof(int));
    *heap = 1000 + me;
    int on_stack = 0;
    shmem_barrier_all();
    for (int pe = 0; pe < n; pe++) {
        CHECK(shmem_pe_accessible(pe), "PE %d not accessible", pe);
        CHECK(shmem_addr_accessible(heap, pe), "heap not accessible on %d", pe);
        CHECK(shmem_addr_accessible(&global_int, pe), "global not accessible on %d", pe);
        CHECK(!shmem_addr_accessible(&on_stack, pe), "stack reported accessible");
        int *p = shmem_ptr(heap, pe);
        int *g = shmem_ptr(&global_int, pe);
        if (mapped_pe(pe)) {
            CHECK(p && *p == 1000 + pe, "shmem_ptr to PE %d heap gives %d", pe, p ? *p : -1);
            CHECK(g && *g == 5, "shmem_ptr to PE %d global", pe);
        } else {
            CHECK(!p && !g, "shmem_ptr to PE %d, reached over the network", pe);
        }
    }
    CHECK(!shmem_pe_accessible(n) && !shmem_pe_accessible(-1), "bad PE accessible");
    CHECK(shmem_ptr(heap, n) == NULL, "shmem_ptr to a bad PE");
    CHECK(shmem_ptr(&on_stack, 0) == NULL, "shmem_ptr to a stack address");
    shmem_free(heap);
    shmem_finalize();
    shmem_finalize(); /* and so is a second finalization */
    if (me == 0)
        printf("setup: %d PEs passed\n", n);
    return 0;
}
