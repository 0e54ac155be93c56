/* Device-side semantics on the simulated device: kernels' RMA, AMOs,
 * signals, quiet, barriers, block-cooperative transfers, streams and
 * events, and host RMA on device memory. Values are checked, not just
 * return codes.
 *   device [all|visibility]
 * "visibility" runs with SHMEM_DEVICE_ENGINE_DELAY_US set: a put has not
 * landed when it returns, and has after quiet. */
#include <shmem/device.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

#define BLOCKS 3
#define THREADS 2
#define N 1000

struct rma_args {
    long *src, *dst, *got;
    int *ints;
};

/* Every thread puts its own slice to the next PE, in the four ways, and
 * reads the previous PE's back. */
static void rma_kernel(void *p)
{
    const struct rma_args *a = p;
    int me = shmemd_my_pe(), n = shmemd_n_pes(), next = (me + 1) % n, prev = (me + n - 1) % n;
    unsigned id = shmemd_block_idx() * shmemd_thread_num() + shmemd_thread_idx();
    unsigned nt = shmemd_block_num() * shmemd_thread_num();
    size_t share = N / nt, from = share * id, len = id == nt - 1 ? N - from : share;
    switch (id % 3) {
    case 0: shmemd_put(a->dst + from, a->src + from, len, next); break;
    case 1: shmemd_long_put_nbi(a->dst + from, a->src + from, len, next); break;
    default:
        for (size_t i = from; i < from + len; i++)
            shmemd_p(&a->dst[i], a->src[i], next);
    }
    shmemd_barrier_all();
    if (id % 2)
        shmemd_get(a->got + from, a->dst + from, len, prev);
    else
        for (size_t i = from; i < from + len; i++)
            a->got[i] = shmemd_g(&a->dst[i], prev);
    shmemd_int_p(&a->ints[id], (int)id + 1, next);
    shmemd_quiet();
}

struct amo_args {
    long *counter;   /* on PE 0 */
    uint64_t *ucounter;
    int *owner;
    long *swapped;
    double *dval;
};

#define AMO_ITERS 50

static void amo_kernel(void *p)
{
    const struct amo_args *a = p;
    int me = shmemd_my_pe();
    for (int i = 0; i < AMO_ITERS; i++) {
        shmemd_long_atomic_add(a->counter, 2, 0);
        shmemd_atomic_fetch_add(a->ucounter, (uint64_t)1, 0);
        shmemd_long_atomic_inc(&a->counter[1], 0);
    }
    /* Exactly one thread of all wins the slot. */
    if (shmemd_int_atomic_compare_swap(a->owner, -1, me * 1000 + (int)shmemd_block_idx(), 0) == -1)
        shmemd_int_atomic_add(&a->owner[1], 1, 0);
    shmemd_barrier_all();
    if (me == 0 && shmemd_block_idx() == 0 && shmemd_thread_idx() == 0) {
        *a->swapped = shmemd_long_atomic_swap(&a->counter[2], 77, 0);
        shmemd_double_atomic_set(a->dval, 2.5, 0);
        a->swapped[1] = (long)(shmemd_double_atomic_fetch(a->dval, 0) * 2);
        a->swapped[2] = shmemd_long_atomic_fetch(&a->counter[2], 0);
    }
}

struct signal_args {
    long *data;
    uint64_t *sig;
    long *seen;
};

/* Each block of each PE sends ROUNDS messages to the next PE with
 * put-with-signal (add); the receiver checks each message when its count
 * arrives. */
#define ROUNDS 20
static void signal_kernel(void *p)
{
    const struct signal_args *a = p;
    int me = shmemd_my_pe(), n = shmemd_n_pes(), next = (me + 1) % n, prev = (me + n - 1) % n;
    unsigned b = shmemd_block_idx();
    long msg[8];
    for (int r = 0; r < ROUNDS; r++) {
        for (int i = 0; i < 8; i++)
            msg[i] = me * 100000 + r * 100 + i;
        shmemd_putmem_signal(&a->data[(b * ROUNDS + r) * 8], msg, sizeof msg, &a->sig[b], 1,
                             SHMEM_SIGNAL_ADD, next);
    }
    shmemd_signal_wait_until(&a->sig[b], SHMEM_CMP_EQ, ROUNDS);
    long bad = 0;
    for (int r = 0; r < ROUNDS; r++)
        for (int i = 0; i < 8; i++)
            bad += a->data[(b * ROUNDS + r) * 8 + i] != prev * 100000 + r * 100 + i;
    a->seen[b] = bad;
}

struct barrier_args {
    long *slots;
    long *bad;
    shmemd_team_t team;
};

/* Round r: every PE writes r into its slot on every PE, barrier, all slots
 * read r, barrier. */
static void barrier_kernel(void *p)
{
    const struct barrier_args *a = p;
    int me = shmemd_my_pe(), n = shmemd_n_pes();
    bool lead = shmemd_block_idx() == 0 && shmemd_thread_idx() == 0;
    for (long r = 1; r <= 30; r++) {
        if (lead)
            for (int pe = 0; pe < n; pe++)
                shmemd_long_p(&a->slots[me], r, pe);
        if (r % 2)
            shmemd_barrier_all();
        else
            shmemd_team_barrier(a->team);
        if (lead)
            for (int pe = 0; pe < n; pe++)
                *a->bad += a->slots[pe] != r;
        shmemd_barrier_all();
    }
}

struct block_args {
    char *src, *dst;
    size_t len;
};

static void block_kernel(void *p)
{
    const struct block_args *a = p;
    int me = shmemd_my_pe(), n = shmemd_n_pes();
    shmemd_putmem_block(a->dst, a->src, a->len, (me + 1) % n);
    shmemd_barrier_all();
}

struct stream_args {
    long *x;
    long value;
};

static void write_kernel(void *p)
{
    const struct stream_args *a = p;
    if (shmemd_block_idx() == 0 && shmemd_thread_idx() == 0) {
        usleep(20000); /* late on purpose: the reader must still see it */
        *a->x = a->value;
    }
}

static void read_kernel(void *p)
{
    const struct stream_args *a = p;
    if (shmemd_block_idx() == 0 && shmemd_thread_idx() == 0)
        a->x[1] = *a->x == a->value ? 1 : -1;
}

struct vis_args {
    long *word;
    long *result; /* [0]: value seen before quiet, [1]: after */
};

static void visibility_kernel(void *p)
{
    const struct vis_args *a = p;
    int n = shmemd_n_pes(), me = shmemd_my_pe(), next = (me + 1) % n;
    long v = 4242;
    shmemd_long_put_nbi(a->word, &v, 1, next);
    const long *there = shmemd_ptr(a->word, next);
    a->result[0] = there ? __atomic_load_n(there, __ATOMIC_ACQUIRE) : -2;
    shmemd_quiet();
    a->result[1] = there ? __atomic_load_n(there, __ATOMIC_ACQUIRE) : shmemd_long_g(a->word, next);
    shmemd_barrier_all();
}

static void test_rma(int me, int n)
{
    long *src = shmemx_device_malloc(N * sizeof(long));
    long *dst = shmemx_device_calloc(N, sizeof(long));
    long *got = shmemx_device_calloc(N, sizeof(long));
    int *ints = shmemx_device_calloc(BLOCKS * THREADS, sizeof(int));
    for (int i = 0; i < N; i++)
        src[i] = me * 1000000L + i;
    shmem_barrier_all();
    struct rma_args a = {src, dst, got, ints};
    CHECK(shmemx_launch(rma_kernel, BLOCKS, THREADS, &a, sizeof a, NULL) == 0, "launch");
    shmemx_stream_synchronize(NULL);
    shmem_barrier_all();
    int prev = (me + n - 1) % n, prev2 = (me + 2 * n - 2) % n;
    for (int i = 0; i < N; i++) {
        CHECK(dst[i] == prev * 1000000L + i, "dst[%d] = %ld from PE %d", i, dst[i], prev);
        CHECK(got[i] == prev2 * 1000000L + i, "got[%d] = %ld", i, got[i]);
    }
    for (int i = 0; i < BLOCKS * THREADS; i++)
        CHECK(ints[i] == i + 1, "ints[%d] = %d", i, ints[i]);
    /* Host RMA reaches device memory too (once every PE has checked). */
    shmem_barrier_all();
    shmem_long_p(&dst[0], -5, (me + 1) % n);
    shmem_barrier_all();
    CHECK(dst[0] == -5, "host put to device memory: %ld", dst[0]);
    shmemx_device_free(ints);
    shmemx_device_free(got);
    shmemx_device_free(dst);
    shmemx_device_free(src);
}

static void test_amo(int me, int n)
{
    long *counter = shmemx_device_calloc(3, sizeof(long));
    uint64_t *ucounter = shmemx_device_calloc(1, sizeof(uint64_t));
    int *owner = shmemx_device_malloc(2 * sizeof(int));
    long *swapped = shmemx_device_calloc(3, sizeof(long));
    double *dval = shmemx_device_calloc(1, sizeof(double));
    owner[0] = -1;
    owner[1] = 0;
    counter[2] = 9;
    shmem_barrier_all();
    struct amo_args a = {counter, ucounter, owner, swapped, dval};
    shmemx_launch(amo_kernel, BLOCKS, THREADS, &a, sizeof a, NULL);
    shmemx_stream_synchronize(NULL);
    shmem_barrier_all();
    if (me == 0) {
        long threads = (long)n * BLOCKS * THREADS;
        CHECK(counter[0] == 2 * AMO_ITERS * threads, "add: %ld", counter[0]);
        CHECK(counter[1] == AMO_ITERS * threads, "inc: %ld", counter[1]);
        CHECK(*ucounter == (uint64_t)(AMO_ITERS * threads), "fetch_add: %llu",
              (unsigned long long)*ucounter);
        CHECK(owner[1] == 1 && owner[0] >= 0, "compare_swap winners %d (slot %d)", owner[1], owner[0]);
        CHECK(swapped[0] == 9 && swapped[2] == 77, "swap: old %ld, now %ld", swapped[0], swapped[2]);
        CHECK(swapped[1] == 5 && *dval == 2.5, "double set/fetch: %ld", swapped[1]);
    }
    shmemx_device_free(dval);
    shmemx_device_free(swapped);
    shmemx_device_free(owner);
    shmemx_device_free(ucounter);
    shmemx_device_free(counter);
}

static void test_signal(void)
{
    long *data = shmemx_device_calloc(BLOCKS * ROUNDS * 8, sizeof(long));
    uint64_t *sig = shmemx_device_calloc(BLOCKS, sizeof(uint64_t));
    long *seen = shmemx_device_calloc(BLOCKS, sizeof(long));
    struct signal_args a = {data, sig, seen};
    shmemx_launch(signal_kernel, BLOCKS, 1, &a, sizeof a, NULL);
    shmemx_stream_synchronize(NULL);
    for (int b = 0; b < BLOCKS; b++)
        CHECK(seen[b] == 0 && sig[b] == ROUNDS, "block %d: %ld bad words, signal %llu", b,
              seen[b], (unsigned long long)sig[b]);
    shmem_barrier_all();
    shmemx_device_free(seen);
    shmemx_device_free(sig);
    shmemx_device_free(data);
}

static void test_barrier(int n)
{
    long *slots = shmemx_device_calloc((size_t)n, sizeof(long));
    long *bad = shmemx_device_calloc(1, sizeof(long));
    struct barrier_args a = {slots, bad, SHMEM_TEAM_WORLD};
    shmemx_launch(barrier_kernel, BLOCKS, THREADS, &a, sizeof a, NULL);
    shmemx_stream_synchronize(NULL);
    CHECK(*bad == 0, "%ld slots stale after a device barrier", *bad);
    shmem_barrier_all();
    shmemx_device_free(bad);
    shmemx_device_free(slots);
}

static void test_block(int me, int n)
{
    const size_t len = 100003; /* not a multiple of the thread count */
    char *src = shmemx_device_malloc(len), *dst = shmemx_device_calloc(len, 1);
    for (size_t i = 0; i < len; i++)
        src[i] = (char)(i * 7 + (size_t)me);
    shmem_barrier_all();
    struct block_args a = {src, dst, len};
    shmemx_launch(block_kernel, 1, 4, &a, sizeof a, NULL);
    shmemx_stream_synchronize(NULL);
    int prev = (me + n - 1) % n;
    for (size_t i = 0; i < len; i++)
        CHECK(dst[i] == (char)(i * 7 + (size_t)prev), "block put byte %zu", i);
    shmem_barrier_all();
    shmemx_device_free(dst);
    shmemx_device_free(src);
}

static void test_streams(void)
{
    long *x = shmemx_device_calloc(2, sizeof(long));
    shmemx_stream_t s1 = NULL, s2 = NULL;
    shmemx_event_t ev = NULL;
    CHECK(shmemx_stream_create(&s1) == 0 && shmemx_stream_create(&s2) == 0, "streams");
    CHECK(shmemx_event_create(&ev) == 0 && shmemx_event_query(ev) == 1, "event");
    struct stream_args a = {x, 31337};
    shmemx_launch(write_kernel, 2, 1, &a, sizeof a, s1);
    shmemx_event_record(ev, s1);
    shmemx_stream_wait_event(s2, ev);
    shmemx_launch(read_kernel, 2, 1, &a, sizeof a, s2);
    shmemx_stream_synchronize(s2);
    CHECK(x[1] == 1, "the reader ran before the writer's event (%ld)", x[1]);
    CHECK(shmemx_event_query(ev) == 1, "event done");
    /* Bad launches are refused, not run. */
    CHECK(shmemx_launch(read_kernel, 0, 1, &a, sizeof a, s1) == -1, "0 blocks accepted");
    CHECK(shmemx_launch(NULL, 1, 1, NULL, 0, s1) == -1, "NULL kernel accepted");
    shmemx_event_destroy(ev);
    shmemx_stream_destroy(s2);
    shmemx_stream_destroy(s1);
    shmem_barrier_all();
    shmemx_device_free(x);
}

static void test_visibility(int me, int n)
{
    long *word = shmemx_device_calloc(1, sizeof(long));
    long *result = shmemx_device_calloc(2, sizeof(long));
    struct vis_args a = {word, result};
    shmemx_launch(visibility_kernel, 1, 1, &a, sizeof a, NULL);
    shmemx_stream_synchronize(NULL);
    int next = (me + 1) % n;
    if (shmem_ptr(word, next))
        CHECK(result[0] == 0, "the put landed before quiet (%ld): the engine is not asynchronous",
              result[0]);
    CHECK(result[1] == 4242, "after quiet: %ld", result[1]);
    shmem_barrier_all();
    shmemx_device_free(result);
    shmemx_device_free(word);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "all";
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    if (!strcmp(mode, "visibility")) {
        CHECK(getenv("SHMEM_DEVICE_ENGINE_DELAY_US"), "run with SHMEM_DEVICE_ENGINE_DELAY_US");
        test_visibility(me, n);
    } else {
        test_rma(me, n);
        test_amo(me, n);
        test_signal();
        test_barrier(n);
        test_block(me, n);
        test_streams();
    }
    shmem_finalize();
    if (me == 0)
        printf("device %s: %d PEs passed\n", mode, n);
    return 0;
}
