/*
 * Streams, events and kernel launch. A stream is a worker thread draining a
 * queue of tasks in order: run a kernel (one host thread per device thread,
 * joined before the next task), complete an event, wait for an event.
 */
#include <shmem/shmemx.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "device/device.h"
#include "hcomm/hcomm.h"
#include "util/env.h"
#include "util/log.h"
#include "util/spin.h"
#include "util/state.h"

_Thread_local struct device_thread *device_self;

enum task_kind { TASK_KERNEL, TASK_RECORD, TASK_WAIT, TASK_CALL };

struct task {
    enum task_kind kind;
    struct device_launch *launch;
    struct shmemx_event_impl *event;
    uint64_t seq;
    void (*call)(void *);      /* TASK_CALL: call(arg), then free(arg) */
    void *arg;
    struct task *next;
};

struct shmemx_stream_impl {
    pthread_t worker;
    pthread_mutex_t lock;
    pthread_cond_t cond;       /* a task arrived, or one finished */
    struct task *head, *tail;
    uint64_t queued, done;
    bool stop;
    struct shmemx_stream_impl *next_stream;
};

struct shmemx_event_impl {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    uint64_t recorded, completed;
};

static pthread_mutex_t streams_lock = PTHREAD_MUTEX_INITIALIZER;
static struct shmemx_stream_impl *streams; /* every live stream */
static struct shmemx_stream_impl *default_stream;

/* The cores this PE may count on: its affinity, shared with the other
 * PEs of its node when they may use as many (unbound PEs); a PE bound to
 * fewer cores than its node has PEs counts its own. */
static unsigned pe_cores(void)
{
    cpu_set_t set;
    unsigned own = 1, pes = 0;
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        own = (unsigned)CPU_COUNT(&set);
    for (int p = 0; p < hcomm.n_pes; p++)
        pes += hcomm.node_of[p] == hcomm.my_node;
    unsigned share = pes && own >= pes ? own / pes : own;
    return share ? share : 1;
}

/* Once per life of the library: engine_start sets the engines' delay,
 * which their threads read unlocked. */
static bool engines_started;
static pthread_mutex_t engines_lock = PTHREAD_MUTEX_INITIALIZER;

static int start_engines(void)
{
    pthread_mutex_lock(&engines_lock);
    int rc = engines_started ? 0
                             : device_engines_start(oshm_env.device_engine_delay_us,
                                                    oshm_env.device_ordering == 1);
    if (rc == 0 && !engines_started)
        atomic_store_explicit(&oshm_spin_pe_cores, pe_cores(), memory_order_relaxed);
    engines_started = rc == 0;
    pthread_mutex_unlock(&engines_lock);
    return rc;
}

OSHM_FN(int, shmemd_in_kernel, (void)) { return device_self != NULL; }

struct device_thread *device_thread_of(const char *routine)
{
    struct device_thread *t = device_self;
    if (__builtin_expect(!t, 0))
        oshm_fatal("%s is a device routine: call it from a kernel (shmemx_launch)", routine);
    return t;
}

static void *device_thread_main(void *arg)
{
    struct device_thread *t = arg;
    device_self = t;
    /* The profile's track of this block and thread; the kernel is a span
     * on it that holds the thread's calls. */
    oshm_prof_track = OSHM_PROF_DEVICE_TRACK(t->block, t->thread);
    OSHM_PROFILED_LOCAL(OSHM_PROF_device_kernel, "kernel", 0, {
        t->launch->kernel(t->launch->args);
        /* A kernel's operations are complete when it ends. */
        engine_wait(&t->ops);
    });
    device_self = NULL;
    return NULL;
}

static void run_kernel(struct device_launch *l)
{
    unsigned total = l->nblocks * l->nthreads;
    /* While they run, this PE's waits know how crowded its cores are. */
    oshm_spin_threads_add((int)total);
    struct device_thread *threads = calloc(total, sizeof *threads);
    pthread_t *ids = calloc(total, sizeof *ids);
    l->block = calloc(l->nblocks, sizeof *l->block);
    if (!threads || !ids || !l->block)
        oshm_fatal("shmemx_launch: out of memory for %u device threads", total);
    pthread_barrier_init(&l->grid, NULL, total);
    for (unsigned b = 0; b < l->nblocks; b++)
        pthread_barrier_init(&l->block[b], NULL, l->nthreads);
    device_groups_init(l);
    for (unsigned i = 0; i < total; i++) {
        threads[i] = (struct device_thread){.launch = l, .block = i / l->nthreads,
                                            .thread = i % l->nthreads};
        if (pthread_create(&ids[i], NULL, device_thread_main, &threads[i]) != 0)
            oshm_fatal("shmemx_launch: cannot start device thread %u of %u: %m", i, total);
    }
    for (unsigned i = 0; i < total; i++)
        pthread_join(ids[i], NULL);
    oshm_spin_threads_add(-(int)total);
    for (unsigned b = 0; b < l->nblocks; b++)
        pthread_barrier_destroy(&l->block[b]);
    device_groups_fini(l);
    pthread_barrier_destroy(&l->grid);
    free(l->block);
    free(l->args);
    free(l);
    free(threads);
    free(ids);
}

static void complete_event(struct shmemx_event_impl *e, uint64_t seq)
{
    pthread_mutex_lock(&e->lock);
    if (e->completed < seq)
        e->completed = seq;
    pthread_cond_broadcast(&e->cond);
    pthread_mutex_unlock(&e->lock);
}

/* Waits on COND for PRED. While a network backend needs this PE to
 * progress (other PEs' kernels may target it), the host polls instead of
 * sleeping. */
#define WAIT_UNTIL(LOCK, COND, PRED)                                  \
    do {                                                              \
        uint32_t spins_ = 0;                                          \
        while (!(PRED)) {                                             \
            if (oshm_progress_hook) {                                 \
                pthread_mutex_unlock(LOCK);                           \
                oshm_spin_step(&spins_);                              \
                pthread_mutex_lock(LOCK);                             \
            } else {                                                  \
                pthread_cond_wait(COND, LOCK);                        \
            }                                                         \
        }                                                             \
    } while (0)

static void wait_event_seq(struct shmemx_event_impl *e, uint64_t seq)
{
    pthread_mutex_lock(&e->lock);
    WAIT_UNTIL(&e->lock, &e->cond, e->completed >= seq);
    pthread_mutex_unlock(&e->lock);
}

static void *stream_main(void *arg)
{
    struct shmemx_stream_impl *s = arg;
    for (;;) {
        pthread_mutex_lock(&s->lock);
        while (!s->head && !s->stop)
            pthread_cond_wait(&s->cond, &s->lock);
        struct task *t = s->head;
        if (!t) {
            pthread_mutex_unlock(&s->lock);
            return NULL;
        }
        s->head = t->next;
        if (!s->head)
            s->tail = NULL;
        pthread_mutex_unlock(&s->lock);

        switch (t->kind) {
        case TASK_KERNEL: run_kernel(t->launch); break;
        case TASK_RECORD: complete_event(t->event, t->seq); break;
        case TASK_WAIT: wait_event_seq(t->event, t->seq); break;
        case TASK_CALL:
            t->call(t->arg);
            free(t->arg);
            break;
        }
        free(t);
        pthread_mutex_lock(&s->lock);
        s->done++;
        pthread_cond_broadcast(&s->cond);
        pthread_mutex_unlock(&s->lock);
    }
}

static struct shmemx_stream_impl *new_stream(void)
{
    /* A stream's thread progresses the backends while it waits. */
    hcomm_threads_begin();
    struct shmemx_stream_impl *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->cond, NULL);
    if (pthread_create(&s->worker, NULL, stream_main, s) != 0) {
        free(s);
        return NULL;
    }
    pthread_mutex_lock(&streams_lock);
    s->next_stream = streams;
    streams = s;
    pthread_mutex_unlock(&streams_lock);
    return s;
}

static struct shmemx_stream_impl *stream_or_default(shmemx_stream_t s, const char *routine)
{
    if (s)
        return s;
    pthread_mutex_lock(&streams_lock);
    struct shmemx_stream_impl *d = default_stream;
    pthread_mutex_unlock(&streams_lock);
    if (d)
        return d;
    d = new_stream();
    if (!d)
        oshm_fatal("%s: cannot start the default stream: %m", routine);
    pthread_mutex_lock(&streams_lock);
    if (!default_stream)
        default_stream = d;
    pthread_mutex_unlock(&streams_lock);
    return default_stream;
}

static void enqueue(struct shmemx_stream_impl *s, struct task *t)
{
    pthread_mutex_lock(&s->lock);
    if (s->tail)
        s->tail->next = t;
    else
        s->head = t;
    s->tail = t;
    s->queued++;
    pthread_cond_broadcast(&s->cond);
    pthread_mutex_unlock(&s->lock);
}

static void sync_stream(struct shmemx_stream_impl *s)
{
    pthread_mutex_lock(&s->lock);
    uint64_t want = s->queued;
    WAIT_UNTIL(&s->lock, &s->cond, s->done >= want);
    pthread_mutex_unlock(&s->lock);
}

static void stop_stream(struct shmemx_stream_impl *s)
{
    sync_stream(s);
    pthread_mutex_lock(&s->lock);
    s->stop = true;
    pthread_cond_broadcast(&s->cond);
    pthread_mutex_unlock(&s->lock);
    pthread_join(s->worker, NULL);
    pthread_mutex_destroy(&s->lock);
    pthread_cond_destroy(&s->cond);
    free(s);
}

OSHM_FN(int, shmemx_stream_create, (shmemx_stream_t * stream))
{
    oshm_require_init("shmemx_stream_create");
    *stream = new_stream();
    return *stream ? 0 : -1;
}

OSHM_FN(void, shmemx_stream_destroy, (shmemx_stream_t stream))
{
    if (!stream || stream == default_stream)
        return;
    pthread_mutex_lock(&streams_lock);
    for (struct shmemx_stream_impl **p = &streams; *p; p = &(*p)->next_stream)
        if (*p == stream) {
            *p = stream->next_stream;
            break;
        }
    pthread_mutex_unlock(&streams_lock);
    stop_stream(stream);
}

OSHM_FN(void, shmemx_stream_synchronize, (shmemx_stream_t stream))
{
    oshm_require_init("shmemx_stream_synchronize");
    sync_stream(stream_or_default(stream, "shmemx_stream_synchronize"));
}

OSHM_FN(int, shmemx_launch,
        (shmemx_kernel_t kernel, unsigned nblocks, unsigned nthreads, const void *args,
         size_t args_size, shmemx_stream_t stream))
{
    oshm_require_init("shmemx_launch");
    if (!kernel || nblocks == 0 || nthreads == 0 || nblocks > 4096 || nthreads > 1024 ||
        (size_t)nblocks * nthreads > 65536 || (args_size && !args)) {
        oshm_warn("shmemx_launch: bad launch (kernel %p, %u blocks of %u threads, %zu bytes "
                  "of arguments at %p)", (void *)(uintptr_t)kernel, nblocks, nthreads,
                  args_size, args);
        return -1;
    }
    if (start_engines() != 0)
        return -1;
    struct device_launch *l = calloc(1, sizeof *l);
    struct task *t = calloc(1, sizeof *t);
    void *copy = args_size ? malloc(args_size) : NULL;
    if (!l || !t || (args_size && !copy)) {
        free(l);
        free(t);
        free(copy);
        return -1;
    }
    if (args_size)
        memcpy(copy, args, args_size);
    *l = (struct device_launch){.kernel = kernel, .args = copy, .nblocks = nblocks,
                                .nthreads = nthreads};
    t->kind = TASK_KERNEL;
    t->launch = l;
    enqueue(stream_or_default(stream, "shmemx_launch"), t);
    return 0;
}

int device_stream_call(shmemx_stream_t stream, void (*call)(void *), void *arg,
                       const char *routine)
{
    oshm_require_init(routine);
    if (start_engines() != 0)
        return -1;
    struct task *t = calloc(1, sizeof *t);
    if (!t)
        return -1;
    *t = (struct task){.kind = TASK_CALL, .call = call, .arg = arg};
    enqueue(stream_or_default(stream, routine), t);
    return 0;
}

OSHM_FN(int, shmemx_event_create, (shmemx_event_t * event))
{
    struct shmemx_event_impl *e = calloc(1, sizeof *e);
    if (!e)
        return -1;
    pthread_mutex_init(&e->lock, NULL);
    pthread_cond_init(&e->cond, NULL);
    *event = e;
    return 0;
}

OSHM_FN(void, shmemx_event_destroy, (shmemx_event_t event))
{
    if (!event)
        return;
    /* Tasks still queued may name it. */
    shmemx_event_synchronize(event);
    pthread_mutex_destroy(&event->lock);
    pthread_cond_destroy(&event->cond);
    free(event);
}

OSHM_FN(void, shmemx_event_record, (shmemx_event_t event, shmemx_stream_t stream))
{
    struct task *t = calloc(1, sizeof *t);
    if (!t)
        oshm_fatal("shmemx_event_record: out of memory");
    pthread_mutex_lock(&event->lock);
    t->seq = ++event->recorded;
    pthread_mutex_unlock(&event->lock);
    t->kind = TASK_RECORD;
    t->event = event;
    enqueue(stream_or_default(stream, "shmemx_event_record"), t);
}

OSHM_FN(void, shmemx_event_synchronize, (shmemx_event_t event))
{
    pthread_mutex_lock(&event->lock);
    uint64_t want = event->recorded;
    pthread_mutex_unlock(&event->lock);
    wait_event_seq(event, want);
}

OSHM_FN(int, shmemx_event_query, (shmemx_event_t event))
{
    pthread_mutex_lock(&event->lock);
    int done = event->completed >= event->recorded;
    pthread_mutex_unlock(&event->lock);
    return done;
}

OSHM_FN(void, shmemx_stream_wait_event, (shmemx_stream_t stream, shmemx_event_t event))
{
    struct task *t = calloc(1, sizeof *t);
    if (!t)
        oshm_fatal("shmemx_stream_wait_event: out of memory");
    pthread_mutex_lock(&event->lock);
    t->seq = event->recorded;
    pthread_mutex_unlock(&event->lock);
    t->kind = TASK_WAIT;
    t->event = event;
    enqueue(stream_or_default(stream, "shmemx_stream_wait_event"), t);
}

OSHM_FN(void, shmemx_device_synchronize, (void))
{
    pthread_mutex_lock(&streams_lock);
    for (struct shmemx_stream_impl *s = streams; s; s = s->next_stream)
        sync_stream(s);
    pthread_mutex_unlock(&streams_lock);
}

void device_fini(void)
{
    pthread_mutex_lock(&streams_lock);
    struct shmemx_stream_impl *s = streams;
    streams = NULL;
    default_stream = NULL;
    pthread_mutex_unlock(&streams_lock);
    while (s) {
        struct shmemx_stream_impl *next = s->next_stream;
        stop_stream(s);
        s = next;
    }
    engine_stop();
    pthread_mutex_lock(&engines_lock);
    engines_started = false;
    pthread_mutex_unlock(&engines_lock);
}
