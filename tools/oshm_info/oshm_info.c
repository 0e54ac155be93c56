/*
 * oshm_info: what this build of the library is (version, the OpenSHMEM
 * specification it implements, backends and engines built in) and every
 * environment variable it reads, from the same table the library parses
 * (util/env_table.h). man/man1/oshm_info.1 describes the options.
 */
#include <shmem.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/backends.h"
#include "util/env.h"

extern char **environ;

/* Set by tools/CMakeLists.txt: "" when the package is not built in. */
#ifndef OSHM_INFO_VERSION
#define OSHM_INFO_VERSION "unknown"
#endif
#ifndef OSHM_INFO_UCX
#define OSHM_INFO_UCX ""
#endif
#ifndef OSHM_INFO_PMIX
#define OSHM_INFO_PMIX ""
#endif
#ifndef OSHM_INFO_HWLOC
#define OSHM_INFO_HWLOC ""
#endif
#ifndef OSHM_INFO_OFI
#define OSHM_INFO_OFI ""
#endif

#define STR_(x) #x
#define STR(x) STR_(x)
#define SPEC_VERSION STR(SHMEM_MAJOR_VERSION) "." STR(SHMEM_MINOR_VERSION)

/* Packages the build may use: "" version means not built in; "-" means
 * built in with no version known. */
static const struct {
    const char *name, *role, *version;
} packages[] = {
    {"UCX", "network backend between nodes", OSHM_INFO_UCX},
    {"PMIx", "start-up under mpirun / srun --mpi=pmix", OSHM_INFO_PMIX},
    {"hwloc", "process binding", OSHM_INFO_HWLOC},
    {"libfabric", "network backend", OSHM_INFO_OFI},
};
#define NPACKAGES (sizeof packages / sizeof packages[0])

#ifdef OSHM_INFO_DEVICE
static const char *const engines = "mte udma";
static const char *const engines_meaning =
    "simulated device data-movement engines (a thread each per PE, carrying kernels' "
    "descriptors out through the host backends)";
#else
static const char *const engines = "";
static const char *const engines_meaning = "none: built without the simulated device";
#endif

static void usage(FILE *out)
{
    fputs("usage: oshm_info [--all | --param NAME|COMPONENT|all | --parsable | --markdown |\n"
          "                  --check | --version | --help]\n"
          "  (no option), --all  version, specification, backends and engines built in,\n"
          "                      and every environment variable with its default and meaning\n"
          "  --param NAME        one variable (NAME may be a deprecated SMA_* name); a\n"
          "                      component (heap, hcomm, boot, ...): the variables it reads;\n"
          "                      all: every variable, including those launchers set for PEs\n"
          "  --parsable          the same as --all, as colon-separated lines for scripts\n"
          "  --markdown          the environment variables as README.md's table\n"
          "  --check             parse this shell's environment as a PE would: report bad\n"
          "                      values (exit status 1), unknown and deprecated names\n"
          "  --version           the library and specification versions\n"
          "  -h, --help          this summary\n",
          out);
}

static void print_package_line(void)
{
    printf("Package:                 oshm %s (%s)\n", OSHM_INFO_VERSION, SHMEM_VENDOR_STRING);
    printf("OpenSHMEM specification: %s\n", SPEC_VERSION);
}

static void print_build(void)
{
    print_package_line();
    printf("Backends built in:       ");
    for (int i = 0; oshm_builtin_backends[i]; i++)
        printf("%s%s", i ? ", " : "", oshm_builtin_backends[i]->name);
    printf("\nDevice engines:          %s%s%s\n", engines, *engines ? ": " : "", engines_meaning);
    for (size_t i = 0; i < NPACKAGES; i++) {
        const char *v = packages[i].version;
        printf("%-24s %s", packages[i].name, *v ? "yes" : "no");
        if (*v && strcmp(v, "-"))
            printf(" (%s)", v);
        printf(": %s\n", packages[i].role);
    }
}

static void print_var(const struct oshm_env_var *v)
{
    char accepted[256];
    oshm_env_describe_accepted(v, accepted, sizeof accepted);
    printf("  %s\n      %s\n      type %s; default %s; read by %s%s%s\n      accepted: %s\n",
           v->name, v->meaning, v->type_name, *v->def ? v->def : "unset", v->reader,
           *v->alias ? "; deprecated name " : "", v->alias, accepted);
    if (v->launch)
        printf("      set by a launcher for its PEs, not by people\n");
    const char *now = getenv(v->name);
    if (!v->launch && now)
        printf("      set here: %s\n", now);
}

static void print_vars(bool with_launch)
{
    printf("Environment variables:\n");
    for (int i = 0; i < OSHM_ENV_COUNT; i++)
        if (with_launch || !oshm_env_vars[i].launch)
            print_var(&oshm_env_vars[i]);
}

static void print_parsable(void)
{
    printf("package:oshm:%s\n", OSHM_INFO_VERSION);
    printf("vendor:%s\n", SHMEM_VENDOR_STRING);
    printf("spec:%s\n", SPEC_VERSION);
    for (int i = 0; oshm_builtin_backends[i]; i++)
        printf("backend:%s\n", oshm_builtin_backends[i]->name);
    for (const char *e = engines; *e;) {
        size_t n = strcspn(e, " ");
        printf("engine:%.*s\n", (int)n, e);
        e += n + (e[n] == ' ');
    }
    for (size_t i = 0; i < NPACKAGES; i++) {
        const char *v = packages[i].version;
        printf("package:%s:%s%s%s\n", packages[i].name, *v ? "yes" : "no",
               *v && strcmp(v, "-") ? ":" : "", *v && strcmp(v, "-") ? v : "");
    }
    for (int i = 0; i < OSHM_ENV_COUNT; i++) {
        const struct oshm_env_var *v = &oshm_env_vars[i];
        char accepted[256];
        oshm_env_describe_accepted(v, accepted, sizeof accepted);
        printf("env:%s:type:%s\n", v->name, v->type_name);
        printf("env:%s:scope:%s\n", v->name, v->launch ? "launcher" : "user");
        printf("env:%s:default:%s\n", v->name, v->def);
        printf("env:%s:alias:%s\n", v->name, v->alias);
        printf("env:%s:reader:%s\n", v->name, v->reader);
        printf("env:%s:accepted:%s\n", v->name, accepted);
        printf("env:%s:meaning:%s\n", v->name, v->meaning);
    }
}

/* README.md's table, between its env-table markers (test/env_readme_test.sh
 * checks that they agree). */
static void print_markdown(void)
{
    printf("| variable | type | default | read by | meaning |\n|---|---|---|---|---|\n");
    for (int i = 0; i < OSHM_ENV_COUNT; i++) {
        const struct oshm_env_var *v = &oshm_env_vars[i];
        if (v->launch)
            continue;
        char accepted[256] = "";
        /* The other types' rules are the same for all: the text below the table says them. */
        if (v->type == OSHM_ENV_TYPE_SIZE || v->type == OSHM_ENV_TYPE_UINT ||
            v->type == OSHM_ENV_TYPE_CHOICE)
            oshm_env_describe_accepted(v, accepted, sizeof accepted);
        printf("| `%s`", v->name);
        if (*v->alias)
            printf(" (deprecated: `%s`)", v->alias);
        printf(" | %s | %s | %s | %s%s%s |\n", v->type_name, *v->def ? v->def : "unset", v->reader,
               v->meaning, *accepted ? "; accepted: " : "", accepted);
    }
    printf("\nA flag is on when set to anything but 0, n, no, false or off; a bool takes 1, y, "
           "yes, true, on or 0, n, no, false, off; an empty value is no value. Set by "
           "launchers for their PEs, not by people:");
    for (int i = 0, n = 0; i < OSHM_ENV_COUNT; i++)
        if (oshm_env_vars[i].launch)
            printf("%s `%s`", n++ ? "," : "", oshm_env_vars[i].name);
    printf(".\n");
}

static int find_var(const char *name)
{
    for (int i = 0; i < OSHM_ENV_COUNT; i++)
        if (!strcmp(oshm_env_vars[i].name, name) || !strcmp(oshm_env_vars[i].alias, name))
            return i;
    return -1;
}

static int check_environment(void)
{
    static struct oshm_env_result r;
    int rc = oshm_env_parse(environ, &r);
    if (*r.notes)
        fputs(r.notes, stdout);
    if (rc != 0) {
        printf("error: %s\n", r.error);
        return 1;
    }
    printf("the environment is valid\n");
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 1 || (argc == 2 && !strcmp(argv[1], "--all"))) {
        print_build();
        print_vars(false);
        return 0;
    }
    const char *a = argv[1];
    if (argc == 2 && (!strcmp(a, "-h") || !strcmp(a, "--help"))) {
        usage(stdout);
        return 0;
    }
    if (argc == 2 && !strcmp(a, "--version")) {
        print_package_line();
        return 0;
    }
    if (argc == 2 && !strcmp(a, "--parsable")) {
        print_parsable();
        return 0;
    }
    if (argc == 2 && !strcmp(a, "--markdown")) {
        print_markdown();
        return 0;
    }
    if (argc == 2 && !strcmp(a, "--check"))
        return check_environment();
    if (argc == 3 && !strcmp(a, "--param")) {
        if (!strcmp(argv[2], "all")) {
            print_vars(true);
            return 0;
        }
        int i = find_var(argv[2]);
        if (i >= 0) {
            print_var(&oshm_env_vars[i]);
            return 0;
        }
        /* A component: the variables it reads. */
        bool any = false;
        for (i = 0; i < OSHM_ENV_COUNT; i++) {
            if (!strcmp(oshm_env_vars[i].reader, argv[2])) {
                print_var(&oshm_env_vars[i]);
                any = true;
            }
        }
        if (any)
            return 0;
        const char *near = oshm_env_closest(argv[2]);
        fprintf(stderr, "oshm_info: %s is not a variable of this library%s%s%s\n", argv[2],
                near ? " (did you mean " : "", near ? near : "", near ? "?)" : "");
        return 1;
    }
    fprintf(stderr, "oshm_info: unknown option %s\n", a);
    usage(stderr);
    return 2;
}
