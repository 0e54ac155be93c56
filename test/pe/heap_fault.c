/* An access to symmetric memory that no allocation covers, chosen by argv[1]:
 *   store   PE 0 stores to its own heap, 4 KiB before the heap's end
 *   put     PE 0 puts there on PE 1 (shmem_putmem)
 *   get     PE 0 gets from there on PE 1 (shmem_getmem)
 *   device  PE 0 stores beyond every allocation of its device heap
 * PE 0 prints the address first; test/heap_fault_test.sh checks that the
 * library's message names it, the memory and the routine, and that the PE
 * still dies by the signal. */
#include <shmem/shmemx.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    /* The program's first allocation lies within the library's first 2 MiB:
     * a heap's size past it is inside the reserved range, far beyond every
     * allocation. */
    char *p = shmem_malloc(64);
    CHECK(p != NULL, "shmem_malloc(64)");
    char *far = p + shmemx_heap_size() - 4096;
    long value = 42;
    shmem_barrier_all();
    if (me == 0) {
        if (!strcmp(mode, "store")) {
            printf("storing to %p\n", (void *)far);
            fflush(stdout);
            *(volatile long *)far = value;
        } else if (!strcmp(mode, "put")) {
            CHECK(n > 1, "needs 2 PEs");
            printf("putting to %p on PE 1\n", (void *)far);
            fflush(stdout);
            shmem_putmem(far, &value, sizeof value, 1);
            shmem_quiet();
        } else if (!strcmp(mode, "get")) {
            CHECK(n > 1, "needs 2 PEs");
            printf("getting from %p on PE 1\n", (void *)far);
            fflush(stdout);
            shmem_getmem(&value, far, sizeof value, 1);
        } else if (!strcmp(mode, "device")) {
            char *d = shmemx_device_malloc(64);
            CHECK(d != NULL, "shmemx_device_malloc(64)");
            char *dfar = d + shmemx_device_heap_size() - 4096;
            printf("storing to %p\n", (void *)dfar);
            fflush(stdout);
            *(volatile long *)dfar = value;
        } else {
            fprintf(stderr, "unknown mode '%s'\n", mode);
            shmem_global_exit(2);
        }
        fprintf(stderr, "heap_fault: the access did not fault\n");
        shmem_global_exit(3);
    } else if (!strcmp(mode, "device")) {
        CHECK(shmemx_device_malloc(64) != NULL, "shmemx_device_malloc(64)");
    }
    /* PE 0 never gets here: the others wait until the job is ended. */
    shmem_barrier_all();
    shmem_finalize();
    return 4;
}
