#include "transport/engine/engine.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/log.h"
#include "util/spin.h"

#define ENGINE_QUEUE_DEPTH 1024

struct engine {
    enum engine_kind kind;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t doorbell;  /* rung by posters */
    pthread_cond_t space;     /* rung by the engine when it frees slots */
    struct engine_desc ring[ENGINE_QUEUE_DEPTH];
    size_t head, tail;        /* tail - head descriptors are queued */
    bool stop;
    bool running;
    _Atomic uint64_t executed;
    /* The engine's own channel, opened by its thread, the only one to use
     * it: its quiet completes the engine's work only. */
    struct hcomm_channel *channel;
};

static struct engine engines[ENGINE_KINDS];
static unsigned engine_delay_us;
static pthread_mutex_t start_lock = PTHREAD_MUTEX_INITIALIZER;

const char *engine_name(enum engine_kind k) { return k == ENGINE_MTE ? "MTE" : "UDMA"; }

enum engine_kind engine_for(int pe)
{
    return hcomm_load_store(pe) ? ENGINE_MTE : ENGINE_UDMA;
}

static void execute(struct engine *e, const struct engine_desc *d)
{
    struct hcomm_channel *ch = e->channel;
    switch (d->op) {
    case ENGINE_PUT:
        hcomm_put(ch, d->dst, d->src ? d->src : &d->inline_data, d->len, d->pe, false, d->routine);
        break;
    case ENGINE_GET:
        hcomm_get(ch, d->dst, d->src, d->len, d->pe, false, d->routine);
        break;
    case ENGINE_PUT_SIGNAL:
        hcomm_put(ch, d->dst, d->src, d->len, d->pe, false, d->routine);
        hcomm_signal(ch, d->sig, d->sig_value, d->sig_op, d->pe, d->routine);
        break;
    case ENGINE_SIGNAL:
        hcomm_signal(ch, d->sig, d->sig_value, d->sig_op, d->pe, d->routine);
        break;
    case ENGINE_AMO: {
        uint64_t old = hcomm_amo(ch, d->dst, d->amo_size, d->amo, d->operand, d->compare, d->pe,
                                 d->routine);
        if (d->result)
            *d->result = old;
        break;
    }
    }
}

static void delay(void)
{
    if (!engine_delay_us)
        return;
    struct timespec t = {.tv_sec = engine_delay_us / 1000000,
                         .tv_nsec = (long)(engine_delay_us % 1000000) * 1000};
    nanosleep(&t, NULL);
}

static void *engine_main(void *arg)
{
    struct engine *e = arg;
    struct engine_desc batch[64];
    if (hcomm_channel_create(HCOMM_CHAN_PRIVATE, &e->channel) != 0)
        oshm_fatal("the %s engine cannot open a communication channel", engine_name(e->kind));
    for (;;) {
        pthread_mutex_lock(&e->lock);
        while (e->head == e->tail && !e->stop)
            pthread_cond_wait(&e->doorbell, &e->lock);
        if (e->head == e->tail && e->stop) {
            pthread_mutex_unlock(&e->lock);
            hcomm_channel_destroy(e->channel);
            e->channel = NULL;
            return NULL;
        }
        size_t n = 0;
        while (e->head != e->tail && n < sizeof batch / sizeof batch[0])
            batch[n++] = e->ring[e->head++ % ENGINE_QUEUE_DEPTH];
        pthread_cond_broadcast(&e->space);
        pthread_mutex_unlock(&e->lock);

        /* In queue order; a descriptor completes when its effect is visible
         * at the target (the channel's quiet), never earlier. */
        for (size_t i = 0; i < n; i++) {
            delay();
            execute(e, &batch[i]);
        }
        hcomm_quiet(e->channel);
        for (size_t i = 0; i < n; i++) {
            atomic_fetch_add_explicit(&e->executed, 1, memory_order_relaxed);
            atomic_fetch_add_explicit(&batch[i].done->completed, 1, memory_order_release);
        }
    }
}

int engine_start(unsigned delay_us)
{
    int rc = 0;
    pthread_mutex_lock(&start_lock);
    engine_delay_us = delay_us;
    /* The engines' threads will use the backends alongside the program's. */
    hcomm_threads_begin();
    for (int k = 0; k < ENGINE_KINDS && rc == 0; k++) {
        struct engine *e = &engines[k];
        if (e->running)
            continue;
        memset(e, 0, sizeof *e);
        e->kind = (enum engine_kind)k;
        pthread_mutex_init(&e->lock, NULL);
        pthread_cond_init(&e->doorbell, NULL);
        pthread_cond_init(&e->space, NULL);
        if (pthread_create(&e->thread, NULL, engine_main, e) != 0) {
            oshm_warn("cannot start the %s engine: %m", engine_name(e->kind));
            rc = -1;
        } else {
            e->running = true;
        }
    }
    pthread_mutex_unlock(&start_lock);
    return rc;
}

void engine_stop(void)
{
    pthread_mutex_lock(&start_lock);
    for (int k = 0; k < ENGINE_KINDS; k++) {
        struct engine *e = &engines[k];
        if (!e->running)
            continue;
        pthread_mutex_lock(&e->lock);
        e->stop = true;
        pthread_cond_signal(&e->doorbell);
        pthread_mutex_unlock(&e->lock);
        pthread_join(e->thread, NULL);
        pthread_mutex_destroy(&e->lock);
        pthread_cond_destroy(&e->doorbell);
        pthread_cond_destroy(&e->space);
        e->running = false;
    }
    pthread_mutex_unlock(&start_lock);
}

void engine_post(const struct engine_desc *d)
{
    struct engine *e = &engines[engine_for(d->pe)];
    if (__builtin_expect(!e->running, 0))
        oshm_fatal("%s: the device engines are not started: they start with the first "
                   "shmemx_launch or *_on_stream call after shmem_init", d->routine);
    atomic_fetch_add_explicit(&d->done->posted, 1, memory_order_relaxed);
    pthread_mutex_lock(&e->lock);
    while (e->tail - e->head == ENGINE_QUEUE_DEPTH)
        pthread_cond_wait(&e->space, &e->lock);
    e->ring[e->tail++ % ENGINE_QUEUE_DEPTH] = *d;
    pthread_cond_signal(&e->doorbell);
    pthread_mutex_unlock(&e->lock);
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
    return atomic_load_explicit(&engines[k].executed, memory_order_relaxed);
}
