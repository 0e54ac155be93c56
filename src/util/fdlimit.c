#include "util/fdlimit.h"

#include <limits.h>
#include <stdio.h>
#include <sys/resource.h>

static long as_long(rlim_t v) { return v == RLIM_INFINITY || v > LONG_MAX ? LONG_MAX : (long)v; }

/* The kernel's own ceiling: a hard limit above it (or unlimited) cannot be
 * taken as the soft limit. */
static rlim_t nr_open(void)
{
    unsigned long n = 0;
    FILE *f = fopen("/proc/sys/fs/nr_open", "re");
    if (f) {
        if (fscanf(f, "%lu", &n) != 1)
            n = 0;
        fclose(f);
    }
    return n ? (rlim_t)n : (rlim_t)1 << 20;
}

long oshm_fd_limit_raise(long *hard)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
        return -1;
    if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < rl.rlim_max) {
        struct rlimit raised = {.rlim_cur = rl.rlim_max, .rlim_max = rl.rlim_max};
        if (setrlimit(RLIMIT_NOFILE, &raised) != 0) {
            rlim_t top = nr_open();
            raised.rlim_cur = rl.rlim_max < top ? rl.rlim_max : top;
            if (raised.rlim_cur <= rl.rlim_cur || setrlimit(RLIMIT_NOFILE, &raised) != 0)
                raised.rlim_cur = rl.rlim_cur;
        }
        rl.rlim_cur = raised.rlim_cur;
    }
    if (hard)
        *hard = as_long(rl.rlim_max);
    return as_long(rl.rlim_cur);
}
