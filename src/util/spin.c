#include "util/spin.h"

#include "util/clock.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* Until start-up knows better, assume the worst: yielding early is slow on
 * an idle machine, but spinning when PEs share cores can stall a job. */
bool oshm_oversubscribed = true;

unsigned (*oshm_progress_hook)(void);

_Atomic unsigned oshm_spin_extra_threads;
_Atomic unsigned oshm_spin_pe_cores = 1;

/* Whether the machine has more runnable tasks than online CPUs right now
 * (the fourth field of /proc/loadavg, "running/total"): then some task,
 * perhaps one of this job's PEs, waits for a core that this thread could
 * leave idle. Unknown counts as no. */
static bool machine_crowded(void)
{
    char buf[128];
    int fd = open("/proc/loadavg", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    ssize_t len = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (len <= 0)
        return false;
    buf[len] = '\0';
    long running = 0;
    if (sscanf(buf, "%*s %*s %*s %ld/", &running) != 1)
        return false;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    return cpus > 0 && running > cpus;
}

void oshm_spin_long_give_away(uint32_t count)
{
    /* When this thread's current wait became long, and when it last looked
     * at the machine. */
    static _Thread_local uint64_t since, looked;
    static _Thread_local bool crowded;
    uint64_t t = oshm_clock_ns();
    if (count == OSHM_SPIN_LONG)
        since = t;
    if (t - since >= OSHM_SPIN_SLEEP_AFTER_NS) {
        if (t - looked >= OSHM_SPIN_SLEEP_AFTER_NS) {
            looked = t;
            crowded = machine_crowded();
        }
        if (crowded) {
            struct timespec ts = {0, OSHM_SPIN_SLEEP_NS};
            nanosleep(&ts, NULL);
            return;
        }
    }
    sched_yield();
}
