/* The command line and the host list. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "oshrun.h"

struct options opt = {.npes = 1, .launch_agent = "ssh"};

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
    if (!grown || slots < 1) {
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

static void forward_var(char *v)
{
    char *eq = strchr(v, '=');
    if (eq) {
        *eq = '\0';
        setenv(v, eq + 1, 1);
    }
    char **grown = realloc(opt.forward_vars, (size_t)(opt.nforward + 1) * sizeof *grown);
    if (!grown) {
        fprintf(stderr, "oshrun: out of memory\n");
        exit(1);
    }
    opt.forward_vars = grown;
    opt.forward_vars[opt.nforward++] = v;
}

void options_parse(int argc, char **argv)
{
    int i = 1;
    bool np_given = false;
    const char *bootstrap = NULL;
    const char *env_agent = getenv("OSHRUN_LAUNCH_AGENT");
    if (env_agent && *env_agent)
        opt.launch_agent = env_agent;
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-np") || !strcmp(a, "-n") || !strcmp(a, "--np") || !strcmp(a, "-N")) {
            opt.npes = parse_np(i + 1 < argc ? argv[++i] : NULL);
            np_given = true;
        } else if (!strncmp(a, "-np=", 4) || !strncmp(a, "--np=", 5)) {
            opt.npes = parse_np(strchr(a, '=') + 1);
            np_given = true;
        } else if ((!strcmp(a, "-H") || !strcmp(a, "--host") || !strcmp(a, "--hostfile") ||
                    !strcmp(a, "--launch-agent") || !strcmp(a, "--bootstrap") ||
                    !strcmp(a, "--bootstrap-addr")) && i + 1 >= argc) {
            fprintf(stderr, "oshrun: %s needs a value\n", a);
            exit(2);
        } else if (!strcmp(a, "-H") || !strcmp(a, "--host")) {
            parse_hosts(argv[++i]);
        } else if (!strcmp(a, "--hostfile")) {
            parse_hostfile(argv[++i]);
        } else if (!strcmp(a, "--launch-agent")) {
            opt.launch_agent = argv[++i];
        } else if (!strcmp(a, "--bootstrap")) {
            bootstrap = argv[++i];
            if (strcmp(bootstrap, "unix") && strcmp(bootstrap, "tcp")) {
                fprintf(stderr, "oshrun: --bootstrap is unix or tcp, not '%s'\n", bootstrap);
                exit(2);
            }
        } else if (!strcmp(a, "--bootstrap-addr")) {
            opt.bootstrap_addr = argv[++i];
        } else if (!strcmp(a, "-x")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "oshrun: -x needs VAR or VAR=VALUE\n");
                exit(2);
            }
            forward_var(argv[++i]);
        } else if (!strcmp(a, "--allow-run-as-root") || !strcmp(a, "--oversubscribe")) {
            /* accepted for mpirun compatibility */
        } else if (!strcmp(a, "--bind-to") || !strcmp(a, "--map-by")) {
            i++;
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            exit(0);
        } else if (!strcmp(a, "--")) {
            i++;
            break;
        } else if (a[0] == '-') {
            fprintf(stderr, "oshrun: unknown option '%s'\n", a);
            usage(stderr);
            exit(2);
        } else {
            break;
        }
    }
    if (i >= argc) {
        fprintf(stderr, "oshrun: no program to run\n");
        usage(stderr);
        exit(2);
    }
    opt.prog = &argv[i];
    int slots = 0;
    for (int h = 0; h < opt.nhosts; h++) {
        slots += opt.hosts[h].slots;
        opt.any_remote |= !opt.hosts[h].local;
    }
    if (opt.nhosts && !np_given)
        opt.npes = slots;
    if (opt.nhosts && opt.npes > slots) {
        fprintf(stderr, "oshrun: %d PEs do not fit in the %d slots of the hosts given\n",
                opt.npes, slots);
        exit(2);
    }
    if (opt.any_remote && bootstrap && !strcmp(bootstrap, "unix")) {
        fprintf(stderr, "oshrun: PEs on other hosts need --bootstrap tcp\n");
        exit(2);
    }
    opt.tcp = opt.any_remote || (bootstrap && !strcmp(bootstrap, "tcp"));
}

void options_free(void)
{
    for (int h = 0; h < opt.nhosts; h++)
        free(opt.hosts[h].name);
    free(opt.hosts);
    free(opt.forward_vars);
    opt.hosts = NULL;
    opt.forward_vars = NULL;
}

/* Hosts fill in order, SLOTS PEs each. */
const struct host *host_of(int rank)
{
    int r = rank;
    for (int h = 0; h < opt.nhosts; h++) {
        if (r < opt.hosts[h].slots)
            return &opt.hosts[h];
        r -= opt.hosts[h].slots;
    }
    return NULL;
}

int local_pe_count(void)
{
    int n = 0;
    for (int r = 0; r < opt.npes; r++) {
        const struct host *h = host_of(r);
        n += !h || h->local;
    }
    return n;
}
