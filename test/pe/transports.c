/*
 * Which backend reaches each PE, as shmemx_transport_name says, checked on
 * every PE against what the environment asks: PEs of this PE's node
 * (SHMEM_TEAM_SHARED) through shared memory, the others through the
 * backend named by the argument. PE 0 prints the whole row.
 */
#include <shmem.h>
#include <shmemx.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

int main(int argc, char **argv)
{
    shmem_init();
    CHECK(argc == 2, "usage: transports REMOTE-BACKEND");
    int me = shmem_my_pe(), n = shmem_n_pes();
    for (int pe = 0; pe < n; pe++) {
        bool local = shmem_team_translate_pe(SHMEM_TEAM_WORLD, pe, SHMEM_TEAM_SHARED) >= 0;
        const char *want = local ? "shm" : argv[1];
        CHECK(strcmp(shmemx_transport_name(pe), want) == 0, "PE %d is reached by %s, not %s", pe,
              shmemx_transport_name(pe), want);
    }
    if (me == 0) {
        printf("transports:");
        for (int pe = 0; pe < n; pe++)
            printf(" %s", shmemx_transport_name(pe));
        printf("\n");
    }
    shmem_finalize();
    return 0;
}
