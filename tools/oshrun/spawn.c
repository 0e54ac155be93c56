/*
 * Starting a PE: here with the bootstrap variables in its environment, or on
 * another host as "AGENT HOST env VARS... program args". The secret never
 * appears on a command line: a remote PE reads it from its stdin.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
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

/* A PE's environment: oshrun's, with the bootstrap variables set. */
#define N_BOOT_VARS 5

/* (OSHM_ENV_NAME checks each name against the environment table in an
 * expression, which cannot initialize a static array.) */
static void boot_var_names(const char *names[N_BOOT_VARS])
{
    names[0] = OSHRUN_ENV_ADDR;
    names[1] = OSHRUN_ENV_SECRET;
    names[2] = OSHRUN_ENV_JOB;
    names[3] = OSHRUN_ENV_RANK;
    names[4] = OSHRUN_ENV_SIZE;
}

static bool is_boot_var(const char *entry, const char *const boot_vars[N_BOOT_VARS])
{
    size_t n = strcspn(entry, "=");
    for (size_t i = 0; i < N_BOOT_VARS; i++)
        if (strlen(boot_vars[i]) == n && !strncmp(entry, boot_vars[i], n))
            return true;
    return false;
}

/* What the child needs, all made before it exists: it shares oshrun's
 * memory until it execs (vfork), so it may only make system calls. */
struct child {
    int rank;
    bool remote;
    char *const *argv;
    const char *file;
    char **envp; /* NULL: oshrun's own (remote PEs) */
    char *owned[N_BOOT_VARS];
    const sigset_t *oldmask;
    pid_t parent;
    int out, err, in;
    bool bound;
    cpu_set_t mask;
    const char *oom_adj;
    size_t oom_adj_len;
    char bind_failed[256];
    /* Written by the child, read by oshrun once it runs again: the step
     * that failed and its errno. */
    volatile int failed_step;
    volatile int failed_errno;
};

enum { STEP_NONE, STEP_CHDIR, STEP_BIND, STEP_EXEC };

static void free_child(struct child *c)
{
    free(c->envp);
    for (size_t i = 0; i < N_BOOT_VARS; i++)
        free(c->owned[i]);
}

static int prepare_child(struct child *c, int rank, const char *addr)
{
    size_t n = 0;
    while (environ[n])
        n++;
    c->envp = calloc(n + N_BOOT_VARS + 1, sizeof *c->envp);
    if (!c->envp)
        return -1;
    const char *boot_vars[N_BOOT_VARS];
    boot_var_names(boot_vars);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!is_boot_var(environ[i], boot_vars))
            c->envp[k++] = environ[i];
    const char *values[N_BOOT_VARS] = {addr, job_secret, job_id_hex, NULL, NULL};
    char rank_s[16], size_s[16];
    snprintf(rank_s, sizeof rank_s, "%d", rank);
    snprintf(size_s, sizeof size_s, "%d", opt.npes);
    values[3] = rank_s;
    values[4] = size_s;
    for (size_t i = 0; i < N_BOOT_VARS; i++) {
        if (asprintf(&c->owned[i], "%s=%s", boot_vars[i], values[i]) < 0) {
            c->owned[i] = NULL;
            return -1;
        }
        c->envp[k++] = c->owned[i];
    }
    int b = bind_mask(rank, &c->mask, c->bind_failed, sizeof c->bind_failed);
    if (b < 0)
        return -1;
    c->bound = b == 1;
    c->oom_adj = resources_pe_oom_adj();
    c->oom_adj_len = c->oom_adj ? strlen(c->oom_adj) : 0;
    return 0;
}

static _Noreturn void child_failed(struct child *c, int step)
{
    c->failed_errno = errno;
    c->failed_step = step;
    _exit(127);
}

/* In the child: never returns. System calls only (vfork). */
static _Noreturn void exec_pe(struct child *c)
{
    /* A PE never outlives its launcher. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != c->parent)
        _exit(1);
    dup2(c->out, 1);
    dup2(c->err, 2);
    if (c->remote) {
        dup2(c->in, 0);
    } else if (c->rank != 0) {
        int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
        if (devnull >= 0)
            dup2(devnull, 0);
    }
    if (!c->remote) {
        if (opt.wdir && chdir(opt.wdir) != 0)
            child_failed(c, STEP_CHDIR);
        if (c->bound && sched_setaffinity(0, sizeof c->mask, &c->mask) != 0)
            child_failed(c, STEP_BIND);
        if (c->oom_adj) {
            int fd = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);
            if (fd >= 0) {
                (void)!write(fd, c->oom_adj, c->oom_adj_len);
                close(fd);
            }
        }
    }
    sigprocmask(SIG_SETMASK, c->oldmask, NULL);
    /* oshrun ignores SIGPIPE for itself; an ignored signal stays ignored
     * across exec, and a program must start as from a shell (its writes to
     * a closed pipe end it). */
    signal(SIGPIPE, SIG_DFL);
    if (c->envp)
        execvpe(c->file, c->argv, c->envp);
    else
        execvp(c->file, c->argv);
    child_failed(c, STEP_EXEC);
}

/* What a child that did not start said before, in the PE's stderr (its
 * pipe, which oshrun's poll loop reads, output.c). */
static void report_child(const struct child *c, int err)
{
    char line[768];
    const char *why = strerror(c->failed_errno);
    switch (c->failed_step) {
    case STEP_CHDIR:
        snprintf(line, sizeof line, "oshrun: PE %d cannot start in %s: %s\n", c->rank,
                 opt.wdir, why);
        break;
    case STEP_BIND:
        snprintf(line, sizeof line, "%s", c->bind_failed);
        break;
    case STEP_EXEC:
        snprintf(line, sizeof line, "oshrun: cannot run '%s': %s\n", c->argv[0], why);
        break;
    default:
        return;
    }
    (void)!write(err, line, strlen(line));
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
    struct child child = {.rank = rank,
                          .remote = remote,
                          .argv = argv,
                          .file = remote ? argv[0] : opt.local_path,
                          .oldmask = oldmask,
                          .parent = getpid(),
                          .out = outp[1],
                          .err = errp[1],
                          .in = inp[0]};
    pid_t pid = -1;
    if (remote || prepare_child(&child, rank, addr) == 0) {
        /* Not fork: the kernel neither copies oshrun's page tables for each
         * PE nor makes its pages copy-on-write (1,024 PEs from a parent of
         * 20 MB: 3.3 s and 0.9 s of the parent's CPU with fork, 2.0 and 0.2
         * with vfork; 1.8 ms less CPU in each child). */
        pid = vfork();
        if (pid == 0)
            exec_pe(&child);
        if (pid > 0)
            report_child(&child, errp[1]);
    } else {
        errno = ENOMEM;
    }
    free_child(&child);
    free_remote_cmd(&cmd);
    close(outp[1]);
    close(errp[1]);
    if (pid < 0) {
        perror("oshrun: cannot start a PE");
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
