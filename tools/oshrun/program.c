/*
 * Finding the program as mpirun does: a name with a '/' is used as given
 * (relative to -wdir when given); a bare name is looked for in PATH, then in
 * the working directory, so that "oshrun -np 2 a.out" runs ./a.out. A
 * program that no PE of this machine could start is an error before any PE
 * starts, not N failed execs.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "oshrun.h"

static bool runnable(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* DIR/NAME, made absolute against the working directory the PEs start in. */
static char *join(const char *dir, const char *name)
{
    char cwd[PATH_MAX];
    const char *base = "";
    if (dir[0] != '/' && getcwd(cwd, sizeof cwd))
        base = cwd;
    size_t len = strlen(base) + strlen(dir) + strlen(name) + 3;
    char *p = malloc(len);
    if (p)
        snprintf(p, len, "%s%s%s/%s", base, *base ? "/" : "", dir, name);
    return p;
}

void program_find(void)
{
    if (local_pe_count() == 0)
        return; /* the hosts' own PATH decides */
    if (opt.wdir) {
        struct stat st;
        errno = 0;
        if (stat(opt.wdir, &st) != 0 || !S_ISDIR(st.st_mode)) {
            fprintf(stderr, "oshrun: -wdir %s: %s\n", opt.wdir,
                    errno ? strerror(errno) : "not a directory");
            exit(2);
        }
    }
    const char *name = opt.prog[0];
    const char *wdir = opt.wdir ? opt.wdir : ".";
    if (strchr(name, '/')) {
        char *path = name[0] == '/' ? strdup(name) : join(wdir, name);
        if (path && !runnable(path)) {
            fprintf(stderr, "oshrun: cannot run '%s': %s\n", name,
                    access(path, F_OK) ? "no such file" : "not an executable file");
            exit(127);
        }
        opt.local_path = path;
        return;
    }
    const char *env_path = getenv("PATH");
    char *dirs = strdup(env_path ? env_path : "/usr/local/bin:/usr/bin:/bin");
    for (char *save = NULL, *d = strtok_r(dirs, ":", &save); d && !opt.local_path;
         d = strtok_r(NULL, ":", &save)) {
        char *path = join(*d ? d : ".", name);
        if (path && runnable(path))
            opt.local_path = path;
        else
            free(path);
    }
    free(dirs);
    if (!opt.local_path) {
        char *path = join(wdir, name);
        if (path && runnable(path))
            opt.local_path = path;
        else
            free(path);
    }
    if (!opt.local_path) {
        fprintf(stderr, "oshrun: cannot find the program '%s' in PATH or in %s\n", name,
                opt.wdir ? opt.wdir : "the working directory");
        exit(127);
    }
}
