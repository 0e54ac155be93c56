/* Value checks for multi-PE tests: a failed check names the PE, the place
 * and the values, and ends the whole job with a non-zero status. */
#ifndef OSHM_TEST_CHECK_H
#define OSHM_TEST_CHECK_H

#include <shmem.h>
#include <shmemx.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define CHECK(cond, ...)                                                                  \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            fprintf(stderr, "PE %d: %s:%d: check failed: %s: ", shmem_my_pe(), __FILE__, \
                    __LINE__, #cond);                                                     \
            fprintf(stderr, __VA_ARGS__);                                                 \
            fputc('\n', stderr);                                                          \
            fflush(stderr);                                                               \
            shmem_global_exit(1);                                                         \
        }                                                                                 \
    } while (0)

/* shmem_ptr gives a pointer exactly to PEs that shared memory reaches
 * (not to PEs reached over the network, e.g. under SHMEM_TRANSPORT=ucx). */
static inline bool mapped_pe(int pe)
{
    return strcmp(shmemx_transport_name(pe), "shm") == 0;
}

#endif
