/* Bad input to the OpenSHMEM 1.6 routines: each case must end the job
 * with an error that names the routine (test/v16_routines.cmake matches the
 * message), never crash or corrupt memory.
 *   v16_errors CASE */
#include <shmem.h>
#include <stdio.h>
#include <string.h>

static long target[64];

int main(int argc, char **argv)
{
    const char *c = argc > 1 ? argv[1] : "";
    long src[64] = {0};
    shmem_init();
    int n = shmem_n_pes();
    if (!strcmp(c, "ibput_stride")) /* dst below the block size: blocks would overlap */
        shmem_long_ibput(target, src, 2, 4, 3, 4, 0);
    else if (!strcmp(c, "ibget_stride"))
        shmem_ctx_ibget32(SHMEM_CTX_DEFAULT, src, target, 4, 1, 2, 2, 0);
    else if (!strcmp(c, "ibput_range")) /* the last block lies past every segment */
        shmem_long_ibput(target, src, (ptrdiff_t)1 << 40, 1, 1, 2, 0);
    else if (!strcmp(c, "ibput_wrap")) /* a stride whose bytes wrap around */
        shmem_long_ibput(target, src, (ptrdiff_t)1 << 61, 1, 1, 2, 0);
    else if (!strcmp(c, "pe_quiet_pe"))
        shmem_pe_quiet((int[]){0, n}, 2);
    else if (!strcmp(c, "pe_quiet_null"))
        shmem_pe_quiet(NULL, 1);
    else if (!strcmp(c, "signal_add_pe"))
        shmem_signal_add((uint64_t *)target, 1, n + 3);
    else if (!strcmp(c, "session_config"))
        shmem_ctx_session_start(SHMEM_CTX_DEFAULT, SHMEM_CTX_SESSION_BATCH, NULL,
                                SHMEM_CTX_SESSION_TOTAL_OPS);
    else if (!strcmp(c, "scan_team"))
        shmem_long_sum_inscan(SHMEM_TEAM_INVALID, target, target, 4);
    printf("no error for case '%s'\n", c);
    shmem_finalize();
    return 0;
}
