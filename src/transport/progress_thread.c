#include "transport/progress_thread.h"

#include <errno.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "util/log.h"

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* CPU time of the calling thread: what the scheduler charges it. */
static uint64_t thread_cpu_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void nap_ns(uint64_t ns)
{
    struct timespec nap = {(time_t)(ns / 1000000000u), (long)(ns % 1000000000u)};
    nanosleep(&nap, NULL);
}

/* sched_setattr's argument (linux/sched/types.h, not in every libc). */
struct sched_attr_v1 {
    uint32_t size, policy;
    uint64_t flags;
    int32_t nice;
    uint32_t priority;
    uint64_t runtime, deadline, period;
};

/* Linux's EEVDF scheduler (6.6 and later) lets a woken thread run at once
 * only if its deadline comes first; with the default slice (a few ms) a
 * wake-up could wait behind the computing thread. A short slice (granted
 * without privilege since Linux 6.12; older kernels ignore the runtime)
 * makes the thread's deadline early. */
static void ask_short_slice(bool boost)
{
#ifdef SYS_sched_setattr
    /* The call sets the nice value too. A short slice alone still left the
     * thread off the core for a tick now and then while the PE it serves
     * computes (an operation of 2-4 ms in runs of 50); a weight ten nice
     * levels above the program's lets it take the core back within the
     * slice. Where the system refuses that, keep the program's own nice
     * (`nice -n 5 oshrun ...` must not leave this thread behind either). */
    errno = 0;
    int nice = getpriority(PRIO_PROCESS, 0);
    if (errno)
        nice = 0;
    int boosted = boost ? nice - PROGRESS_THREAD_NICE_BOOST : nice;
    if (boosted < -20)
        boosted = -20;
    struct sched_attr_v1 a = {.size = sizeof a, .policy = 0 /* SCHED_OTHER */,
                              .nice = boosted, .runtime = PROGRESS_THREAD_SLICE_NS};
    if (syscall(SYS_sched_setattr, 0, &a, 0) == 0 || boosted == nice)
        return;
    a.nice = nice;
    (void)syscall(SYS_sched_setattr, 0, &a, 0);
#endif
}

/* Polls the target until a burst of messages is over, or for at most
 * PROGRESS_THREAD_BURST_NS; returns the CPU time that took (what the
 * scheduler charges the thread; the wall time also counts time it gave the
 * core to others). */
static uint64_t serve(struct progress_thread *t)
{
    uint64_t start = now_ns(), cpu = thread_cpu_ns();
    for (uint64_t last = start;;) {
        uint64_t now = now_ns();
        if (now - start > PROGRESS_THREAD_BURST_NS)
            break;
        if (t->poll())
            last = now_ns();
        else if (t->oversubscribed || now - last > PROGRESS_THREAD_LINGER_NS)
            break;
    }
    return thread_cpu_ns() - cpu;
}

/* After a burst that took CPU time SERVED: rest twice as long (the thread
 * then takes at most a third of a core it shares, and keeps its lag), but
 * not after a short burst, and never longer than PROGRESS_THREAD_REST_MAX_NS
 * (one poll of a connection being set up can take milliseconds). */
static void rest_after(uint64_t served)
{
    uint64_t rest = 2 * served;
    if (rest <= PROGRESS_THREAD_REST_FREE_NS)
        return;
    nap_ns(rest < PROGRESS_THREAD_REST_MAX_NS ? rest : PROGRESS_THREAD_REST_MAX_NS);
}

static void *run(void *arg)
{
    struct progress_thread *t = arg;
    if (t->begin)
        t->begin();
    bool boosted = t->waits_for_message && !t->oversubscribed;
    ask_short_slice(boosted);
    uint64_t seen = atomic_load_explicit(&t->app_polls, memory_order_relaxed);
    while (!progress_thread_stopping(t)) {
        struct timespec watch = {0, PROGRESS_THREAD_WATCH_NS};
        nanosleep(&watch, NULL);
        uint64_t now = atomic_load_explicit(&t->app_polls, memory_order_relaxed);
        if (now != seen) { /* the program progresses by itself */
            seen = now;
            continue;
        }
        while (!progress_thread_stopping(t)) {
            rest_after(serve(t));
            t->sleep();
            /* The backend could no longer wait for a message and naps
             * instead: a boosted thread waking every few tens of us would
             * take the program's core. */
            if (boosted && !t->waits_for_message) {
                ask_short_slice(false);
                boosted = false;
            }
            now = atomic_load_explicit(&t->app_polls, memory_order_relaxed);
            if (now != seen) { /* the program is back: it takes this message */
                seen = now;
                break;
            }
        }
    }
    return NULL;
}

int progress_thread_start(struct progress_thread *t, const char *who)
{
    atomic_store(&t->stop, false);
    int rc = pthread_create(&t->thread, NULL, run, t);
    if (rc != 0) {
        oshm_warn("cannot start the %s progress thread: %s", who, strerror(rc));
        return -1;
    }
    (void)pthread_setname_np(t->thread, "shmem-progress");
    return 0;
}

void progress_thread_stop(struct progress_thread *t)
{
    atomic_store_explicit(&t->stop, true, memory_order_release);
    if (t->wake)
        t->wake();
    pthread_join(t->thread, NULL);
}
