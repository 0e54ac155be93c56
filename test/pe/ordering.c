/* Ordering and completion as the OpenSHMEM 1.5 specification states them,
 * checked by the PE that receives:
 *   fence: "ensures ordering of delivery of put, AMO, memory store, and
 *     non-blocking put routines to the same PE";
 *   quiet: "ensures completion of all put, get, AMO, memory store, and
 *     non-blocking put/get routines ... issued by the calling PE on the
 *     context";
 *   put-with-signal: the signal update is delivered after the data.
 *
 *   ordering CASE [ROUNDS]
 *   CASE: amo-fence-put | put-fence-amo | put-signal | nbi-quiet | ctx
 *
 * Every PE sends to the next one (i -> i+1 mod npes) and receives from the
 * previous one at the same time, so that when PEs are split into nodes both
 * same-node and cross-node pairs run. A late delivery is a race that shows in
 * a few rounds out of thousands: each case runs many rounds with values that
 * change every round, and reports how many rounds failed and the first one.
 * The job exits non-zero when any PE saw a failure. */
#define _POSIX_C_SOURCE 200809L
#include <shmem.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BULK (64 * 1024 / sizeof(long)) /* 64 KiB of longs */
#define NSIZES 3
static const size_t sizes[NSIZES] = {1, 4096 / sizeof(long), BULK}; /* 8 B, 4 KiB, 64 KiB */

static int me, npes, next, prev;

/* The ctx case issues everything on a context of its own; the other cases
 * use the plain routines, which an implementation may route differently. */
static bool use_ctx;
static shmem_ctx_t ctx;
#define ON_CTX(op, ...) (use_ctx ? shmem_ctx_##op(ctx, __VA_ARGS__) : shmem_##op(__VA_ARGS__))
static void fence(void)
{
    if (use_ctx)
        shmem_ctx_fence(ctx);
    else
        shmem_fence();
}

/* ---- failures: failed rounds counted, the first failure of each pattern
 * printed ---- */

static long errors; /* failed rounds, every pattern */
static long pattern_errors, last_failed;
static const char *pattern;

static void fail(long round, const char *what, long expected, long seen)
{
    if (pattern_errors == 0)
        fprintf(stderr, "PE %d: %s: round %ld: %s: expected %ld, seen %ld\n", me, pattern, round,
                what, expected, seen);
    if (round != last_failed) {
        last_failed = round;
        pattern_errors++;
        errors++;
    }
}

/* The first element of a received buffer that is not the round's value. */
static void check_buffer(long round, const char *what, const long *buf, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (buf[i] != round) {
            char where[96];
            snprintf(where, sizeof where, "%s [%zu of %zu]", what, i, n);
            fail(round, where, round, buf[i]);
            return;
        }
}

/* ---- flow control: a buffer is overwritten only once its receiver has
 * checked it. acked counts the rounds the next PE has checked of ours;
 * numbering runs on across patterns, so nothing needs resetting. ---- */

static long acked, sent, checked;

static void wait_ack(void)
{
    shmem_long_wait_until(&acked, SHMEM_CMP_GE, sent);
}

static void send_ack(void)
{
    shmem_long_p(&acked, ++checked, prev);
}

/* Where shmem_ptr maps the next PE's memory, some rounds write it by memory
 * stores, which fence orders too (not on a context: a context's fence orders
 * what is issued on it). The previous PE says whether it does, so that a
 * failure names what was done. */
static int prev_stores;

static volatile long *map_next(void *addr)
{
    volatile long *p = use_ctx ? NULL : shmem_ptr(addr, next);
    shmem_int_p(&prev_stores, p != NULL, next);
    shmem_barrier_all();
    return p;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static double pattern_start;

static void begin(const char *name)
{
    pattern = name;
    pattern_errors = last_failed = 0;
    shmem_barrier_all();
    pattern_start = now();
}

/* peer: the PE whose operations this PE checked. */
static void end(long rounds, int peer)
{
    wait_ack(); /* the last round checked: nothing of ours is still to land */
    if (pattern_errors)
        fprintf(stderr, "PE %d: %s: %ld of %ld rounds with PE %d failed\n", me, pattern,
                pattern_errors, rounds, peer);
    shmem_barrier_all();
    if (me == 0)
        printf("%s: %ld rounds in %.2f s\n", pattern, rounds, now() - pattern_start);
    fflush(stdout); /* before a failing PE ends the job */
}

/* ---- the cases ---- */

#define BATCH 8 /* AMOs ahead of the last one before a fence */

/* AMO -> fence -> put: once the put's word shows round r, the AMOs of
 * round r must show too: BATCH atomic_adds to a counter, then one of four
 * AMOs, each of which leaves a word equal to r. The batch keeps AMOs queued
 * on their path, as a busy program does: a fence orders every one of them.
 * Where the next PE is mapped, half the rounds write the put's word by a
 * memory store instead. */
static void amo_fence_put(long rounds)
{
    static const char *const kinds[] = {"atomic_set", "atomic_add", "atomic_inc",
                                        "atomic_fetch_add"};
    long *counter = shmem_calloc(1, sizeof(long));
    long *a = shmem_calloc(1, sizeof(long));
    long *b = shmem_calloc(1, sizeof(long));
    volatile long *mapped_b = map_next(b);
    begin(use_ctx ? "ctx amo-fence-put" : "amo-fence-put");
    for (long r = 1; r <= rounds; r++) {
        wait_ack();
        int kind = (int)(r % 4);
        bool store = (r / 4) % 2;
        for (int i = 0; i < BATCH; i++)
            ON_CTX(long_atomic_add, counter, 1, next);
        switch (kind) {
        case 0: ON_CTX(long_atomic_set, a, r, next); break;
        case 1: ON_CTX(long_atomic_add, a, 1, next); break;
        case 2: ON_CTX(long_atomic_inc, a, next); break;
        default: (void)ON_CTX(long_atomic_fetch_add, a, 1, next); break;
        }
        fence();
        if (store && mapped_b)
            *mapped_b = r;
        else
            ON_CTX(long_p, b, r, next);
        sent++;

        shmem_long_wait_until(b, SHMEM_CMP_GE, r);
        if (*b != r)
            fail(r, "put word", r, *b);
        /* Words updated by AMOs: read with an AMO. */
        char what[64];
        snprintf(what, sizeof what, "%s, fence, %s", kinds[kind],
                 store && prev_stores ? "store" : "long_p");
        long seen = shmem_long_atomic_fetch(a, me);
        if (seen != r)
            fail(r, what, r, seen);
        seen = shmem_long_atomic_fetch(counter, me);
        if (seen != BATCH * r)
            fail(r, "counter of atomic_adds before the fence", BATCH * r, seen);
        send_ack();
    }
    end(rounds, prev);
    shmem_free(a);
    shmem_free(counter);
    shmem_free(b);
}

/* put -> fence -> AMO: once the AMO's flag shows round r, the data put of
 * round r (one word by shmem_p, 4 KiB or 64 KiB by putmem) must be there.
 * The flag is raised by atomic_inc or atomic_set, both leaving it at r.
 * Where the next PE is mapped, half the rounds write the data by memory
 * stores instead. */
static void put_fence_amo(long rounds)
{
    long *data = shmem_malloc(BULK * sizeof(long));
    long *flag = shmem_calloc(1, sizeof(long));
    long *src = malloc(BULK * sizeof(long));
    memset(data, 0, BULK * sizeof(long));
    volatile long *mapped_data = map_next(data);
    begin(use_ctx ? "ctx put-fence-amo" : "put-fence-amo");
    for (long r = 1; r <= rounds; r++) {
        size_t n = sizes[r % NSIZES];
        bool inc = (r / NSIZES) % 2;
        bool store = (r / (2 * NSIZES)) % 2;
        wait_ack();
        if (store && mapped_data) {
            for (size_t i = 0; i < n; i++)
                mapped_data[i] = r;
        } else if (n == 1) {
            ON_CTX(long_p, data, r, next);
        } else {
            for (size_t i = 0; i < n; i++)
                src[i] = r;
            ON_CTX(putmem, data, src, n * sizeof(long), next);
        }
        fence();
        if (inc)
            ON_CTX(long_atomic_inc, flag, next);
        else
            ON_CTX(long_atomic_set, flag, r, next);
        sent++;

        shmem_long_wait_until(flag, SHMEM_CMP_GE, r);
        long f = shmem_long_atomic_fetch(flag, me);
        if (f != r)
            fail(r, "flag", r, f);
        char what[64];
        snprintf(what, sizeof what, "%s, fence, %s",
                 store && prev_stores ? "stores" : n == 1 ? "long_p" : "putmem",
                 inc ? "atomic_inc" : "atomic_set");
        check_buffer(r, what, data, n);
        send_ack();
    }
    end(rounds, prev);
    free(src);
    shmem_free(flag);
    shmem_free(data);
}

/* put_signal and put_signal_nbi, SET and ADD: once the signal shows round r,
 * the whole buffer of round r must be there. */
static void put_signal(long rounds)
{
    long *data = shmem_malloc(BULK * sizeof(long));
    uint64_t *sig = shmem_calloc(1, sizeof(uint64_t));
    long *src = malloc(BULK * sizeof(long));
    memset(data, 0, BULK * sizeof(long));
    begin("put-signal");
    bool nbi_pending = false;
    for (long r = 1; r <= rounds; r++) {
        size_t n = sizes[r % NSIZES];
        int kind = (int)((r / NSIZES) % 4);
        bool nbi = kind >= 2;
        int op = kind % 2 ? SHMEM_SIGNAL_ADD : SHMEM_SIGNAL_SET;
        uint64_t value = op == SHMEM_SIGNAL_ADD ? 1 : (uint64_t)r; /* the signal becomes r */
        wait_ack();
        if (nbi_pending) /* the source of a non-blocking put is ours again after quiet */
            shmem_quiet();
        for (size_t i = 0; i < n; i++)
            src[i] = r;
        if (nbi)
            shmem_long_put_signal_nbi(data, src, n, sig, value, op, next);
        else
            shmem_long_put_signal(data, src, n, sig, value, op, next);
        nbi_pending = nbi;
        sent++;

        uint64_t s = shmem_signal_wait_until(sig, SHMEM_CMP_GE, (uint64_t)r);
        if (s != (uint64_t)r)
            fail(r, "signal", r, (long)s);
        char what[64];
        snprintf(what, sizeof what, "put_signal%s %s", nbi ? "_nbi" : "",
                 op == SHMEM_SIGNAL_ADD ? "ADD" : "SET");
        check_buffer(r, what, data, n);
        send_ack();
    }
    shmem_quiet();
    end(rounds, prev);
    free(src);
    shmem_free(sig);
    shmem_free(data);
}

#define NWORDS 64 /* single-word non-blocking puts and gets per round */
#define NCTR 8    /* counters per kind of AMO per round */

/* Non-blocking fetching AMOs, put_nbi of single words, putmem_nbi (8 B,
 * 4 KiB or 64 KiB) and AMOs, then quiet, then a flag put without fence: the
 * flag is put once everything before the quiet is complete, so all of it is
 * there when the flag is. The fetching AMOs come first: an implementation
 * may complete them at once, and with them what went before. */
static void nbi_quiet_put(long rounds)
{
    long *words = shmem_calloc(NWORDS, sizeof(long));
    long *bulk = shmem_calloc(BULK, sizeof(long));
    long *added = shmem_calloc(NCTR, sizeof(long));
    long *fadded = shmem_calloc(NCTR, sizeof(long));
    long *flag = shmem_calloc(1, sizeof(long));
    long *src = malloc(BULK * sizeof(long));
    long fetched[NCTR];
    begin("nbi-quiet put");
    for (long r = 1; r <= rounds; r++) {
        size_t n = sizes[r % NSIZES];
        wait_ack();
        for (int k = 0; k < NCTR; k++)
            shmem_long_atomic_fetch_add_nbi(&fetched[k], &fadded[k], 1, next);
        for (size_t i = 0; i < (n > NWORDS ? n : NWORDS); i++)
            src[i] = r;
        for (int i = 0; i < NWORDS; i++)
            shmem_long_put_nbi(&words[i], &src[i], 1, next);
        shmem_putmem_nbi(bulk, src, n * sizeof(long), next);
        for (int k = 0; k < NCTR; k++)
            shmem_long_atomic_add(&added[k], 1, next);
        shmem_quiet();
        /* The fetches completed too: each returned the value before its add. */
        for (int k = 0; k < NCTR; k++)
            if (fetched[k] != r - 1) {
                char what[80];
                snprintf(what, sizeof what, "atomic_fetch_add_nbi to PE %d, its result", next);
                fail(r, what, r - 1, fetched[k]);
            }
        shmem_long_p(flag, r, next);
        sent++;

        shmem_long_wait_until(flag, SHMEM_CMP_GE, r);
        if (*flag != r)
            fail(r, "flag", r, *flag);
        for (int i = 0; i < NWORDS; i++)
            if (words[i] != r) {
                fail(r, "long_put_nbi word", r, words[i]);
                break;
            }
        check_buffer(r, "putmem_nbi", bulk, n);
        for (int k = 0; k < NCTR; k++) {
            long v = shmem_long_atomic_fetch(&added[k], me);
            if (v != r)
                fail(r, "counter of atomic_add", r, v);
            v = shmem_long_atomic_fetch(&fadded[k], me);
            if (v != r)
                fail(r, "counter of atomic_fetch_add_nbi", r, v);
        }
        send_ack();
    }
    end(rounds, prev);
    free(src);
    shmem_free(flag);
    shmem_free(fadded);
    shmem_free(added);
    shmem_free(bulk);
    shmem_free(words);
}

/* get_nbi of single words and getmem_nbi (8 B, 4 KiB or 64 KiB), then
 * quiet: the local buffers hold what the target wrote to its memory before
 * the barrier. The target writes the two halves of its buffer in turn: a PE
 * still getting round r's half has not reached round r+1's barrier, so
 * nobody rewrites that half yet. */
static void nbi_quiet_get(long rounds)
{
    long *pub = shmem_malloc(2 * (NWORDS + BULK) * sizeof(long));
    long *got = malloc((NWORDS + BULK) * sizeof(long));
    begin("nbi-quiet get");
    for (long r = 1; r <= rounds; r++) {
        size_t n = sizes[r % NSIZES];
        long *half = pub + (r % 2) * (NWORDS + BULK);
        for (size_t i = 0; i < NWORDS + n; i++)
            half[i] = r;
        memset(got, 0, (NWORDS + n) * sizeof(long));
        shmem_barrier_all();
        for (int i = 0; i < NWORDS; i++)
            shmem_long_get_nbi(&got[i], &half[i], 1, next);
        shmem_getmem_nbi(got + NWORDS, half + NWORDS, n * sizeof(long), next);
        shmem_quiet();
        check_buffer(r, "long_get_nbi word", got, NWORDS);
        check_buffer(r, "getmem_nbi", got + NWORDS, n);
    }
    /* No acks here: the rounds sent and checked are unchanged. */
    end(rounds, next);
    free(got);
    shmem_free(pub);
}

static long err_src, err_sum;

int main(int argc, char **argv)
{
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    next = (me + 1) % npes;
    prev = (me + npes - 1) % npes;
    const char *which = argc > 1 ? argv[1] : "";
    long rounds = argc > 2 ? atol(argv[2]) : 0;
    bool word_sized = !strcmp(which, "amo-fence-put") || !strcmp(which, "ctx");
    if (rounds <= 0)
        rounds = word_sized ? 20000 : 3000;
    if (npes < 2) {
        if (me == 0)
            printf("ordering %s: 1 PE, nothing to order: skipped\n", which);
        shmem_finalize();
        return 0;
    }

    if (!strcmp(which, "amo-fence-put")) {
        amo_fence_put(rounds);
    } else if (!strcmp(which, "put-fence-amo")) {
        put_fence_amo(rounds);
    } else if (!strcmp(which, "put-signal")) {
        put_signal(rounds);
    } else if (!strcmp(which, "nbi-quiet")) {
        nbi_quiet_put(rounds);
        nbi_quiet_get(rounds);
    } else if (!strcmp(which, "ctx")) {
        if (shmem_ctx_create(0, &ctx) != 0) {
            fprintf(stderr, "PE %d: shmem_ctx_create failed\n", me);
            shmem_global_exit(1);
        }
        use_ctx = true;
        amo_fence_put(rounds);
        put_fence_amo(rounds / 4);
        shmem_ctx_destroy(ctx);
    } else {
        if (me == 0)
            fprintf(stderr, "usage: ordering amo-fence-put|put-fence-amo|put-signal|nbi-quiet|ctx"
                            " [rounds]\n");
        shmem_finalize();
        return 2;
    }

    err_src = errors;
    shmem_barrier_all();
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &err_sum, &err_src, 1);
    if (me == 0)
        printf("ordering %s, %d PEs: %s (%ld failed rounds)\n", which, npes,
               err_sum ? "FAILED" : "passed", err_sum);
    fflush(stdout);
    shmem_finalize();
    return err_sum ? 1 : 0;
}
