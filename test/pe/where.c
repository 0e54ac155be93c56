/* Where a PE runs and what it was given, one line on stdout, for the
 * launcher option tests (test/oshrun_options_test.sh, test/slurm_test.sh):
 *   PE <me> of <n> cpus <Cpus_allowed_list> cwd <dir> var <$OSHT_VAR> host <$FAKE_HOST>
 * and, given an argument, that argument on stderr. */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    shmem_init();
    char line[512], cpus[256] = "?", cwd[1024] = "?";
    FILE *f = fopen("/proc/self/status", "r");
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "Cpus_allowed_list:", 18))
            sscanf(line + 18, "%255s", cpus);
    if (f)
        fclose(f);
    if (!getcwd(cwd, sizeof cwd))
        strcpy(cwd, "?");
    const char *v = getenv("OSHT_VAR"), *h = getenv("FAKE_HOST");
    printf("PE %d of %d cpus %s cwd %s var %s host %s\n", shmem_my_pe(), shmem_n_pes(), cpus,
           cwd, v ? v : "-", h ? h : "-");
    if (argc > 1)
        fprintf(stderr, "%s\n", argv[1]);
    shmem_finalize();
    return 0;
}
