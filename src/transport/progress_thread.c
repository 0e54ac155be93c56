#include "transport/progress_thread.h"

#include <errno.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "util/log.h"

_Atomic uint64_t progress_app_seen;

static unsigned (*upper_drive)(void);
static bool (*upper_held)(void);

void progress_thread_set_upper(unsigned (*drive)(void), bool (*held)(void))
{
    upper_drive = drive;
    upper_held = held;
}

/* The running threads, for progress_threads_kick. */
#define PROGRESS_THREADS_MAX 4
static struct progress_thread *_Atomic running_threads[PROGRESS_THREADS_MAX];

void progress_threads_kick(void)
{
    for (int i = 0; i < PROGRESS_THREADS_MAX; i++) {
        struct progress_thread *t =
            atomic_load_explicit(&running_threads[i], memory_order_acquire);
        if (t)
            progress_thread_kick(t);
    }
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

/* Polls the target and drives held channels until a burst of messages is
 * over, or for at most PROGRESS_THREAD_BURST_NS; returns the CPU time that
 * took (what the scheduler charges the thread; the wall time also counts
 * time it gave the core to others). */
static uint64_t serve(struct progress_thread *t)
{
    uint64_t start = oshm_clock_ns(), cpu = thread_cpu_ns();
    for (uint64_t last = start;;) {
        uint64_t now = oshm_clock_ns();
        if (now - start > PROGRESS_THREAD_BURST_NS)
            break;
        unsigned n = t->poll() + t->drive() + (upper_drive ? upper_drive() : 0);
        if (n)
            last = oshm_clock_ns();
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

void progress_thread_wake(struct progress_thread *t)
{
    if (!atomic_load_explicit(&t->asleep, memory_order_seq_cst) ||
        atomic_exchange_explicit(&t->kicked, true, memory_order_seq_cst))
        return; /* serving (it sees the mark), or kicked already */
    uint64_t one = 1;
    ssize_t rc;
    do
        rc = write(t->kick_fd, &one, sizeof one);
    while (rc < 0 && errno == EINTR);
}

/* Sleeps in FDS (N of them) and the kick descriptor, for at most TIMEOUT_NS
 * (0: until one of them fires). Returns true when kicked. */
static bool sleep_in(struct progress_thread *t, struct pollfd *fds, int n, uint64_t timeout_ns)
{
    fds[n] = (struct pollfd){.fd = t->kick_fd, .events = POLLIN};
    struct timespec ts = {(time_t)(timeout_ns / 1000000000u), (long)(timeout_ns % 1000000000u)};
    if (!atomic_load_explicit(&t->kicked, memory_order_relaxed))
        while (ppoll(fds, (nfds_t)n + 1, timeout_ns ? &ts : NULL, NULL) < 0 && errno == EINTR)
            ;
    atomic_store_explicit(&t->asleep, false, memory_order_relaxed);
    if (!atomic_load_explicit(&t->kicked, memory_order_acquire))
        return false;
    uint64_t v;
    (void)!read(t->kick_fd, &v, sizeof v); /* non-blocking: empty when the kick was not written */
    atomic_store_explicit(&t->kicked, false, memory_order_release);
    return true;
}

/* Announces a sleep that a kick must end; after it, a channel marked held
 * is either seen by the thread or kicks it. */
static void begin_sleep(struct progress_thread *t)
{
    atomic_store_explicit(&t->asleep, true, memory_order_seq_cst);
    atomic_thread_fence(memory_order_seq_cst);
}

/* Until a peer's message, a held channel's event or a kick (or a nap,
 * without descriptors). */
static void sleep_for_work(struct progress_thread *t)
{
    struct pollfd fds[PROGRESS_THREAD_MAX_FDS + 1];
    bool partial = false;
    begin_sleep(t);
    int n = t->arm(fds, PROGRESS_THREAD_MAX_FDS, &partial);
    /* Work above the backends has no descriptor: look again soon. */
    if (n > 0 && upper_held && upper_held())
        partial = true;
    if (n == PROGRESS_ARM_BUSY) {
        atomic_store_explicit(&t->asleep, false, memory_order_relaxed);
        return;
    }
    if (n == PROGRESS_ARM_NONE) {
        sleep_in(t, fds, 0, PROGRESS_THREAD_NAP_NS);
        return;
    }
    sleep_in(t, fds, n, partial ? PROGRESS_THREAD_RECHECK_NS : 0);
}

/* What the thread knows of the program's absence: the stamp it last saw,
 * when it first saw it (its own clock), and the stamps' rate in ns. */
struct watch {
    uint64_t stamp, stamp_seen_ns;
    uint64_t tick0, ns0;
    double ns_per_tick;
    uint64_t period; /* how long an absence must last before the thread serves */
};

static void watch_restart(struct watch *w, uint64_t now)
{
    w->stamp = atomic_load_explicit(&progress_app_seen, memory_order_relaxed);
    w->stamp_seen_ns = now;
    w->period = PROGRESS_THREAD_WATCH_NS;
}

/* How long the program has been away, at least, as of NOW: since the look
 * that first saw its last stamp (true whatever the stamps' clock), or since
 * the stamp itself when that says longer (the stamp is the program's; the
 * other bound can be a period late). A new stamp lengthens the period. */
static uint64_t watch_absence(struct watch *w, uint64_t now)
{
    uint64_t ticks = oshm_ticks();
    uint64_t stamp = atomic_load_explicit(&progress_app_seen, memory_order_relaxed);
    if (ticks > w->tick0 && now > w->ns0)
        w->ns_per_tick = (double)(now - w->ns0) / (double)(ticks - w->tick0);
    uint64_t away = 0;
    if (stamp != w->stamp) {
        w->stamp = stamp;
        w->stamp_seen_ns = now;
        w->period = w->period * 2 < PROGRESS_THREAD_WATCH_MAX_NS ? w->period * 2
                                                                 : PROGRESS_THREAD_WATCH_MAX_NS;
    } else {
        away = now - w->stamp_seen_ns;
    }
    /* A stamp from a core whose counter runs ahead says nothing. */
    if (ticks > stamp) {
        double by_stamp = (double)(ticks - stamp) * w->ns_per_tick;
        if (by_stamp > (double)away)
            away = by_stamp < 1e18 ? (uint64_t)by_stamp : UINT64_MAX;
    }
    return away;
}

static void *run(void *arg)
{
    struct progress_thread *t = arg;
    if (t->begin)
        t->begin();
    bool boosted = t->waits_for_message && !t->oversubscribed;
    ask_short_slice(boosted);
    struct watch w = {.tick0 = oshm_ticks(), .ns0 = oshm_clock_ns(), .ns_per_tick = 1.0};
    watch_restart(&w, w.ns0);
    uint64_t nap = w.period;
    while (!progress_thread_stopping(t)) {
        /* Watch: the program progresses by itself. Not a sleep that a
         * kick ends: a program inside the library would kick at every
         * operation that leaves work in flight (libfabric: every one that
         * finds its channel idle), and the look at the end of the watch
         * finds held work soon enough. */
        nap_ns(nap);
        uint64_t away = watch_absence(&w, oshm_clock_ns());
        if (away < w.period) {
            nap = w.period - away > PROGRESS_THREAD_WATCH_MIN_NS ? w.period - away
                                                                 : PROGRESS_THREAD_WATCH_MIN_NS;
            continue;
        }
        uint64_t seen = w.stamp;
        while (!progress_thread_stopping(t)) {
            rest_after(serve(t));
            sleep_for_work(t);
            /* The backend could no longer wait for a message and naps
             * instead: a boosted thread waking every few tens of us would
             * take the program's core. */
            if (boosted && !t->waits_for_message) {
                ask_short_slice(false);
                boosted = false;
            }
            /* The program is back: it takes this message. */
            if (atomic_load_explicit(&progress_app_seen, memory_order_relaxed) != seen)
                break;
        }
        watch_restart(&w, oshm_clock_ns());
        nap = w.period;
    }
    return NULL;
}

int progress_thread_start(struct progress_thread *t, const char *who)
{
    atomic_store(&t->stop, false);
    atomic_store(&t->asleep, false);
    atomic_store(&t->kicked, false);
    t->kick_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (t->kick_fd < 0) {
        oshm_warn("cannot start the %s progress thread: eventfd: %s", who, strerror(errno));
        return -1;
    }
    int rc = pthread_create(&t->thread, NULL, run, t);
    if (rc != 0) {
        oshm_warn("cannot start the %s progress thread: %s", who, strerror(rc));
        close(t->kick_fd);
        return -1;
    }
    (void)pthread_setname_np(t->thread, "shmem-progress");
    atomic_store(&t->running, true);
    for (int i = 0; i < PROGRESS_THREADS_MAX; i++) {
        struct progress_thread *none = NULL;
        if (atomic_compare_exchange_strong(&running_threads[i], &none, t))
            break;
    }
    return 0;
}

void progress_thread_stop(struct progress_thread *t)
{
    if (!atomic_load(&t->running))
        return;
    for (int i = 0; i < PROGRESS_THREADS_MAX; i++) {
        struct progress_thread *mine = t;
        atomic_compare_exchange_strong(&running_threads[i], &mine, NULL);
    }
    atomic_store_explicit(&t->stop, true, memory_order_release);
    /* Past any sleep it is in, or about to begin. */
    atomic_store_explicit(&t->kicked, true, memory_order_seq_cst);
    uint64_t one = 1;
    (void)!write(t->kick_fd, &one, sizeof one);
    pthread_join(t->thread, NULL);
    atomic_store(&t->running, false);
    close(t->kick_fd);
    t->kick_fd = -1;
}
