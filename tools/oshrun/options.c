/*
 * The command line, with Open MPI's meanings and hydra's spellings as
 * aliases. Every option has one entry in the table below; a long name is
 * taken with one dash or two, and "--name=value" as well as "--name value".
 * Anything else is refused by name.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "oshrun.h"
#include "util/env_table.h"
#include "shmem/shmem.h"

struct options opt = {.npes = 1, .launch_agent = "ssh"};

static void usage(FILE *f)
{
    fprintf(f,
        "usage: oshrun [options] [--] program [args...]\n"
        "PEs:\n"
        "  -n, -np, --np N           start N PEs in all (default: 1, or the slots of\n"
        "                            the hosts given, or -N on each host)\n"
        "  -N, --npernode, -ppn N    start N PEs on each host\n"
        "  --pernode                 one PE on each host (-N 1)\n"
        "  -H, --host, -hosts H[:S],...\n"
        "                            run PEs on these hosts, S slots (default 1) each\n"
        "  --hostfile, --machinefile, -f FILE\n"
        "                            the same, one \"host [slots=S]\" per line\n"
        "  --map-by slot|core|hwthread|numa|socket|node\n"
        "                            how PEs are spread: node deals them to the hosts\n"
        "                            in turn, the others fill each host's slots first\n"
        "                            and, on this machine, choose the cores in order\n"
        "                            (core, hwthread) or dealt to NUMA domains or\n"
        "                            sockets in turn (numa, socket)\n"
        "  --oversubscribe           allow more PEs than slots on a host, and than\n"
        "                            cores when binding\n"
        "Binding (default, on this machine: core for 1 or 2 PEs, numa beyond, none\n"
        "when the PEs outnumber the cores):\n"
        "  --bind-to none|hwthread|core|numa|socket[:overload-allowed]\n"
        "                            also binds PEs on other hosts, through oshrun\n"
        "                            at the same path there\n"
        "  --report-bindings         print each PE's binding on stderr\n"
        "Environment, directory, output:\n"
        "  -x VAR[=VALUE]            pass VAR to the PEs (set to VALUE if given)\n"
        "  -genv, -env VAR VALUE     set VAR to VALUE for the PEs\n"
        "  -genvlist VAR,...         pass these variables to the PEs\n"
        "  -wdir, -wd, --wdir DIR    start the PEs in DIR\n"
        "  --tag-output              prefix each line with [1,PE]<stdout>: or <stderr>:\n"
        "  -l, -prepend-rank         prefix each line with [PE]\n"
        "Launch:\n"
        "  --launch-agent CMD        how to start a PE on another host: CMD HOST env\n"
        "                            VARS... program args (default \"ssh\"; e.g.\n"
        "                            \"ip netns exec\" for network namespaces)\n"
        "  --bootstrap unix|tcp      how PEs reach oshrun (tcp when a host is remote)\n"
        "  --bootstrap-addr IP       the address remote PEs reach oshrun at\n"
        "  --no-srun                 inside a Slurm allocation, start the PEs here\n"
        "                            instead of through srun --mpi=pmix\n"
        "Liveness:\n"
        "  --timeout S               end the job after S seconds (exit status 124),\n"
        "                            saying what each PE still running was doing\n"
        "                            (default: SHMEM_TIMEOUT, or no limit)\n"
        "  --heartbeat S             end the job when a PE has not answered for S\n"
        "                            seconds: stopped, or its node hangs (default:\n"
        "                            SHMEM_HEARTBEAT, or not watched)\n"
        "  --allow-run-as-root       accepted (oshrun runs as root without it)\n"
        "  -V, --version             print the version\n"
        "  -h, --help                this text\n"
        "Older spellings taken too: -c (-np), --bind-to-core, --bynode, --byslot,\n"
        "--nooversubscribe, -machine (-f), -envlist (-genvlist).\n"
        "A program named without '/' is looked for in PATH, then in the working\n"
        "directory. Inside a Slurm allocation (SLURM_JOB_ID) and without --host,\n"
        "oshrun runs srun --mpi=pmix with the matching options.\n");
}

__attribute__((format(printf, 1, 2))) static _Noreturn void bad(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("oshrun: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(2);
}

/* SECONDS of WHAT ("--timeout"), 0 allowed: off. */
static unsigned long parse_seconds(const char *what, const char *v, unsigned long max)
{
    char *end;
    errno = 0;
    unsigned long n = strtoul(v, &end, 10);
    if (errno || *end || end == v || v[0] == '-' || n > max)
        bad("%s takes a whole number of seconds from 0 to %lu, not '%s'", what, max, v);
    return n;
}

/* WHAT: "the number of PEs", ... */
static int parse_count(const char *what, const char *v)
{
    char *end;
    errno = 0;
    long n = strtol(v, &end, 10);
    if (errno || *end || end == v || n < 1 || n > 65536)
        bad("%s must be a whole number from 1 to 65536, not '%s'", what, v);
    return (int)n;
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
    struct host *grown = realloc(opt.hosts, (size_t)(opt.nhosts + 1) * sizeof *grown);
    if (!grown || slots < 1 || !*name) {
        fprintf(stderr, "oshrun: bad host '%s' (%d slots)\n", name, slots);
        exit(2);
    }
    opt.hosts = grown;
    opt.hosts[opt.nhosts++] = (struct host){.name = strdup(name), .slots = slots,
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
            slots = parse_count("a host's number of slots", colon + 1);
        }
        add_host(item, slots);
    }
    free(copy);
}

/* Open MPI's form: "host [slots=N]" per line, # starts a comment; hydra's
 * "host:N" too. */
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
        if (sscanf(line, "%255s", name) != 1)
            continue;
        const char *sl = strstr(line, "slots=");
        if (sl) {
            char count[32] = "";
            sscanf(sl + 6, "%31[0-9]", count);
            add_host(name, parse_count("a host's number of slots", count));
        } else {
            parse_hosts(name);
        }
    }
    fclose(f);
}

static void forward_name(const char *name)
{
    char **grown = realloc(opt.forward_vars, (size_t)(opt.nforward + 1) * sizeof *grown);
    if (!grown) {
        fprintf(stderr, "oshrun: out of memory\n");
        exit(1);
    }
    opt.forward_vars = grown;
    opt.forward_vars[opt.nforward++] = strdup(name);
}

/* -x VAR or -x VAR=VALUE */
static void forward_var(const char *v)
{
    char *copy = strdup(v);
    char *eq = strchr(copy, '=');
    if (eq) {
        *eq = '\0';
        setenv(copy, eq + 1, 1);
    }
    if (!*copy)
        bad("-x takes VAR or VAR=VALUE, not '%s'", v);
    forward_name(copy);
    free(copy);
}

static enum bind_level parse_bind(const char *v)
{
    static const struct { const char *name; enum bind_level level; } levels[] = {
        {"none", BIND_NONE},   {"hwthread", BIND_HWTHREAD}, {"core", BIND_CORE},
        {"numa", BIND_NUMA},   {"socket", BIND_SOCKET},     {"package", BIND_SOCKET},
    };
    size_t n = strcspn(v, ":");
    if (v[n]) {
        if (strcmp(v + n, ":overload-allowed"))
            bad("--bind-to: oshrun does not take the qualifier '%s'", v + n + 1);
        opt.bind_overload = true;
    }
    for (size_t i = 0; i < sizeof levels / sizeof *levels; i++)
        if (strlen(levels[i].name) == n && !strncmp(v, levels[i].name, n))
            return levels[i].level;
    bad("--bind-to takes none, hwthread, core, numa or socket, not '%s'", v);
}

static enum map_by parse_map(const char *v)
{
    static const struct { const char *name; enum map_by map; } maps[] = {
        {"slot", MAP_SLOT}, {"core", MAP_CORE},     {"hwthread", MAP_HWTHREAD},
        {"numa", MAP_NUMA}, {"socket", MAP_SOCKET}, {"package", MAP_SOCKET},
        {"node", MAP_NODE},
    };
    size_t n = strcspn(v, ":");
    if (v[n]) {
        if (!strcasecmp(v + n, ":oversubscribe"))
            opt.oversubscribe = true;
        else if (strcasecmp(v + n, ":nooversubscribe"))
            bad("--map-by: oshrun does not take the qualifier '%s'", v + n + 1);
    }
    for (size_t i = 0; i < sizeof maps / sizeof *maps; i++)
        if (strlen(maps[i].name) == n && !strncasecmp(v, maps[i].name, n))
            return maps[i].map;
    bad("--map-by takes slot, core, hwthread, numa, socket or node, not '%s'", v);
}

enum opt_id {
    O_NP, O_PERNODE_N, O_PERNODE, O_HOST, O_HOSTFILE, O_X, O_GENV, O_GENVLIST, O_WDIR,
    O_TAG, O_PREPEND, O_REPORT, O_BIND, O_BIND_CORE, O_MAP, O_BYNODE, O_BYSLOT, O_OVERSUB,
    O_NOOVERSUB, O_ROOT, O_AGENT, O_BOOT, O_BOOTADDR, O_NOSRUN, O_TIMEOUT, O_HEARTBEAT,
    O_VERSION, O_HELP,
};

struct opt_def {
    const char *names; /* space-separated, without dashes */
    int nargs;
    enum opt_id id;
};

static const struct opt_def defs[] = {
    {"n np c", 1, O_NP},
    {"N npernode ppn", 1, O_PERNODE_N},
    {"pernode", 0, O_PERNODE},
    {"H host hosts", 1, O_HOST},
    {"hostfile machinefile f machine", 1, O_HOSTFILE},
    {"x", 1, O_X},
    {"genv env", 2, O_GENV},
    {"genvlist envlist", 1, O_GENVLIST},
    {"wdir wd", 1, O_WDIR},
    {"tag-output", 0, O_TAG},
    {"l prepend-rank", 0, O_PREPEND},
    {"report-bindings", 0, O_REPORT},
    {"bind-to", 1, O_BIND},
    {"bind-to-core", 0, O_BIND_CORE},
    {"map-by", 1, O_MAP},
    {"bynode", 0, O_BYNODE},
    {"byslot", 0, O_BYSLOT},
    {"oversubscribe", 0, O_OVERSUB},
    {"nooversubscribe", 0, O_NOOVERSUB},
    {"allow-run-as-root", 0, O_ROOT},
    {"launch-agent", 1, O_AGENT},
    {"bootstrap", 1, O_BOOT},
    {"bootstrap-addr", 1, O_BOOTADDR},
    {"no-srun", 0, O_NOSRUN},
    {"timeout", 1, O_TIMEOUT},
    {"heartbeat", 1, O_HEARTBEAT},
    {"V version", 0, O_VERSION},
    {"h help", 0, O_HELP},
};

/* The entry for "-name", "--name" or "--name=value" (VALUE set to after '='). */
static const struct opt_def *lookup(const char *arg, const char **value)
{
    const char *name = arg + 1;
    if (*name == '-')
        name++;
    size_t len = strcspn(name, "=");
    *value = name[len] == '=' ? name + len + 1 : NULL;
    for (size_t i = 0; i < sizeof defs / sizeof *defs; i++)
        for (const char *w = defs[i].names; *w;) {
            size_t wl = strcspn(w, " ");
            /* one-letter names only with one dash */
            if (wl == len && !strncmp(w, name, len) && (wl > 1 || name == arg + 1))
                return &defs[i];
            w += wl + (w[wl] == ' ');
        }
    return NULL;
}

static void print_version(void)
{
    printf("oshrun (oshm) %s\n"
           "OpenSHMEM specification %d.%d; launcher options with Open MPI %s's meanings\n",
           OSHM_VERSION, SHMEM_MAJOR_VERSION, SHMEM_MINOR_VERSION, "4.1");
}

void options_parse(int argc, char **argv)
{
    int i = 1;
    const char *bootstrap = NULL;
    const char *env_agent = getenv(OSHM_ENV_NAME(OSHRUN_LAUNCH_AGENT));
    if (env_agent && *env_agent)
        opt.launch_agent = env_agent;
    const char *env_bind = getenv(OSHM_ENV_NAME(OSHRUN_BIND_TO));
    if (env_bind && *env_bind)
        opt.bind = parse_bind(env_bind);
    const char *env_nosrun = getenv(OSHM_ENV_NAME(OSHRUN_NO_SRUN));
    opt.no_srun = env_nosrun && *env_nosrun && strcmp(env_nosrun, "0");
    const char *env_timeout = getenv(OSHM_ENV_NAME(SHMEM_TIMEOUT));
    if (env_timeout && *env_timeout)
        opt.timeout_s = parse_seconds(OSHM_ENV_NAME(SHMEM_TIMEOUT), env_timeout, 100000000);
    const char *env_heartbeat = getenv(OSHM_ENV_NAME(SHMEM_HEARTBEAT));
    if (env_heartbeat && *env_heartbeat)
        opt.heartbeat_s = parse_seconds(OSHM_ENV_NAME(SHMEM_HEARTBEAT), env_heartbeat, 100000);
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--")) {
            i++;
            break;
        }
        if (a[0] != '-' || !a[1])
            break;
        const char *inl;
        const struct opt_def *d = lookup(a, &inl);
        if (!d) {
            fprintf(stderr, "oshrun: unknown option '%s' (oshrun --help lists those it takes)\n",
                    a);
            exit(2);
        }
        if (inl && d->nargs != 1)
            bad("%s takes no '=value'", a);
        const char *v = inl, *v2 = NULL;
        if (d->nargs >= 1 && !v) {
            if (i + 1 >= argc)
                bad("%s needs a value", a);
            v = argv[++i];
        }
        if (d->nargs == 2) {
            if (i + 1 >= argc)
                bad("%s needs a variable and a value", a);
            v2 = argv[++i];
        }
        switch (d->id) {
        case O_NP:
            opt.npes = parse_count("the number of PEs", v);
            opt.np_given = true;
            break;
        case O_PERNODE_N:
            opt.per_node = parse_count("the number of PEs on each host", v);
            break;
        case O_PERNODE:
            opt.per_node = 1;
            break;
        case O_HOST:
            parse_hosts(v);
            break;
        case O_HOSTFILE:
            parse_hostfile(v);
            break;
        case O_X:
            forward_var(v);
            break;
        case O_GENV:
            setenv(v, v2, 1);
            forward_name(v);
            break;
        case O_GENVLIST: {
            char *copy = strdup(v);
            for (char *n = strtok(copy, ","); n; n = strtok(NULL, ","))
                forward_name(n);
            free(copy);
            break;
        }
        case O_WDIR:
            opt.wdir = v;
            break;
        case O_TAG:
            opt.tag = TAG_OMPI;
            break;
        case O_PREPEND:
            opt.tag = TAG_RANK;
            break;
        case O_REPORT:
            opt.report_bindings = true;
            break;
        case O_BIND:
            opt.bind = parse_bind(v);
            break;
        case O_BIND_CORE:
            opt.bind = BIND_CORE;
            break;
        case O_MAP:
            opt.map = parse_map(v);
            break;
        case O_BYNODE:
            opt.map = MAP_NODE;
            break;
        case O_BYSLOT:
            opt.map = MAP_SLOT;
            break;
        case O_OVERSUB:
            opt.oversubscribe = true;
            break;
        case O_NOOVERSUB:
            opt.oversubscribe = false;
            break;
        case O_ROOT:
            break;
        case O_AGENT:
            opt.launch_agent = v;
            break;
        case O_BOOT:
            if (strcmp(v, "unix") && strcmp(v, "tcp"))
                bad("--bootstrap is unix or tcp, not '%s'", v);
            bootstrap = v;
            break;
        case O_BOOTADDR:
            opt.bootstrap_addr = v;
            break;
        case O_NOSRUN:
            opt.no_srun = true;
            break;
        case O_TIMEOUT:
            opt.timeout_s = parse_seconds("--timeout", v, 100000000);
            break;
        case O_HEARTBEAT:
            opt.heartbeat_s = parse_seconds("--heartbeat", v, 100000);
            break;
        case O_VERSION:
            print_version();
            exit(0);
        case O_HELP:
            usage(stdout);
            exit(0);
        }
    }
    if (i >= argc) {
        fprintf(stderr, "oshrun: no program to run\n");
        usage(stderr);
        exit(2);
    }
    opt.prog = &argv[i];
    for (int h = 0; h < opt.nhosts; h++)
        opt.any_remote |= !opt.hosts[h].local;
    if (opt.any_remote && bootstrap && !strcmp(bootstrap, "unix"))
        bad("PEs on other hosts need --bootstrap tcp");
    opt.tcp = opt.any_remote || (bootstrap && !strcmp(bootstrap, "tcp"));
}

void options_free(void)
{
    for (int h = 0; h < opt.nhosts; h++)
        free(opt.hosts[h].name);
    free(opt.hosts);
    for (int i = 0; i < opt.nforward; i++)
        free(opt.forward_vars[i]);
    free(opt.forward_vars);
    free(opt.local_path);
    opt.hosts = NULL;
    opt.forward_vars = NULL;
    opt.local_path = NULL;
}
