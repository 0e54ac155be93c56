/*
 * The progress thread of a network backend whose operations need this
 * PE's CPU (UCX or libfabric over tcp, and wire-up everywhere): one driver
 * for both. It keeps the guarantee of docs/progress.md: whatever this PE
 * posted reaches its target, and whatever peers post to this PE is carried
 * out, whether or not the program calls the library again.
 *
 * Two kinds of work need it:
 *  - the *target*: peers' operations on this PE's memory that the backend
 *    carries out in software (and the replies they ask for);
 *  - *held* work: operations this PE posted that the backend has not yet
 *    sent, or whose sending needs more progress (an endpoint still wiring
 *    up, a queued send, a large transfer in fragments, a reply to wait for).
 *    The backend marks a channel held when an operation leaves such work,
 *    and calls progress_thread_kick; the thread then drives that channel
 *    until everything it had posted has completed.
 *
 * The thread serves only while the program is away. While the program
 * waits in the library it polls the target and its own channels itself and
 * says so (progress_app_polled), and while it posts operations it says
 * that too (progress_app_active); the thread then only looks now and
 * then whether it still does (the watch, PROGRESS_THREAD_WATCH_NS and
 * longer).
 * Once the program has not polled for a whole watch period (it computes,
 * sleeps, or blocks in a system call), the thread serves: it polls the
 * target and drives held channels, lingering PROGRESS_THREAD_LINGER_NS
 * after each message, and between bursts it sleeps in the backend's event
 * descriptors: the target's, and those of the channels holding work, so
 * that the reply a held channel waits for wakes it too; a kick (an eventfd
 * of the driver's own) wakes it for work posted since. No fixed polling
 * interval remains on that path; a backend without event descriptors naps
 * PROGRESS_THREAD_NAP_NS between polls.
 *
 * The thread wakes on a core where the program computes, and must get it at
 * once (docs/multinode.md, "Progress"): it asks for a short time slice
 * (and, where it may, a nice value PROGRESS_THREAD_NICE_BOOST below the
 * program's; see waits_for_message below), serves at most
 * PROGRESS_THREAD_BURST_NS at a stretch and then rests twice as long as it
 * served. A flood of peers' operations so takes no more than a third of the
 * program's core, and the thread keeps the standing (EEVDF's lag) that lets
 * its next wake-up preempt the computing thread at once rather than at that
 * thread's next tick (4 ms at HZ=250). It is named "shmem-progress" (top
 * -H, ps -L).
 */
#ifndef OSHM_TRANSPORT_PROGRESS_THREAD_H
#define OSHM_TRANSPORT_PROGRESS_THREAD_H

#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "util/clock.h"

/* How long the program may stay away before the thread serves: WATCH_NS
 * at first, twice as long at each look that finds the program still in the
 * library, up to WATCH_MAX_NS (docs/progress.md aims at 1 ms). The program
 * leaves a time stamp at each call, so the thread sleeps until that much
 * time has passed since the last one, and takes over within WATCH_MAX_NS of
 * the program's last call (where the time stamps cannot be trusted, within
 * two periods). Each look is a wake-up that takes a core from a PE amid its
 * operations: looking every 200 us made an 8-byte put + quiet over UCX tcp
 * 25% slower than without the thread, an 8-PE barrier on 2 cores some 40%
 * slower than looking every 400 us (2026-12-07). */
#define PROGRESS_THREAD_WATCH_NS 200000
#define PROGRESS_THREAD_WATCH_MAX_NS 800000
/* The shortest nap between looks (a look just before the period ends). */
#define PROGRESS_THREAD_WATCH_MIN_NS 20000
#define PROGRESS_THREAD_LINGER_NS 20000
#define PROGRESS_THREAD_BURST_NS 50000
#define PROGRESS_THREAD_REST_FREE_NS 40000
#define PROGRESS_THREAD_REST_MAX_NS 200000
/* A backend without event descriptors: the pause between polls. */
#define PROGRESS_THREAD_NAP_NS 50000
/* Held work on a channel the thread could not arm (the program was using
 * it): the longest sleep before it looks again. */
#define PROGRESS_THREAD_RECHECK_NS 100000
/* The time slice the thread asks for without a real-time priority (the
 * kernel's least is 100 us). */
#define PROGRESS_THREAD_SLICE_NS 100000
/* How far below the program's nice value a boosted thread asks to run,
 * where the system allows it (CAP_SYS_NICE or RLIMIT_NICE). */
#define PROGRESS_THREAD_NICE_BOOST 10
/* The most descriptors a backend's arm may fill. */
#define PROGRESS_THREAD_MAX_FDS 32

/* What a backend's arm found. */
enum progress_arm {
    PROGRESS_ARM_BUSY = -1, /* events are waiting already: poll again, do not sleep */
    PROGRESS_ARM_NONE = 0,  /* no descriptors: nap and poll */
};

struct progress_thread {
    /* The backend's, set before start. */
    unsigned (*poll)(void); /* one poll of the target (the backend locks it); work done */
    /* Moves the held channels along (the backend locks each; one it
     * cannot lock now waits for the next call); work done. */
    unsigned (*drive)(void);
    /* Arms the target and every channel held now (looked at afresh: the
     * thread announced its sleep before, so a channel held later kicks
     * it), and fills FDS (at most MAX) with their descriptors: returns how
     * many, or a progress_arm. *PARTIAL: a held channel could not be
     * armed (in use), so the sleep must end by itself. */
    int (*arm)(struct pollfd *fds, int max, bool *partial);
    void (*begin)(void);    /* NULL, or first thing in the thread (may clear waits_for_message) */
    bool oversubscribed;    /* never linger: the core is someone's */
    /* ARM gives descriptors (the thread sleeps until a message, not a
     * nap). Only such a thread, on cores the PEs do not outnumber, asks
     * for PROGRESS_THREAD_NICE_BOOST: one that wakes to poll every few
     * tens of us would take the cores from the PEs. */
    bool waits_for_message;
    /* The driver's. */
    pthread_t thread;
    int kick_fd;
    _Atomic bool stop;
    _Atomic bool asleep;    /* in a sleep that only a descriptor or a kick ends */
    _Atomic bool kicked;
    _Atomic bool running;
};

/* When the program was last in the library (oshm_ticks), for every
 * thread at once (a job has one network backend, and its operations and
 * waits are the program's whatever backend carries them). Threads that race
 * may leave the older stamp: the thread then serves a little early. */
extern _Atomic uint64_t progress_app_seen;

/* The stamps are oshm_ticks (util/clock.h), cheap enough for every
 * operation. The thread converts them with a rate it measures itself, and
 * never trusts them alone (a stamp that does not change is idleness,
 * whatever it says). */

/* The program entered the library to post an operation: while it keeps
 * doing so the thread stays away from its channels (a thread driving a
 * channel that the program keeps posting to took a fifth of the put
 * bandwidth over tcp). */
static inline void progress_app_active(void)
{
    atomic_store_explicit(&progress_app_seen, oshm_ticks(), memory_order_relaxed);
}

/* The program polled the target and its channels itself. */
static inline void progress_app_polled(void) { progress_app_active(); }

/* Work that a layer above the backends holds (a session's batch of puts,
 * hcomm): DRIVE sends what it can (called by a serving thread, the program
 * away) and returns how much; HELD says whether some remains. Either may
 * be NULL. Set once, before the backends open. */
void progress_thread_set_upper(unsigned (*drive)(void), bool (*held)(void));

static inline bool progress_thread_stopping(struct progress_thread *t)
{
    return atomic_load_explicit(&t->stop, memory_order_acquire);
}

void progress_thread_wake(struct progress_thread *t);

/* A channel became held (the backend marked it before calling this): the
 * thread takes it on even if the program never calls the library again.
 * Costs a fence and a load unless the thread sleeps. */
static inline void progress_thread_kick(struct progress_thread *t)
{
    if (!atomic_load_explicit(&t->running, memory_order_relaxed))
        return;
    /* The held mark before the look at ASLEEP; the thread sets ASLEEP
     * before it looks for held channels: one of the two sees the other. */
    atomic_thread_fence(memory_order_seq_cst);
    if (!atomic_load_explicit(&t->kicked, memory_order_relaxed))
        progress_thread_wake(t);
}

/* progress_thread_kick for every running thread (work held above the
 * backends). */
void progress_threads_kick(void);

/* 0 once running; -1 after saying why not (WHO names the backend). */
int progress_thread_start(struct progress_thread *t, const char *who);
void progress_thread_stop(struct progress_thread *t);

#endif
