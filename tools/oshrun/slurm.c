/*
 * Inside a Slurm allocation, oshrun does what mpirun does: the PEs run on
 * the allocation's nodes with its task counts. Slurm already knows how to
 * start them there and give them a PMIx server (src/boot/boot_pmix.c), so
 * oshrun becomes "srun --mpi=pmix" with its options translated.
 *
 * It applies when SLURM_JOB_ID and a node list are set (salloc's shell, an
 * sbatch script), no hosts were given, and oshrun is not itself a task of a
 * job step (SLURM_STEP_ID: a nested srun would wait for the step's own
 * resources). --no-srun or OSHRUN_NO_SRUN=1 keeps the launch here.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "oshrun.h"
#include "util/env_table.h"

static bool applies(void)
{
    const char *job = getenv("SLURM_JOB_ID");
    const char *nodes = getenv("SLURM_JOB_NODELIST");
    if (!nodes)
        nodes = getenv("SLURM_NODELIST");
    return job && *job && nodes && *nodes && !getenv("SLURM_STEP_ID") && !opt.nhosts &&
           !opt.no_srun;
}

static const char *cpu_bind(void)
{
    switch (opt.bind) {
    case BIND_NONE:
        return "none";
    case BIND_HWTHREAD:
        return "threads";
    case BIND_CORE:
        return "cores";
    case BIND_NUMA:
        return "ldoms";
    case BIND_SOCKET:
        return "sockets";
    default:
        return NULL; /* the cluster's TaskPluginParam decides, as for srun */
    }
}

void slurm_handover(void)
{
    if (!applies())
        return;
    const char *srun = getenv(OSHM_ENV_NAME(OSHRUN_SRUN));
    if (!srun || !*srun)
        srun = "srun";
    size_t nprog = 0;
    while (opt.prog[nprog])
        nprog++;
    char **argv = calloc(nprog + 16, sizeof *argv);
    char np[32], ppn[48], bind[64], wdir[4200], time[48];
    if (!argv) {
        fprintf(stderr, "oshrun: out of memory\n");
        exit(1);
    }
    size_t n = 0;
    argv[n++] = (char *)srun;
    argv[n++] = "--mpi=pmix";
    /* One PE failing ends the job, as oshrun's own launch does. */
    argv[n++] = "--kill-on-bad-exit=1";
    /* srun would take the allocation's task count (SLURM_NTASKS) over -N. */
    const char *nodes = getenv("SLURM_JOB_NUM_NODES");
    if (!nodes)
        nodes = getenv("SLURM_NNODES");
    long nnodes = nodes ? strtol(nodes, NULL, 10) : 0;
    if (opt.np_given || (opt.per_node && nnodes > 0)) {
        snprintf(np, sizeof np, "--ntasks=%ld",
                 opt.np_given ? (long)opt.npes : opt.per_node * nnodes);
        argv[n++] = np;
    }
    if (opt.per_node) {
        snprintf(ppn, sizeof ppn, "--ntasks-per-node=%d", opt.per_node);
        argv[n++] = ppn;
    }
    const char *level = cpu_bind();
    if (level || opt.report_bindings) {
        snprintf(bind, sizeof bind, "--cpu-bind=%s%s%s", opt.report_bindings ? "verbose" : "",
                 opt.report_bindings && level ? "," : "", level ? level : "");
        argv[n++] = bind;
    }
    if (opt.map == MAP_NODE)
        argv[n++] = "--distribution=cyclic";
    else if (opt.map != MAP_DEFAULT)
        argv[n++] = "--distribution=block";
    if (opt.oversubscribe)
        argv[n++] = "--overcommit";
    if (opt.tag != TAG_NONE)
        argv[n++] = "--label";
    /* srun's limit is in whole minutes; Slurm watches its nodes itself. */
    if (opt.timeout_s) {
        unsigned long minutes = (opt.timeout_s + 59) / 60;
        snprintf(time, sizeof time, "--time=%lu", minutes);
        argv[n++] = time;
        if (opt.timeout_s % 60)
            fprintf(stderr, "oshrun: srun limits a job step in whole minutes: --timeout %lu "
                            "becomes %s\n", opt.timeout_s, time);
    }
    if (opt.heartbeat_s)
        fprintf(stderr, "oshrun: --heartbeat is not passed to srun: Slurm notices nodes that "
                        "stop answering itself\n");
    if (opt.wdir) {
        snprintf(wdir, sizeof wdir, "--chdir=%s", opt.wdir);
        argv[n++] = wdir;
    }
    /* -x and -genv were set in this environment, which srun passes on. */
    for (size_t i = 0; i < nprog; i++)
        argv[n++] = opt.prog[i];
    argv[n] = NULL;
    if (getenv(OSHM_ENV_NAME(OSHRUN_VERBOSE))) {
        fprintf(stderr, "oshrun: inside Slurm job %s:", getenv("SLURM_JOB_ID"));
        for (size_t i = 0; i < n; i++)
            fprintf(stderr, " %s", argv[i]);
        fputc('\n', stderr);
    }
    execvp(srun, argv);
    fprintf(stderr, "oshrun: inside Slurm job %s, but cannot run %s: %s (--no-srun starts the "
                    "PEs here instead)\n", getenv("SLURM_JOB_ID"), srun, strerror(errno));
    exit(127);
}
