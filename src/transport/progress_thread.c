#include "transport/progress_thread.h"

#include <string.h>
#include <time.h>

#include "util/log.h"

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* Polls the target until a burst of messages is over. */
static void serve(struct progress_thread *t)
{
    for (uint64_t last = now_ns();;) {
        if (t->poll())
            last = now_ns();
        else if (t->oversubscribed || now_ns() - last > PROGRESS_THREAD_LINGER_NS)
            return;
    }
}

static void *run(void *arg)
{
    struct progress_thread *t = arg;
    if (t->begin)
        t->begin();
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
            serve(t);
            t->sleep();
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
    return 0;
}

void progress_thread_stop(struct progress_thread *t)
{
    atomic_store_explicit(&t->stop, true, memory_order_release);
    if (t->wake)
        t->wake();
    pthread_join(t->thread, NULL);
}
