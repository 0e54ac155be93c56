/* Contexts under SHMEM_THREAD_MULTIPLE: four threads per PE, each with a
 * context of its own (two SHMEM_CTX_PRIVATE, two shared-capable), put and
 * AMO into a region of their own on the next PE; shmem_ctx_quiet on a
 * thread's context completes that thread's operations, so once a flag put
 * after it lands the next PE sees them all. Then the four threads share
 * SHMEM_CTX_DEFAULT at once: concurrent AMOs on one counter lose nothing.
 *
 *   ctx_threads [ROUNDS]   (per thread and phase, at least SLOTS) */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "check.h"

#define NTHREADS 4
#define SLOTS 64
#define PHASES 4
#define FETCH_EVERY 8 /* fetching AMOs are round trips: fewer of them */

static int me, npes, next;
static long rounds = 2000;

/* Written by the previous PE's thread t. */
static long slot[NTHREADS][SLOTS];
static long added[NTHREADS];
static long fetched_from[NTHREADS];
/* Every thread of the previous PE, through the default context. */
static long shared_counter;
/* Put by the previous PE's thread t after its quiet: the step it finished. */
static long ready[NTHREADS];

static pthread_barrier_t meet;

/* Every thread of every PE: the threads of this PE first, then one of them
 * stands for the PE. */
static void meet_all(int t)
{
    pthread_barrier_wait(&meet);
    if (t == 0)
        shmem_barrier_all();
    pthread_barrier_wait(&meet);
}

/* Told by a put issued after the quiet, not by a barrier: a barrier
 * completes the default context's operations and could hide a quiet that
 * does not complete its own. */
static void tell_next(int t, long step)
{
    shmem_long_p(&ready[t], step, next);
}

/* Distinct per thread and per round, never 0. */
static long value(int t, long n)
{
    return n * NTHREADS + t + 1;
}

static void *own_context(void *arg)
{
    int t = (int)(intptr_t)arg;
    shmem_ctx_t ctx;
    long options = t < 2 ? SHMEM_CTX_PRIVATE : 0;
    CHECK(shmem_ctx_create(options, &ctx) == 0, "thread %d: shmem_ctx_create(%ld)", t, options);
    long n = 0;
    for (int p = 0; p < PHASES; p++) {
        for (long k = 0; k < rounds; k++, n++) {
            shmem_ctx_long_p(ctx, &slot[t][k % SLOTS], value(t, n), next);
            shmem_ctx_long_atomic_add(ctx, &added[t], 1, next);
            if (n % FETCH_EVERY == 0) {
                /* Only this thread updates the word: the values it fetches
                 * follow each other exactly. */
                long old = shmem_ctx_long_atomic_fetch_inc(ctx, &fetched_from[t], next);
                CHECK(old == n / FETCH_EVERY, "thread %d round %ld: fetch_inc %ld, expected %ld",
                      t, n, old, n / FETCH_EVERY);
            }
        }
        shmem_ctx_quiet(ctx);
        tell_next(t, p + 1);
        shmem_long_wait_until(&ready[t], SHMEM_CMP_GE, p + 1);
        for (int j = 0; j < SLOTS; j++) {
            long last = p * rounds + j + SLOTS * ((rounds - 1 - j) / SLOTS);
            CHECK(slot[t][j] == value(t, last), "thread %d phase %d slot %d: %ld, expected %ld", t,
                  p, j, slot[t][j], value(t, last));
        }
        long total = shmem_long_atomic_fetch(&added[t], me);
        CHECK(total == n, "thread %d phase %d: atomic_add counter %ld, expected %ld", t, p, total,
              n);
        meet_all(t); /* checked before the next phase overwrites */
    }
    shmem_ctx_destroy(ctx);
    return NULL;
}

static void *default_context(void *arg)
{
    int t = (int)(intptr_t)arg;
    for (int p = 0; p < PHASES; p++) {
        for (long k = 0; k < rounds; k++) {
            if (k % FETCH_EVERY == 0)
                (void)shmem_long_atomic_fetch_inc(&shared_counter, next);
            else
                shmem_long_atomic_add(&shared_counter, 1, next);
        }
        shmem_quiet();
        long step = PHASES + p + 1;
        tell_next(t, step);
        if (t == 0) {
            shmem_long_wait_until_all(ready, NTHREADS, NULL, SHMEM_CMP_GE, step);
            long total = shmem_long_atomic_fetch(&shared_counter, me);
            long expected = (long)(p + 1) * NTHREADS * rounds;
            CHECK(total == expected, "phase %d: shared counter %ld, expected %ld", p, total,
                  expected);
        }
        meet_all(t);
    }
    return NULL;
}

static void run_threads(void *(*body)(void *))
{
    pthread_t th[NTHREADS];
    for (int t = 0; t < NTHREADS; t++)
        CHECK(pthread_create(&th[t], NULL, body, (void *)(intptr_t)t) == 0, "pthread_create");
    for (int t = 0; t < NTHREADS; t++)
        pthread_join(th[t], NULL);
}

int main(int argc, char **argv)
{
    int provided = -1;
    CHECK(shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided) == 0, "shmem_init_thread");
    CHECK(provided == SHMEM_THREAD_MULTIPLE, "provided thread level %d", provided);
    me = shmem_my_pe();
    npes = shmem_n_pes();
    next = (me + 1) % npes;
    if (argc > 1)
        rounds = atol(argv[1]);
    CHECK(rounds >= SLOTS, "rounds %ld: at least %d", rounds, SLOTS);
    pthread_barrier_init(&meet, NULL, NTHREADS);

    run_threads(own_context);
    run_threads(default_context);

    pthread_barrier_destroy(&meet);
    shmem_barrier_all();
    if (me == 0)
        printf("ctx_threads, %d PEs, %d threads: passed\n", npes, NTHREADS);
    shmem_finalize();
    return 0;
}
