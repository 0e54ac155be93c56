/*
 * The project's OpenSHMEM 1.5 verification suite: one program per chapter of
 * the specification, one case per routine family and type class. A case
 * records its failures; the program prints one table row per case
 *     PASS  9.7   atomic_fetch_add           int
 * and exits non-zero if any case failed on any PE.
 */
#ifndef OSHM_VV_H
#define OSHM_VV_H

#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int vv_case_failures;
static int vv_total_failures;
static int vv_cases;

#define VV_CHECK(cond, ...)                                                                   \
    do {                                                                                      \
        if (!(cond)) {                                                                        \
            if (vv_case_failures++ < 3) {                                                     \
                fprintf(stderr, "PE %d: %s:%d: %s: ", shmem_my_pe(), __FILE__, __LINE__,     \
                        #cond);                                                               \
                fprintf(stderr, __VA_ARGS__);                                                 \
                fputc('\n', stderr);                                                          \
            }                                                                                 \
        }                                                                                     \
    } while (0)

/* Ends a case: every PE's verdict is combined, PE 0 prints the row. */
static inline void vv_case_end(const char *chapter, const char *family, const char *types)
{
    static int failed_anywhere;
    static int mine;
    mine = vv_case_failures;
    failed_anywhere = 0;
    shmem_barrier_all();
    shmem_int_atomic_add(&failed_anywhere, mine ? 1 : 0, 0);
    shmem_barrier_all();
    if (shmem_my_pe() == 0) {
        printf("%s  %-6s %-30s %s\n", failed_anywhere ? "FAIL" : "PASS", chapter, family, types);
        fflush(stdout);
    }
    vv_total_failures += failed_anywhere ? 1 : 0;
    vv_cases++;
    vv_case_failures = 0;
    shmem_barrier_all();
}

/* Broadcasts PE 0's total so that every PE exits with the same status. */
static inline int vv_finish(const char *chapter)
{
    if (shmem_my_pe() == 0)
        printf("chapter %s: %d passed, %d failed\n", chapter, vv_cases - vv_total_failures,
               vv_total_failures);
    int status = vv_total_failures ? 1 : 0;
    shmem_finalize();
    return status;
}

#define VV_ME shmem_my_pe()
#define VV_NPES shmem_n_pes()

#endif
