/*
 * oshrun: the built-in launcher.
 *
 *   oshrun -np N [--host H[:SLOTS],...] [-x VAR[=VALUE]]... [--] program [args...]
 *
 * Starts N PEs, on this machine or, given hosts, on each host in turn
 * through a launch agent (ssh by default; "ip netns exec" for network
 * namespaces). Serves their bootstrap (rank, size, allgather) on a private
 * abstract unix socket, or on TCP when a PE runs elsewhere, guarded by a
 * per-job secret; forwards their output line by line, and ends the job as
 * soon as one PE fails: the others get SIGTERM, then SIGKILL one second
 * later. Exits with the first failure's status (128+signal for a PE killed
 * by a signal), or 0.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "boot/boot_wire.h"

#define KILL_GRACE_MS 1000

struct outbuf {
    int fd;       /* read end of the PE's pipe, -1 at EOF */
    int to;       /* 1 or 2 */
    size_t len;
    char data[8192];
};

struct pe {
    pid_t pid;
    bool running;
    bool connected;
    bool finalized;
    struct outbuf out[2];
};

struct conn {
    int fd;
    int rank; /* -1 until HELLO */
    char *gather;
    size_t gather_len;
    bool gathered;
};

/* Where PEs run: hosts in order, each with its number of slots. */
struct host {
    char *name;
    int slots;
    bool local;
};

static int npes;
static struct pe *pes;
static struct host *hosts;
static int nhosts;
static const char *launch_agent = "ssh";
static bool tcp_bootstrap;
static bool any_remote;            /* some host is not this machine */
static const char *bootstrap_addr; /* the address remote PEs connect to */
static char **forward_vars;        /* -x names, for remote PEs */
static int nforward;
static struct conn *conns;
static int nconns;
static char secret[BOOT_WIRE_SECRET_LEN + 1];
static int exit_status;
static bool ending;        /* the job is being torn down */
static struct timespec kill_deadline;
static int gathered_count;

static void usage(FILE *f)
{
    fprintf(f, "usage: oshrun -np N [options] [--] program [args...]\n"
               "  -np, -n, --np N        number of PEs to start (N >= 1)\n"
               "  -x VAR[=VALUE]         pass VAR to the PEs (set to VALUE if given)\n"
               "  -H, --host H[:S],...   run PEs on these hosts, S (default 1) on each in\n"
               "                         turn; -np defaults to the sum of the slots\n"
               "  --hostfile FILE        the same, one \"host [slots=S]\" per line\n"
               "  --launch-agent CMD     how to start a PE on another host: CMD HOST env\n"
               "                         VARS... program args (default \"ssh\"; e.g.\n"
               "                         \"ip netns exec\" for network namespaces)\n"
               "  --bootstrap unix|tcp   how PEs reach oshrun (tcp when a host is remote)\n"
               "  --bootstrap-addr IP    the address remote PEs reach oshrun at\n"
               "  --help                 this text\n"
               "Open MPI's --allow-run-as-root, --oversubscribe and --bind-to are accepted\n"
               "and ignored, so that scripts written for mpirun run unchanged.\n");
}

static long now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000L + t.tv_nsec / 1000000L;
}

static int rank_of_pid(pid_t pid)
{
    for (int i = 0; i < npes; i++)
        if (pes[i].pid == pid)
            return i;
    return -1;
}

/* Starts the teardown: every PE still running gets SIGTERM now, SIGKILL later. */
static void end_job(int status)
{
    if (!ending) {
        ending = true;
        exit_status = status;
        for (int i = 0; i < npes; i++)
            if (pes[i].running)
                kill(pes[i].pid, SIGTERM);
        clock_gettime(CLOCK_MONOTONIC, &kill_deadline);
        long ms = kill_deadline.tv_nsec / 1000000L + KILL_GRACE_MS;
        kill_deadline.tv_sec += ms / 1000;
        kill_deadline.tv_nsec = (ms % 1000) * 1000000L;
    }
}

static void flush_lines(struct outbuf *b, bool all)
{
    size_t start = 0;
    for (size_t i = 0; i < b->len; i++)
        if (b->data[i] == '\n') {
            boot_wire_write_all(b->to, b->data + start, i + 1 - start);
            start = i + 1;
        }
    /* A line longer than the buffer, or the tail at EOF, goes out as is. */
    if ((all || (start == 0 && b->len == sizeof b->data)) && start < b->len) {
        boot_wire_write_all(b->to, b->data + start, b->len - start);
        start = b->len;
    }
    memmove(b->data, b->data + start, b->len - start);
    b->len -= start;
}

static void read_output(struct outbuf *b)
{
    ssize_t n = read(b->fd, b->data + b->len, sizeof b->data - b->len);
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return;
    if (n <= 0) {
        flush_lines(b, true);
        close(b->fd);
        b->fd = -1;
        return;
    }
    b->len += (size_t)n;
    flush_lines(b, false);
}

static void drop_conn(int i)
{
    close(conns[i].fd);
    free(conns[i].gather);
    if (conns[i].gathered)
        gathered_count--;
    conns[i] = conns[--nconns];
}

static void complete_allgather(void)
{
    size_t total = 0;
    for (int i = 0; i < nconns; i++)
        if (conns[i].gathered)
            total += 8 + conns[i].gather_len;
    char *all = malloc(total ? total : 1);
    if (!all) {
        fprintf(stderr, "oshrun: out of memory\n");
        end_job(1);
        return;
    }
    size_t pos = 0;
    for (int r = 0; r < npes; r++)
        for (int i = 0; i < nconns; i++)
            if (conns[i].rank == r && conns[i].gathered) {
                uint64_t len = conns[i].gather_len;
                memcpy(all + pos, &len, 8);
                memcpy(all + pos + 8, conns[i].gather, len);
                pos += 8 + len;
            }
    struct boot_wire_hdr h = {.type = BOOT_WIRE_ALLGATHER, .len = total};
    for (int i = 0; i < nconns; i++) {
        if (!conns[i].gathered)
            continue;
        h.rank = (uint32_t)conns[i].rank;
        if (boot_wire_write_all(conns[i].fd, &h, sizeof h) != 0 ||
            boot_wire_write_all(conns[i].fd, all, total) != 0)
            fprintf(stderr, "oshrun: cannot send bootstrap data to PE %d\n", conns[i].rank);
        free(conns[i].gather);
        conns[i].gather = NULL;
        conns[i].gather_len = 0;
        conns[i].gathered = false;
    }
    gathered_count = 0;
    free(all);
}

static void describe_peer(int fd, char *out, size_t len);

/* Handles one message; returns -1 to drop the connection. */
static int serve(int i)
{
    struct conn *c = &conns[i];
    struct boot_wire_hdr h;
    if (boot_wire_read_all(c->fd, &h, sizeof h) != 0)
        return -1;
    if (h.len > BOOT_WIRE_MAX_PAYLOAD) {
        fprintf(stderr, "oshrun: refused a bootstrap message of %llu bytes\n",
                (unsigned long long)h.len);
        return -1;
    }
    char *payload = malloc(h.len + 1);
    if (!payload || boot_wire_read_all(c->fd, payload, h.len) != 0) {
        free(payload);
        return -1;
    }
    payload[h.len] = '\0';

    if (c->rank < 0) {
        /* The first message proves membership of the job. */
        if (h.type != BOOT_WIRE_HELLO || h.len != BOOT_WIRE_SECRET_LEN ||
            memcmp(payload, secret, BOOT_WIRE_SECRET_LEN) != 0 || (int)h.rank < 0 ||
            (int)h.rank >= npes || pes[h.rank].connected) {
            char who[96];
            describe_peer(c->fd, who, sizeof who);
            fprintf(stderr, "oshrun: refused a bootstrap connection from %s: "
                            "not a member of this job\n", who);
            free(payload);
            return -1;
        }
        c->rank = (int)h.rank;
        pes[c->rank].connected = true;
        free(payload);
        return 0;
    }

    switch (h.type) {
    case BOOT_WIRE_ALLGATHER:
        if (c->gathered) {
            fprintf(stderr, "oshrun: PE %d sent two contributions to one exchange\n", c->rank);
            free(payload);
            return -1;
        }
        c->gather = payload;
        c->gather_len = h.len;
        c->gathered = true;
        if (++gathered_count == npes)
            complete_allgather();
        return 0;
    case BOOT_WIRE_ABORT: {
        int32_t status = 1;
        if (h.len >= 4)
            memcpy(&status, payload, 4);
        if (!ending && status != 0)
            fprintf(stderr, "oshrun: PE %d called %s with status %d; ending the job\n",
                    c->rank, h.len > 4 ? payload + 4 : "abort", status);
        free(payload);
        end_job(status);
        return 0;
    }
    case BOOT_WIRE_FINALIZE:
        pes[c->rank].finalized = true;
        free(payload);
        return 0;
    default:
        fprintf(stderr, "oshrun: unknown bootstrap message %u from PE %d\n", h.type, c->rank);
        free(payload);
        return -1;
    }
}

static int serve(int i);
static void drop_conn(int i);

/* Serves whatever RANK sent before it exited. */
static void drain_conn_of(int rank)
{
    for (int c = 0; c < nconns; c++) {
        if (conns[c].rank != rank)
            continue;
        struct pollfd p = {.fd = conns[c].fd, .events = POLLIN};
        while (poll(&p, 1, 0) == 1 && (p.revents & POLLIN)) {
            if (serve(c) != 0) {
                drop_conn(c);
                break;
            }
        }
        return;
    }
}

static void reap(void)
{
    int status;
    pid_t pid;
    while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
        int r = rank_of_pid(pid);
        if (r < 0)
            continue;
        pes[r].running = false;
        /* What it sent before it ended (an abort, a finalize) may still be
         * queued: it decides how the exit is reported. */
        drain_conn_of(r);
        if (WIFSIGNALED(status)) {
            int sig = WTERMSIG(status);
            if (!ending) {
                fprintf(stderr, "oshrun: PE %d (pid %d) was killed by signal %d (%s); "
                                "ending the job\n", r, (int)pid, sig, strsignal(sig));
                end_job(128 + sig);
            }
        } else if (WIFEXITED(status)) {
            int code = WEXITSTATUS(status);
            if (code != 0 && !ending) {
                fprintf(stderr, "oshrun: PE %d (pid %d) exited with status %d; ending the job\n",
                        r, (int)pid, code);
                end_job(code);
            } else if (code == 0 && pes[r].connected && !pes[r].finalized && !ending) {
                fprintf(stderr, "oshrun: PE %d (pid %d) exited without shmem_finalize; "
                                "ending the job\n", r, (int)pid);
                end_job(1);
            }
        }
    }
}

static int parse_np(const char *v)
{
    char *end;
    errno = 0;
    long n = v ? strtol(v, &end, 10) : 0;
    if (!v || errno || *end || n < 1 || n > 65536) {
        fprintf(stderr, "oshrun: the number of PEs must be a whole number from 1 to 65536, "
                        "not '%s'\n", v ? v : "");
        exit(2);
    }
    return (int)n;
}

static int listen_socket(char *addr, size_t addrlen)
{
    unsigned char rnd[8];
    if (getrandom(rnd, sizeof rnd, 0) != (ssize_t)sizeof rnd)
        return -1;
    snprintf(addr, addrlen, "@oshrun-%d-%02x%02x%02x%02x%02x%02x%02x%02x", (int)getpid(),
             rnd[0], rnd[1], rnd[2], rnd[3], rnd[4], rnd[5], rnd[6], rnd[7]);
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    size_t len = strlen(addr);
    memcpy(sa.sun_path, addr, len);
    sa.sun_path[0] = '\0'; /* abstract: no file to leave behind */
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0 ||
        bind(fd, (struct sockaddr *)&sa, (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len)) != 0 ||
        listen(fd, 1024) != 0)
        return -1;
    return fd;
}

/* A PE elsewhere reaches this address: the one given, else this host's
 * first non-loopback IPv4 address that is up. */
static int pick_bootstrap_addr(char *ip, size_t len)
{
    if (bootstrap_addr) {
        snprintf(ip, len, "%s", bootstrap_addr);
        return 0;
    }
    if (!any_remote) {
        snprintf(ip, len, "127.0.0.1");
        return 0;
    }
    struct ifaddrs *ifs, *i;
    if (getifaddrs(&ifs) != 0)
        return -1;
    int rc = -1;
    for (i = ifs; i && rc != 0; i = i->ifa_next)
        if (i->ifa_addr && i->ifa_addr->sa_family == AF_INET && (i->ifa_flags & IFF_UP) &&
            !(i->ifa_flags & IFF_LOOPBACK) &&
            inet_ntop(AF_INET, &((struct sockaddr_in *)i->ifa_addr)->sin_addr, ip,
                      (socklen_t)len))
            rc = 0;
    freeifaddrs(ifs);
    return rc;
}

/* TCP: listens on every interface (a remote PE may come from any), at a
 * port the kernel picks; ADDR becomes "tcp:IP:PORT". */
static int listen_tcp(char *addr, size_t addrlen)
{
    char ip[INET_ADDRSTRLEN + 1];
    if (pick_bootstrap_addr(ip, sizeof ip) != 0) {
        fprintf(stderr, "oshrun: no network address for the bootstrap; give one with "
                        "--bootstrap-addr\n");
        return -1;
    }
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_ANY)};
    socklen_t salen = sizeof sa;
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(fd, 1024) != 0 ||
        getsockname(fd, (struct sockaddr *)&sa, &salen) != 0)
        return -1;
    snprintf(addr, addrlen, "tcp:%s:%u", ip, (unsigned)ntohs(sa.sin_port));
    return fd;
}

/* Who is at the other end of a refused connection, for the log. */
static void describe_peer(int fd, char *out, size_t len)
{
    struct sockaddr_storage ss;
    socklen_t sl = sizeof ss;
    snprintf(out, len, "an unknown peer");
    if (getsockname(fd, (struct sockaddr *)&ss, &sl) != 0)
        return;
    if (ss.ss_family == AF_UNIX) {
        struct ucred cred = {0};
        socklen_t cl = sizeof cred;
        getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &cl);
        snprintf(out, len, "pid %d", (int)cred.pid);
    } else if (ss.ss_family == AF_INET) {
        struct sockaddr_in pa;
        socklen_t pl = sizeof pa;
        char ip[INET_ADDRSTRLEN] = "?";
        if (getpeername(fd, (struct sockaddr *)&pa, &pl) == 0)
            inet_ntop(AF_INET, &pa.sin_addr, ip, sizeof ip);
        snprintf(out, len, "%s port %u", ip, (unsigned)ntohs(pa.sin_port));
    }
}

static void make_secret(void)
{
    unsigned char rnd[BOOT_WIRE_SECRET_LEN / 2];
    if (getrandom(rnd, sizeof rnd, 0) != (ssize_t)sizeof rnd) {
        perror("oshrun: getrandom");
        exit(1);
    }
    for (size_t i = 0; i < sizeof rnd; i++)
        snprintf(secret + 2 * i, 3, "%02x", rnd[i]);
}

/* The host of RANK: hosts fill in order, SLOTS PEs each. */
static const struct host *host_of(int rank)
{
    int r = rank;
    for (int h = 0; h < nhosts; h++) {
        if (r < hosts[h].slots)
            return &hosts[h];
        r -= hosts[h].slots;
    }
    return NULL; /* this machine */
}

static bool forwarded(const char *entry)
{
    if (!strncmp(entry, "SHMEM_", 6) || !strncmp(entry, "UCX_", 4) ||
        !strncmp(entry, "OSHM_", 5))
        return true;
    size_t n = strcspn(entry, "=");
    for (int i = 0; i < nforward; i++)
        if (strlen(forward_vars[i]) == n && !strncmp(entry, forward_vars[i], n))
            return true;
    return false;
}

extern char **environ;

/* The command that starts RANK on a remote host: the agent's words, the
 * host, then env with the bootstrap variables and the forwarded ones. The
 * secret never appears on a command line: the PE reads it from its stdin. */
struct remote_cmd {
    char **argv;
    char *agent;    /* the agent's words point into it */
    char *owned[4]; /* the bootstrap variables */
};

static void free_remote_cmd(struct remote_cmd *c)
{
    free(c->argv);
    free(c->agent);
    for (int i = 0; i < 4; i++)
        free(c->owned[i]);
    memset(c, 0, sizeof *c);
}

static int remote_argv(struct remote_cmd *c, const struct host *h, int rank, char **prog,
                       const char *addr)
{
    size_t nenv = 0, nprog = 0, n = 0;
    for (char **e = environ; *e; e++)
        nenv += forwarded(*e);
    while (prog[nprog])
        nprog++;
    c->agent = strdup(launch_agent);
    c->argv = calloc(strlen(launch_agent) / 2 + 2 + 2 + 4 + nenv + nprog + 1, sizeof *c->argv);
    if (!c->agent || !c->argv)
        return -1;
    for (char *w = strtok(c->agent, " \t"); w; w = strtok(NULL, " \t"))
        c->argv[n++] = w;
    c->argv[n++] = h->name;
    c->argv[n++] = "env";
    char buf[512];
    snprintf(buf, sizeof buf, "%s=%s", OSHRUN_ENV_ADDR, addr);
    c->argv[n++] = c->owned[0] = strdup(buf);
    snprintf(buf, sizeof buf, "%s=%d", OSHRUN_ENV_RANK, rank);
    c->argv[n++] = c->owned[1] = strdup(buf);
    snprintf(buf, sizeof buf, "%s=%d", OSHRUN_ENV_SIZE, npes);
    c->argv[n++] = c->owned[2] = strdup(buf);
    snprintf(buf, sizeof buf, "%s=0", OSHRUN_ENV_SECRET_FD);
    c->argv[n++] = c->owned[3] = strdup(buf);
    for (int i = 0; i < 4; i++)
        if (!c->owned[i])
            return -1;
    for (char **e = environ; *e; e++)
        if (forwarded(*e))
            c->argv[n++] = *e;
    for (size_t i = 0; i < nprog; i++)
        c->argv[n++] = prog[i];
    c->argv[n] = NULL;
    return 0;
}

static void spawn(int rank, char **prog, const char *addr, const sigset_t *oldmask)
{
    const struct host *h = host_of(rank);
    bool remote = h && !h->local;
    struct remote_cmd cmd = {0};
    if (remote && remote_argv(&cmd, h, rank, prog, addr) != 0) {
        fprintf(stderr, "oshrun: out of memory\n");
        free_remote_cmd(&cmd);
        end_job(1);
        return;
    }
    char **argv = remote ? cmd.argv : prog;
    int outp[2], errp[2], inp[2] = {-1, -1};
    if (pipe2(outp, O_CLOEXEC) != 0 || pipe2(errp, O_CLOEXEC) != 0 ||
        (remote && pipe2(inp, O_CLOEXEC) != 0)) {
        perror("oshrun: pipe");
        free_remote_cmd(&cmd);
        end_job(1);
        return;
    }
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        perror("oshrun: fork");
        free_remote_cmd(&cmd);
        end_job(1);
        return;
    }
    if (pid == 0) {
        /* A PE never outlives its launcher. */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(1);
        sigprocmask(SIG_SETMASK, oldmask, NULL);
        dup2(outp[1], 1);
        dup2(errp[1], 2);
        if (remote) {
            dup2(inp[0], 0);
        } else if (rank != 0) {
            int devnull = open("/dev/null", O_RDONLY);
            if (devnull >= 0)
                dup2(devnull, 0);
        }
        if (!remote) {
            char buf[32];
            setenv(OSHRUN_ENV_ADDR, addr, 1);
            setenv(OSHRUN_ENV_SECRET, secret, 1);
            snprintf(buf, sizeof buf, "%d", rank);
            setenv(OSHRUN_ENV_RANK, buf, 1);
            snprintf(buf, sizeof buf, "%d", npes);
            setenv(OSHRUN_ENV_SIZE, buf, 1);
        }
        execvp(argv[0], argv);
        fprintf(stderr, "oshrun: cannot run '%s': %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    free_remote_cmd(&cmd);
    close(outp[1]);
    close(errp[1]);
    if (remote) {
        close(inp[0]);
        char line[BOOT_WIRE_SECRET_LEN + 2];
        snprintf(line, sizeof line, "%s\n", secret);
        if (boot_wire_write_all(inp[1], line, strlen(line)) != 0)
            fprintf(stderr, "oshrun: cannot hand the job secret to PE %d on %s\n", rank, h->name);
        close(inp[1]);
    }
    pes[rank].pid = pid;
    pes[rank].running = true;
    pes[rank].out[0] = (struct outbuf){.fd = outp[0], .to = 1};
    pes[rank].out[1] = (struct outbuf){.fd = errp[0], .to = 2};
}

static bool is_this_host(const char *name)
{
    char me[256] = "";
    gethostname(me, sizeof me - 1);
    size_t shortlen = strcspn(me, ".");
    return !strcmp(name, "localhost") || !strcmp(name, "127.0.0.1") || !strcmp(name, me) ||
           (strlen(name) == shortlen && !strncmp(name, me, shortlen));
}

static void add_host(const char *name, int slots)
{
    struct host *grown = realloc(hosts, (size_t)(nhosts + 1) * sizeof *hosts);
    if (!grown || slots < 1) {
        fprintf(stderr, "oshrun: bad host '%s' (%d slots)\n", name, slots);
        exit(2);
    }
    hosts = grown;
    hosts[nhosts++] = (struct host){.name = strdup(name), .slots = slots,
                                    .local = is_this_host(name)};
}

/* "a:2,b,c:4" */
static void parse_hosts(const char *list)
{
    char *copy = strdup(list);
    for (char *item = strtok(copy, ","); item; item = strtok(NULL, ",")) {
        char *colon = strrchr(item, ':');
        int slots = 1;
        if (colon) {
            *colon = '\0';
            slots = atoi(colon + 1);
        }
        add_host(item, slots);
    }
    free(copy);
}

/* Open MPI's form: "host [slots=N]" per line, # starts a comment. */
static void parse_hostfile(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "oshrun: cannot read the host file %s: %s\n", path, strerror(errno));
        exit(2);
    }
    char line[512];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "#\n")] = '\0';
        char name[256];
        int slots = 1;
        if (sscanf(line, "%255s", name) != 1)
            continue;
        const char *sl = strstr(line, "slots=");
        if (sl)
            slots = atoi(sl + 6);
        add_host(name, slots);
    }
    fclose(f);
}

int main(int argc, char **argv)
{
    int i = 1;
    bool np_given = false;
    const char *bootstrap = NULL;
    npes = 1;
    const char *env_agent = getenv("OSHRUN_LAUNCH_AGENT");
    if (env_agent && *env_agent)
        launch_agent = env_agent;
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-np") || !strcmp(a, "-n") || !strcmp(a, "--np") || !strcmp(a, "-N")) {
            npes = parse_np(i + 1 < argc ? argv[++i] : NULL);
            np_given = true;
        } else if (!strncmp(a, "-np=", 4) || !strncmp(a, "--np=", 5)) {
            npes = parse_np(strchr(a, '=') + 1);
            np_given = true;
        } else if ((!strcmp(a, "-H") || !strcmp(a, "--host") || !strcmp(a, "--hostfile") ||
                    !strcmp(a, "--launch-agent") || !strcmp(a, "--bootstrap") ||
                    !strcmp(a, "--bootstrap-addr")) && i + 1 >= argc) {
            fprintf(stderr, "oshrun: %s needs a value\n", a);
            return 2;
        } else if (!strcmp(a, "-H") || !strcmp(a, "--host")) {
            parse_hosts(argv[++i]);
        } else if (!strcmp(a, "--hostfile")) {
            parse_hostfile(argv[++i]);
        } else if (!strcmp(a, "--launch-agent")) {
            launch_agent = argv[++i];
        } else if (!strcmp(a, "--bootstrap")) {
            bootstrap = argv[++i];
            if (strcmp(bootstrap, "unix") && strcmp(bootstrap, "tcp")) {
                fprintf(stderr, "oshrun: --bootstrap is unix or tcp, not '%s'\n", bootstrap);
                return 2;
            }
        } else if (!strcmp(a, "--bootstrap-addr")) {
            bootstrap_addr = argv[++i];
        } else if (!strcmp(a, "-x")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "oshrun: -x needs VAR or VAR=VALUE\n");
                return 2;
            }
            char *v = argv[++i], *eq = strchr(v, '=');
            if (eq) {
                *eq = '\0';
                setenv(v, eq + 1, 1);
            }
            char **grown = realloc(forward_vars, (size_t)(nforward + 1) * sizeof *grown);
            if (!grown)
                return 1;
            forward_vars = grown;
            forward_vars[nforward++] = v;
        } else if (!strcmp(a, "--allow-run-as-root") || !strcmp(a, "--oversubscribe")) {
            /* accepted for mpirun compatibility */
        } else if (!strcmp(a, "--bind-to") || !strcmp(a, "--map-by")) {
            i++;
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--")) {
            i++;
            break;
        } else if (a[0] == '-') {
            fprintf(stderr, "oshrun: unknown option '%s'\n", a);
            usage(stderr);
            return 2;
        } else {
            break;
        }
    }
    if (i >= argc) {
        fprintf(stderr, "oshrun: no program to run\n");
        usage(stderr);
        return 2;
    }
    char **prog = &argv[i];
    int slots = 0;
    for (int h = 0; h < nhosts; h++) {
        slots += hosts[h].slots;
        any_remote |= !hosts[h].local;
    }
    if (nhosts && !np_given)
        npes = slots;
    if (nhosts && npes > slots) {
        fprintf(stderr, "oshrun: %d PEs do not fit in the %d slots of the hosts given\n", npes,
                slots);
        return 2;
    }
    if (any_remote && bootstrap && !strcmp(bootstrap, "unix")) {
        fprintf(stderr, "oshrun: PEs on other hosts need --bootstrap tcp\n");
        return 2;
    }
    tcp_bootstrap = any_remote || (bootstrap && !strcmp(bootstrap, "tcp"));

    /* Signals arrive through a descriptor, in the loop, never mid-update. */
    sigset_t mask, oldmask;
    sigemptyset(&mask);
    sigaddset(&mask, SIGCHLD);
    sigaddset(&mask, SIGINT);
    sigaddset(&mask, SIGTERM);
    sigaddset(&mask, SIGHUP);
    sigprocmask(SIG_BLOCK, &mask, &oldmask);
    signal(SIGPIPE, SIG_IGN);
    int sigfd = signalfd(-1, &mask, SFD_CLOEXEC);

    char addr[96];
    int lfd = tcp_bootstrap ? listen_tcp(addr, sizeof addr) : listen_socket(addr, sizeof addr);
    if (lfd < 0 || sigfd < 0) {
        perror("oshrun: cannot set up the bootstrap");
        return 1;
    }
    make_secret();
    pes = calloc((size_t)npes, sizeof *pes);
    conns = calloc((size_t)npes + 1, sizeof *conns);
    struct pollfd *pfd = calloc((size_t)npes * 3 + 3, sizeof *pfd);
    if (!pes || !conns || !pfd) {
        fprintf(stderr, "oshrun: out of memory\n");
        return 1;
    }
    for (int r = 0; r < npes && !ending; r++)
        spawn(r, prog, addr, &oldmask);

    for (;;) {
        bool alive = false;
        for (int r = 0; r < npes; r++)
            if (pes[r].running || pes[r].out[0].fd >= 0 || pes[r].out[1].fd >= 0)
                alive = true;
        if (!alive)
            break;

        int n = 0;
        pfd[n++] = (struct pollfd){.fd = sigfd, .events = POLLIN};
        pfd[n++] = (struct pollfd){.fd = lfd, .events = POLLIN};
        int conn_base = n;
        for (int c = 0; c < nconns; c++)
            pfd[n++] = (struct pollfd){.fd = conns[c].fd, .events = POLLIN};
        int out_base = n;
        for (int r = 0; r < npes; r++)
            for (int k = 0; k < 2; k++)
                pfd[n++] = (struct pollfd){.fd = pes[r].out[k].fd, .events = POLLIN};

        int timeout = -1;
        if (ending) {
            long left = kill_deadline.tv_sec * 1000L + kill_deadline.tv_nsec / 1000000L - now_ms();
            timeout = left > 0 ? (int)left : 0;
        }
        int ready = poll(pfd, (nfds_t)n, timeout);
        if (ready < 0 && errno != EINTR) {
            perror("oshrun: poll");
            end_job(1);
        }
        if (ending && timeout == 0) {
            for (int r = 0; r < npes; r++)
                if (pes[r].running)
                    kill(pes[r].pid, SIGKILL);
            kill_deadline.tv_sec += 1; /* and again in a second, not in a busy loop */
        }
        if (ready <= 0)
            continue;

        if (pfd[0].revents & POLLIN) {
            struct signalfd_siginfo si;
            while (read(sigfd, &si, sizeof si) == (ssize_t)sizeof si) {
                if (si.ssi_signo == SIGCHLD) {
                    reap();
                } else if (!ending) {
                    fprintf(stderr, "oshrun: received signal %u (%s); ending the job\n",
                            si.ssi_signo, strsignal((int)si.ssi_signo));
                    end_job(128 + (int)si.ssi_signo);
                }
                break;
            }
        }
        for (int r = 0; r < npes; r++)
            for (int k = 0; k < 2; k++) {
                struct pollfd *p = &pfd[out_base + 2 * r + k];
                if (p->fd >= 0 && (p->revents & (POLLIN | POLLHUP | POLLERR)))
                    read_output(&pes[r].out[k]);
            }
        /* Serve from the end, so that a dropped connection's slot is not revisited. */
        for (int c = nconns - 1; c >= 0; c--) {
            struct pollfd *p = &pfd[conn_base + c];
            if (p->revents & (POLLIN | POLLHUP | POLLERR))
                if (serve(c) != 0)
                    drop_conn(c);
        }
        if ((pfd[1].revents & POLLIN) && nconns <= npes) {
            int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
            if (fd >= 0) {
                /* A connection that stalls must not stall the job. */
                struct timeval tv = {.tv_sec = 10};
                setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
                if (tcp_bootstrap) {
                    int one = 1;
                    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
                }
                conns[nconns++] = (struct conn){.fd = fd, .rank = -1};
            }
        }
    }
    while (nconns)
        drop_conn(nconns - 1);
    free(pfd);
    free(conns);
    free(pes);
    for (int h = 0; h < nhosts; h++)
        free(hosts[h].name);
    free(hosts);
    free(forward_vars);
    close(lfd);
    close(sigfd);
    return exit_status;
}
