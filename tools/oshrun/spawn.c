/*
 * Starting a PE: here with the bootstrap variables in its environment, or on
 * another host as "AGENT HOST env VARS... program args". The secret never
 * appears on a command line: a remote PE reads it from its stdin.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "boot/boot_wire.h"
#include "oshrun.h"

extern char **environ;

/* SHMEM_*, UCX_*, OSHM_* and the -x names travel to remote PEs. */
static bool forwarded(const char *entry)
{
    if (!strncmp(entry, "SHMEM_", 6) || !strncmp(entry, "UCX_", 4) ||
        !strncmp(entry, "OSHM_", 5))
        return true;
    size_t n = strcspn(entry, "=");
    for (int i = 0; i < opt.nforward; i++)
        if (strlen(opt.forward_vars[i]) == n && !strncmp(entry, opt.forward_vars[i], n))
            return true;
    return false;
}

/* The agent's words, the host, then env with the bootstrap variables and
 * the forwarded ones. */
struct remote_cmd {
    char **argv;
    char *agent;    /* the agent's words point into it */
    char *owned[8]; /* the bootstrap variables, the --bound-exec words */
};

static void free_remote_cmd(struct remote_cmd *c)
{
    free(c->argv);
    free(c->agent);
    for (int i = 0; i < 8; i++)
        free(c->owned[i]);
    memset(c, 0, sizeof *c);
}

static int remote_argv(struct remote_cmd *c, const struct host *h, int rank, const char *addr)
{
    size_t nenv = 0, nprog = 0, n = 0;
    for (char **e = environ; *e; e++)
        nenv += forwarded(*e);
    while (opt.prog[nprog])
        nprog++;
    c->agent = strdup(opt.launch_agent);
    c->argv = calloc(strlen(opt.launch_agent) / 2 + 2 + 4 + 5 + nenv + 9 + nprog + 1,
                     sizeof *c->argv);
    if (!c->agent || !c->argv)
        return -1;
    for (char *w = strtok(c->agent, " \t"); w; w = strtok(NULL, " \t"))
        c->argv[n++] = w;
    c->argv[n++] = h->name;
    c->argv[n++] = "env";
    if (opt.wdir) {
        c->argv[n++] = "-C";
        c->argv[n++] = (char *)opt.wdir;
    }
    char buf[512];
    snprintf(buf, sizeof buf, "%s=%s", OSHRUN_ENV_ADDR, addr);
    c->argv[n++] = c->owned[0] = strdup(buf);
    snprintf(buf, sizeof buf, "%s=%d", OSHRUN_ENV_RANK, rank);
    c->argv[n++] = c->owned[1] = strdup(buf);
    snprintf(buf, sizeof buf, "%s=%d", OSHRUN_ENV_SIZE, opt.npes);
    c->argv[n++] = c->owned[2] = strdup(buf);
    snprintf(buf, sizeof buf, "%s=0", OSHRUN_ENV_SECRET_FD);
    c->argv[n++] = c->owned[3] = strdup(buf);
    snprintf(buf, sizeof buf, "%s=%s", OSHRUN_ENV_JOB, job_id_hex);
    c->argv[n++] = c->owned[7] = strdup(buf);
    for (int i = 0; i < 4; i++)
        if (!c->owned[i] || !c->owned[7])
            return -1;
    for (char **e = environ; *e; e++)
        if (forwarded(*e))
            c->argv[n++] = *e;
    if (bind_remote()) {
        /* oshrun at the same path there binds the PE with that host's topology */
        static char self[4096];
        if (!self[0] && readlink("/proc/self/exe", self, sizeof self - 1) < 0)
            return -1;
        c->argv[n++] = self;
        c->argv[n++] = "--bound-exec";
        snprintf(buf, sizeof buf, "%d", (int)opt.bind);
        c->argv[n++] = c->owned[4] = strdup(buf);
        snprintf(buf, sizeof buf, "%d", (int)opt.map);
        c->argv[n++] = c->owned[5] = strdup(buf);
        c->argv[n++] = opt.oversubscribe || opt.bind_overload
                           ? (opt.report_bindings ? "or" : "o")
                           : (opt.report_bindings ? "r" : "-");
        snprintf(buf, sizeof buf, "%d %d %d", host_index(rank), host_pe_count(rank), rank);
        c->owned[6] = strdup(buf);
        if (!c->owned[4] || !c->owned[5] || !c->owned[6])
            return -1;
        for (char *w = strtok(c->owned[6], " "); w; w = strtok(NULL, " "))
            c->argv[n++] = w;
        c->argv[n++] = "--";
    }
    for (size_t i = 0; i < nprog; i++)
        c->argv[n++] = opt.prog[i];
    c->argv[n] = NULL;
    return 0;
}

/* In the child: never returns. */
static _Noreturn void exec_pe(int rank, bool remote, char **argv, const char *addr,
                              const sigset_t *oldmask, pid_t parent, int out, int err, int in)
{
    /* A PE never outlives its launcher. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        _exit(1);
    sigprocmask(SIG_SETMASK, oldmask, NULL);
    dup2(out, 1);
    dup2(err, 2);
    /* oshrun's stderr queues for its poll loop (output.c), which this
     * process no longer runs: its few words go to the PE's pipe. */
    FILE *err_stream = fdopen(2, "w");
    if (err_stream) {
        setvbuf(err_stream, NULL, _IONBF, 0);
        stderr = err_stream;
    }
    if (remote) {
        dup2(in, 0);
    } else if (rank != 0) {
        int devnull = open("/dev/null", O_RDONLY);
        if (devnull >= 0)
            dup2(devnull, 0);
    }
    if (!remote) {
        if (opt.wdir && chdir(opt.wdir) != 0) {
            fprintf(stderr, "oshrun: PE %d cannot start in %s: %s\n", rank, opt.wdir,
                    strerror(errno));
            _exit(127);
        }
        if (bind_apply(rank) != 0)
            _exit(127);
        char buf[32];
        setenv(OSHRUN_ENV_ADDR, addr, 1);
        setenv(OSHRUN_ENV_SECRET, job_secret, 1);
        setenv(OSHRUN_ENV_JOB, job_id_hex, 1);
        snprintf(buf, sizeof buf, "%d", rank);
        setenv(OSHRUN_ENV_RANK, buf, 1);
        snprintf(buf, sizeof buf, "%d", opt.npes);
        setenv(OSHRUN_ENV_SIZE, buf, 1);
    }
    execvp(remote ? argv[0] : opt.local_path, argv);
    fprintf(stderr, "oshrun: cannot run '%s': %s\n", argv[0], strerror(errno));
    _exit(127);
}

void spawn(int rank, const char *addr, const sigset_t *oldmask)
{
    const struct host *h = host_of(rank);
    bool remote = h && !h->local;
    struct remote_cmd cmd = {0};
    if (remote && remote_argv(&cmd, h, rank, addr) != 0) {
        fprintf(stderr, "oshrun: out of memory\n");
        free_remote_cmd(&cmd);
        job_end(1);
        return;
    }
    char **argv = remote ? cmd.argv : opt.prog;
    int outp[2] = {-1, -1}, errp[2] = {-1, -1}, inp[2] = {-1, -1};
    if (pipe2(outp, O_CLOEXEC) != 0 || pipe2(errp, O_CLOEXEC) != 0 ||
        (remote && pipe2(inp, O_CLOEXEC) != 0)) {
        perror("oshrun: pipe");
        for (int i = 0; i < 2; i++) {
            if (outp[i] >= 0)
                close(outp[i]);
            if (errp[i] >= 0)
                close(errp[i]);
        }
        free_remote_cmd(&cmd);
        job_end(1);
        return;
    }
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0)
        exec_pe(rank, remote, argv, addr, oldmask, parent, outp[1], errp[1], inp[0]);
    free_remote_cmd(&cmd);
    close(outp[1]);
    close(errp[1]);
    if (pid < 0) {
        perror("oshrun: fork");
        close(outp[0]);
        close(errp[0]);
        if (remote) {
            close(inp[0]);
            close(inp[1]);
        }
        job_end(1);
        return;
    }
    if (remote) {
        close(inp[0]);
        char line[BOOT_WIRE_SECRET_LEN + 2];
        snprintf(line, sizeof line, "%s\n", job_secret);
        if (boot_wire_write_all(inp[1], line, strlen(line)) != 0)
            fprintf(stderr, "oshrun: cannot hand the job secret to PE %d on %s\n", rank,
                    h->name);
        close(inp[1]);
    }
    pes[rank].pid = pid;
    pes[rank].running = true;
    pes[rank].out[0] = (struct outbuf){.fd = outp[0], .to = 1, .rank = rank};
    pes[rank].out[1] = (struct outbuf){.fd = errp[0], .to = 2, .rank = rank};
    bind_report(rank);
}
