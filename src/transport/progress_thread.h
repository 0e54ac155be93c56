/*
 * The progress thread of a network backend whose target needs this PE's
 * CPU (UCX or libfabric over tcp): one driver for both.
 *
 * It serves only while the program is away. While the program waits in the
 * library it polls the backend's target itself and says so
 * (progress_thread_app_polled); the thread then only looks every
 * PROGRESS_THREAD_WATCH_NS whether it still does. Once the program has not
 * polled for a whole watch period (it computes), the thread polls the
 * target, lingering PROGRESS_THREAD_LINGER_NS after each message (an
 * operation often comes in several: a put, then the flush that asks for
 * its completion), and sleeps between bursts as the backend can (UCX in
 * its worker's event descriptor, libfabric a short nap), until the program
 * is back.
 *
 * The thread wakes on a core where the program computes, and must get it at
 * once (docs/multinode.md, "Progress"): it asks for a short time slice
 * (and, where it may, a nice value PROGRESS_THREAD_NICE_BOOST below the
 * program's; see waits_for_message below), serves at most
 * PROGRESS_THREAD_BURST_NS at a stretch and then rests twice as long as it
 * served. A flood of peers' operations so takes no more than a third of the
 * program's core, and the thread keeps the standing (EEVDF's lag) that lets
 * its next wake-up preempt the computing thread at once rather than at that
 * thread's next tick (4 ms at HZ=250): a thread that served 180 us at a
 * stretch was measured waiting 4 ms for its next turn. (A real-time
 * priority would preempt for sure, but it spins on UCX's internal
 * spinlocks while their holder, an ordinary thread, cannot run: measured,
 * the job stalled a second; with UCX's locks made mutexes, it ran well on
 * an idle machine and made latencies 15-50% worse on a loaded one.) It is
 * named "shmem-progress" (top -H, ps -L).
 */
#ifndef OSHM_TRANSPORT_PROGRESS_THREAD_H
#define OSHM_TRANSPORT_PROGRESS_THREAD_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* How often the thread checks on the program, and so the longest a peer's
 * operation waits before the thread takes over. */
#define PROGRESS_THREAD_WATCH_NS 200000
#define PROGRESS_THREAD_LINGER_NS 20000
#define PROGRESS_THREAD_BURST_NS 50000
#define PROGRESS_THREAD_REST_FREE_NS 40000
#define PROGRESS_THREAD_REST_MAX_NS 200000
/* The time slice the thread asks for without a real-time priority (the
 * kernel's least is 100 us). */
#define PROGRESS_THREAD_SLICE_NS 100000
/* How far below the program's nice value a boosted thread asks to run,
 * where the system allows it (CAP_SYS_NICE or RLIMIT_NICE). */
#define PROGRESS_THREAD_NICE_BOOST 10

struct progress_thread {
    /* The backend's, set before start. */
    unsigned (*poll)(void); /* one poll of the target (the backend locks it); work done */
    void (*sleep)(void);    /* until a peer's message may be there, or a while (may clear
                               waits_for_message: it naps from then on) */
    void (*begin)(void);    /* NULL, or first thing in the thread (may clear waits_for_message) */
    void (*wake)(void);     /* NULL, or ends SLEEP early (at stop) */
    bool oversubscribed;    /* never linger: the core is someone's */
    /* SLEEP waits for a peer's message (not a nap). Only such a thread, on
     * cores the PEs do not outnumber, asks for PROGRESS_THREAD_NICE_BOOST:
     * one that wakes to poll every few tens of us would take the cores from
     * the PEs (four libfabric threads at nice -10 on 2 cores made the PEs'
     * own teardown outlast oshrun's wait for them in shmem_finalize). */
    bool waits_for_message;
    /* The driver's. */
    pthread_t thread;
    _Atomic bool stop;
    _Atomic uint64_t app_polls;
};

/* The program polled the target itself. */
static inline void progress_thread_app_polled(struct progress_thread *t)
{
    atomic_fetch_add_explicit(&t->app_polls, 1, memory_order_relaxed);
}

static inline bool progress_thread_stopping(struct progress_thread *t)
{
    return atomic_load_explicit(&t->stop, memory_order_acquire);
}

/* 0 once running; -1 after saying why not (WHO names the backend). */
int progress_thread_start(struct progress_thread *t, const char *who);
void progress_thread_stop(struct progress_thread *t);

#endif
