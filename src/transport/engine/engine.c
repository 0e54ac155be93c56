#include "transport/engine/engine.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/log.h"
#include "util/spin.h"

#define ENGINE_QUEUE_DEPTH 1024
/* Weak ordering: queues per engine, and the delay step between them. Queue
 * q holds each descriptor (WEAK_QUEUES - 1 - q) steps plus a varying part
 * back, so consecutive descriptors of a thread, spread round-robin, tend to
 * complete last-posted first. */
#define WEAK_QUEUES 4
#define WEAK_STEP_US 100u

struct engine_queue {
    struct engine *engine;
    unsigned index;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t doorbell;  /* rung by posters */
    pthread_cond_t space;     /* rung by the queue when it frees slots */
    struct engine_desc ring[ENGINE_QUEUE_DEPTH];
    size_t head, tail;        /* tail - head descriptors are queued */
    bool stop;
    bool running;
    uint32_t rng;             /* the weak mode's varying delays */
    /* The queue's own channel, opened by its thread, the only one to use
     * it: its quiet completes this queue's work only. */
    void *channel;
};

struct engine {
    enum engine_kind kind;
    _Atomic uint64_t executed;
    struct engine_queue queue[WEAK_QUEUES];
};

static struct engine engines[ENGINE_KINDS];
static struct engine_link via; /* what the queues move data through */
static unsigned engine_delay_us;
static unsigned engine_queues = 1;
static bool engines_on;
static pthread_mutex_t start_lock = PTHREAD_MUTEX_INITIALIZER;

const char *engine_name(enum engine_kind k)
{
    static const char *const names[ENGINE_KINDS] = {"AUTO", "MTE", "SDMA", "UDMA", "RDMA"};
    return (unsigned)k < ENGINE_KINDS ? names[k] : "unknown";
}

static bool same_node(int pe) { return via.node_of[pe] == via.my_node; }

enum engine_kind engine_for(int pe) { return same_node(pe) ? ENGINE_MTE : ENGINE_UDMA; }

bool engine_reaches(enum engine_kind k, int pe)
{
    return k == ENGINE_UDMA || k == ENGINE_RDMA || k == ENGINE_AUTO || same_node(pe);
}

static void copy_rows(void *ch, const struct engine_desc *d)
{
    size_t rows = d->rows ? d->rows : 1;
    for (size_t r = 0; r < rows; r++) {
        char *dst = (char *)d->dst + (ptrdiff_t)r * d->dst_pitch;
        const char *src = d->src ? (const char *)d->src + (ptrdiff_t)r * d->src_pitch
                                 : (const char *)d->inline_data;
        if (d->op == ENGINE_GET)
            via.get(ch, dst, src, d->len, d->pe, d->routine);
        else
            via.put(ch, dst, src, d->len, d->pe, d->routine);
    }
}

static void execute(void *ch, const struct engine_desc *d)
{
    switch (d->op) {
    case ENGINE_PUT:
    case ENGINE_GET:
        copy_rows(ch, d);
        break;
    case ENGINE_PUT_SIGNAL:
        via.put(ch, d->dst, d->src, d->len, d->pe, d->routine);
        via.signal(ch, d->sig, d->sig_value, d->sig_op, d->pe, d->routine);
        break;
    case ENGINE_SIGNAL:
        via.signal(ch, d->sig, d->sig_value, d->sig_op, d->pe, d->routine);
        break;
    case ENGINE_AMO: {
        uint64_t old = via.amo(ch, d->dst, d->amo_size, d->amo, d->operand, d->compare, d->pe,
                               d->routine);
        if (d->result)
            *d->result = old;
        break;
    }
    }
}

static void sleep_us(unsigned us)
{
    if (!us)
        return;
    struct timespec t = {.tv_sec = us / 1000000, .tv_nsec = (long)(us % 1000000) * 1000};
    nanosleep(&t, NULL);
}

static void delay(struct engine_queue *q)
{
    unsigned us = engine_delay_us;
    if (engine_queues > 1) {
        q->rng ^= q->rng << 13;
        q->rng ^= q->rng >> 17;
        q->rng ^= q->rng << 5;
        us += (engine_queues - 1 - q->index) * WEAK_STEP_US + q->rng % (WEAK_STEP_US / 2);
    }
    sleep_us(us);
}

/* Makes the effects of BATCH[from, to) visible at their targets (the
 * channel's quiet), then tells their posters: completion is remote
 * completion, never earlier. */
static void complete(struct engine_queue *q, const struct engine_desc *batch, size_t from,
                     size_t to)
{
    if (from == to)
        return;
    via.quiet(q->channel);
    for (size_t i = from; i < to; i++) {
        atomic_fetch_add_explicit(&q->engine->executed, 1, memory_order_relaxed);
        atomic_fetch_add_explicit(&batch[i].done->completed, 1, memory_order_release);
    }
}

static void *queue_main(void *arg)
{
    struct engine_queue *q = arg;
    struct engine_desc batch[64];
    q->channel = via.open(engine_name(q->engine->kind));
    if (!q->channel)
        oshm_fatal("the %s engine cannot open a communication channel",
                   engine_name(q->engine->kind));
    for (;;) {
        pthread_mutex_lock(&q->lock);
        while (q->head == q->tail && !q->stop)
            pthread_cond_wait(&q->doorbell, &q->lock);
        if (q->head == q->tail && q->stop) {
            pthread_mutex_unlock(&q->lock);
            via.close(q->channel);
            q->channel = NULL;
            return NULL;
        }
        size_t n = 0;
        while (q->head != q->tail && n < sizeof batch / sizeof batch[0])
            batch[n++] = q->ring[q->head++ % ENGINE_QUEUE_DEPTH];
        pthread_cond_broadcast(&q->space);
        pthread_mutex_unlock(&q->lock);

        size_t done = 0;
        for (size_t i = 0; i < n; i++) {
            const struct engine_desc *d = &batch[i];
            if (atomic_load_explicit(&d->done->completed, memory_order_acquire) < d->after) {
                /* Behind a fence: what this queue has run must complete
                 * first, or the wait could be for itself. */
                complete(q, batch, done, i);
                done = i;
                uint32_t spins = 0;
                while (atomic_load_explicit(&d->done->completed, memory_order_acquire) < d->after)
                    oshm_spin_step(&spins);
            }
            delay(q);
            execute(q->channel, d);
        }
        complete(q, batch, done, n);
    }
}

int engine_start(const struct engine_link *with, unsigned delay_us, bool weak)
{
    pthread_mutex_lock(&start_lock);
    if (!engines_on) {
        via = *with;
        engine_delay_us = delay_us;
        engine_queues = weak ? WEAK_QUEUES : 1;
        for (int k = 0; k < ENGINE_KINDS; k++) {
            struct engine *e = &engines[k];
            memset(e, 0, sizeof *e);
            e->kind = (enum engine_kind)k;
            for (unsigned i = 0; i < WEAK_QUEUES; i++) {
                struct engine_queue *q = &e->queue[i];
                q->engine = e;
                q->index = i;
                q->rng = 2463534242u + 7919u * (unsigned)(k * WEAK_QUEUES + (int)i);
                pthread_mutex_init(&q->lock, NULL);
                pthread_cond_init(&q->doorbell, NULL);
                pthread_cond_init(&q->space, NULL);
            }
        }
        engines_on = true;
    }
    pthread_mutex_unlock(&start_lock);
    return 0;
}

void engine_stop(void)
{
    pthread_mutex_lock(&start_lock);
    for (int k = 0; engines_on && k < ENGINE_KINDS; k++) {
        for (unsigned i = 0; i < WEAK_QUEUES; i++) {
            struct engine_queue *q = &engines[k].queue[i];
            pthread_mutex_lock(&q->lock);
            bool running = q->running;
            q->stop = true;
            pthread_cond_signal(&q->doorbell);
            pthread_mutex_unlock(&q->lock);
            if (running)
                pthread_join(q->thread, NULL);
            pthread_mutex_destroy(&q->lock);
            pthread_cond_destroy(&q->doorbell);
            pthread_cond_destroy(&q->space);
        }
    }
    engines_on = false;
    pthread_mutex_unlock(&start_lock);
}

void engine_post(const struct engine_desc *d)
{
    struct engine_counter *c = d->done;
    /* First: the link says where PEs are only once started. */
    if (__builtin_expect(!engines_on, 0))
        oshm_fatal("%s: the device engines are not started: they start with the first "
                   "shmemx_launch or *_on_stream call after shmem_init", d->routine);
    enum engine_kind k = d->engine == ENGINE_AUTO ? engine_for(d->pe) : d->engine;
    if (__builtin_expect((unsigned)k >= ENGINE_KINDS, 0))
        oshm_fatal("%s: no engine %d (AUTO, MTE, SDMA, UDMA or RDMA)", d->routine, (int)k);
    if (__builtin_expect(!engine_reaches(k, d->pe), 0))
        oshm_fatal("%s: the %s engine reaches only PEs of this node (node %d); PE %d is on node "
                   "%d: use UDMA, RDMA or AUTO", d->routine, engine_name(k), via.my_node,
                   d->pe, via.node_of[d->pe]);
    /* AMOs and signals keep one queue, the quickest: a thread's atomics on
     * one engine stay in order among themselves (as an atomic unit serves
     * them), and overtake its RMA unless a fence says otherwise. */
    bool atomic = d->op == ENGINE_AMO || d->op == ENGINE_SIGNAL;
    struct engine_queue *q =
        &engines[k].queue[atomic ? engine_queues - 1 : c->next_queue++ % engine_queues];
    struct engine_desc copy = *d;
    copy.engine = k;
    copy.after = c->fence_mark;
    atomic_fetch_add_explicit(&c->posted, 1, memory_order_relaxed);
    pthread_mutex_lock(&q->lock);
    if (!q->running) {
        if (pthread_create(&q->thread, NULL, queue_main, q) != 0)
            oshm_fatal("%s: cannot start the %s engine: %m", d->routine, engine_name(k));
        q->running = true;
    }
    while (q->tail - q->head == ENGINE_QUEUE_DEPTH)
        pthread_cond_wait(&q->space, &q->lock);
    q->ring[q->tail++ % ENGINE_QUEUE_DEPTH] = copy;
    pthread_cond_signal(&q->doorbell);
    pthread_mutex_unlock(&q->lock);
}

void engine_fence(struct engine_counter *c)
{
    c->fence_mark = atomic_load_explicit(&c->posted, memory_order_relaxed);
}

void engine_wait(struct engine_counter *c)
{
    uint64_t want = atomic_load_explicit(&c->posted, memory_order_relaxed);
    uint32_t spins = 0;
    while (atomic_load_explicit(&c->completed, memory_order_acquire) < want)
        oshm_spin_step(&spins);
}

uint64_t engine_executed(enum engine_kind k)
{
    return (unsigned)k < ENGINE_KINDS ? atomic_load_explicit(&engines[k].executed,
                                                             memory_order_relaxed)
                                      : 0;
}
