/*
 * The trace's merge (SHMEM_PROFILE=trace, man oshm_prof): each PE writes
 * its trace.pe<N>.json at shmem_finalize, and oshrun merges them into
 * trace.json once every PE has ended, so that a job whose PE failed still
 * leaves the traces of those that finished merged. The PEs learn it from
 * OSHM_TRACE_MERGE_DIR and PE 0 leaves the merge to oshrun (src/prof/
 * report.c); under mpirun or srun PE 0 merges, into the same file.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "oshrun.h"
#include "prof/prof_files.h"
#include "util/env_table.h"

static char *merge_dir; /* absolute; NULL: no merge here */
static struct timespec launched;

void profile_prepare(void)
{
    const char *mode = getenv(OSHM_ENV_NAME(SHMEM_PROFILE));
    if (!mode || strcasecmp(mode, "trace") != 0)
        return;
    const char *dir = getenv(OSHM_ENV_NAME(SHMEM_PROFILE_DIR));
    if (!dir || !*dir)
        dir = "oshm-profile"; /* the library's default for a trace */
    /* The PEs' directory: a relative one is under their working directory. */
    char path[4096];
    if (dir[0] != '/' && opt.wdir)
        snprintf(path, sizeof path, "%s/%s", opt.wdir, dir);
    else
        snprintf(path, sizeof path, "%s", dir);
    /* One the PEs cannot make either: they say so, and nothing is merged. */
    if (prof_make_dir(path) != 0 || !(merge_dir = realpath(path, NULL)))
        return;
    setenv(OSHM_ENV_NAME(OSHM_TRACE_MERGE_DIR), merge_dir, 1);
    /* The file system's clock: a trace written after the launch is never
     * older than this; one that is, is an earlier run's. */
    clock_gettime(CLOCK_REALTIME_COARSE, &launched);
}

void profile_merge(void)
{
    if (!merge_dir)
        return;
    char out[4096 + 16];
    snprintf(out, sizeof out, "%s/trace.json", merge_dir);
    /* No PE reached shmem_finalize: no trace.json (the job's failure says why). */
    if (prof_merge_traces(merge_dir, opt.npes, out, &launched, stderr) < 0)
        fprintf(stderr, "oshrun: cannot write %s: %s\n", out, strerror(errno));
    free(merge_dir);
    merge_dir = NULL;
}
