/* Device AMOs, typed and sized put-with-signal, point-to-point waits and
 * tests, sync_all / team_sync and team queries, for every type of their
 * tables, with values checked (OpenSHMEM 1.5 semantics; the device routine
 * is the host routine with shmemd_ for shmem_). */
#include <shmem/device.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define SLOT 128 /* bytes of device memory per type */
#define BLOCKS 2
#define THREADS 3

#define COUNT_(...) +1
#define N_STD (0 SHMEM_AMO_STANDARD_TABLE(COUNT_))
#define N_EXT (0 SHMEM_AMO_EXTENDED_TABLE(COUNT_))
#define N_BIT (0 SHMEM_AMO_BITWISE_TABLE(COUNT_))
#define N_RMA (0 SHMEMD_RMA_TYPE_TABLE(COUNT_))
#define N_P2P (0 SHMEM_P2P_TABLE(COUNT_))
#define N_SIZED (0 SHMEM_SIZED_TABLE(COUNT_))

static bool first_thread(void) { return shmemd_block_idx() == 0 && shmemd_thread_idx() == 0; }
static unsigned threads_per_pe(void) { return shmemd_block_num() * shmemd_thread_num(); }

/* ---- AMOs ---------------------------------------------------------------- */
struct amo_args {
    unsigned char *std, *ext, *bit; /* SLOT bytes per type, on every PE */
};

/* Contention: every thread of every PE adds to PE 0's words. Then, on the
 * next PE's words, each operation alone with its value checked. */
#define AMO_STD(T, N, U)                                                                       \
    {                                                                                          \
        T *c = (T *)(a->std + i * SLOT);                                                       \
        shmemd_##N##_atomic_inc(&c[0], 0);                                                     \
        shmemd_##N##_atomic_add(&c[0], 2, 0);                                                  \
        (void)shmemd_##N##_atomic_fetch_inc(&c[1], 0);                                         \
        (void)shmemd_##N##_atomic_fetch_add(&c[1], 3, 0);                                      \
        shmemd_quiet();                                                                        \
        shmemd_sync_all();                                                                     \
        T total = (T)(threads_per_pe() * (unsigned)n);                                         \
        if (me == 0) {                                                                         \
            CHECK(shmemd_##N##_atomic_fetch(&c[0], 0) == (T)(3 * total), #N " add/inc: %lld", \
                  (long long)c[0]);                                                            \
            CHECK(shmemd_##N##_atomic_fetch(&c[1], 0) == (T)(4 * total), #N " fetch_add/inc"); \
        }                                                                                      \
        if (first_thread()) {                                                                  \
            T *w = &c[2];                                                                      \
            shmemd_##N##_atomic_set(w, (T)10, next);                                           \
            shmemd_quiet();                                                                    \
            CHECK(shmemd_##N##_atomic_fetch_inc(w, next) == 10, #N " fetch_inc");              \
            CHECK(shmemd_##N##_atomic_fetch_add(w, (T)5, next) == 11, #N " fetch_add");        \
            CHECK(shmemd_##N##_atomic_compare_swap(w, (T)99, (T)1, next) == 16,                \
                  #N " failed compare_swap returns old");                                      \
            CHECK(shmemd_##N##_atomic_compare_swap(w, (T)16, (T)20, next) == 16,               \
                  #N " compare_swap");                                                         \
            CHECK(shmemd_##N##_atomic_swap(w, (T)30, next) == 20, #N " swap");                 \
            T f[4] = {0, 0, 0, 0};                                                             \
            shmemd_##N##_atomic_fetch_inc_nbi(&f[0], w, next);                                 \
            shmemd_quiet();                                                                    \
            shmemd_##N##_atomic_fetch_add_nbi(&f[1], w, (T)4, next);                           \
            shmemd_quiet();                                                                    \
            shmemd_##N##_atomic_compare_swap_nbi(&f[2], w, (T)35, (T)40, next);                \
            shmemd_quiet();                                                                    \
            shmemd_##N##_atomic_swap_nbi(&f[3], w, (T)41, next);                               \
            shmemd_quiet();                                                                    \
            CHECK(f[0] == 30 && f[1] == 31 && f[2] == 35 && f[3] == 40,                        \
                  #N " fetching nbi: %lld %lld %lld %lld", (long long)f[0], (long long)f[1],   \
                  (long long)f[2], (long long)f[3]);                                           \
            T g = 0;                                                                           \
            shmemd_##N##_atomic_fetch_nbi(&g, w, next);                                        \
            shmemd_quiet();                                                                    \
            CHECK(g == 41, #N " fetch_nbi %lld", (long long)g);                                \
        }                                                                                      \
        i++;                                                                                   \
    }

#define AMO_EXT(T, N, U)                                                                       \
    if (first_thread()) {                                                                      \
        T *w = (T *)(a->ext + i * SLOT);                                                       \
        shmemd_##N##_atomic_set(w, (T)1.5f, next);                                             \
        shmemd_quiet();                                                                        \
        CHECK(shmemd_##N##_atomic_fetch(w, next) == (T)1.5f, #N " set/fetch");                 \
        CHECK(shmemd_##N##_atomic_swap(w, (T)2.5f, next) == (T)1.5f, #N " swap");              \
        T f = 0;                                                                               \
        shmemd_##N##_atomic_swap_nbi(&f, w, (T)3, next);                                       \
        shmemd_quiet();                                                                        \
        CHECK(f == (T)2.5f, #N " swap_nbi");                                                   \
        shmemd_##N##_atomic_fetch_nbi(&f, w, next);                                            \
        shmemd_quiet();                                                                        \
        CHECK(f == (T)3, #N " fetch_nbi");                                                     \
    }                                                                                          \
    i++;

#define AMO_BIT(T, N, U)                                                                       \
    {                                                                                          \
        T *c = (T *)(a->bit + i * SLOT);                                                       \
        /* Each thread of each PE sets its own bit of PE 0's word. */                          \
        unsigned id = (unsigned)me * threads_per_pe() + shmemd_block_idx() * shmemd_thread_num() \
                      + shmemd_thread_idx();                                                   \
        shmemd_##N##_atomic_or(&c[0], (T)((T)1 << (id % 31)), 0);                              \
        (void)shmemd_##N##_atomic_fetch_xor(&c[1], (T)((T)1 << (id % 31)), 0);                 \
        shmemd_quiet();                                                                        \
        shmemd_sync_all();                                                                     \
        if (me == 0 && first_thread()) {                                                       \
            unsigned all = threads_per_pe() * (unsigned)n;                                     \
            T want = 0, want_x = 0;                                                            \
            for (unsigned b = 0; b < all; b++) {                                               \
                want |= (T)((T)1 << (b % 31));                                                 \
                want_x ^= (T)((T)1 << (b % 31));                                               \
            }                                                                                  \
            CHECK(shmemd_##N##_atomic_fetch(&c[0], 0) == want, #N " or");                      \
            CHECK(shmemd_##N##_atomic_fetch(&c[1], 0) == want_x, #N " xor");                   \
        }                                                                                      \
        if (first_thread()) {                                                                  \
            T *w = &c[2];                                                                      \
            shmemd_##N##_atomic_set(w, (T)0xF0F0, next);                                       \
            shmemd_quiet();                                                                    \
            CHECK(shmemd_##N##_atomic_fetch_and(w, (T)0xFF00, next) == (T)0xF0F0, #N " fetch_and"); \
            CHECK(shmemd_##N##_atomic_fetch_or(w, (T)0x000F, next) == (T)0xF000, #N " fetch_or"); \
            CHECK(shmemd_##N##_atomic_fetch_xor(w, (T)0x00FF, next) == (T)0xF00F, #N " fetch_xor"); \
            shmemd_##N##_atomic_and(w, (T)0xFFF0, next);                                       \
            shmemd_##N##_atomic_or(w, (T)0x0001, next);                                        \
            shmemd_##N##_atomic_xor(w, (T)0x1000, next);                                       \
            shmemd_quiet();                                                                    \
            CHECK(shmemd_##N##_atomic_fetch(w, next) == (T)0xE0F1, #N " and/or/xor: %llx",     \
                  (unsigned long long)shmemd_##N##_atomic_fetch(w, next));                     \
            T f[3];                                                                            \
            shmemd_##N##_atomic_fetch_and_nbi(&f[0], w, (T)0x00FF, next);                      \
            shmemd_quiet();                                                                    \
            shmemd_##N##_atomic_fetch_or_nbi(&f[1], w, (T)0x0100, next);                       \
            shmemd_quiet();                                                                    \
            shmemd_##N##_atomic_fetch_xor_nbi(&f[2], w, (T)0x0001, next);                      \
            shmemd_quiet();                                                                    \
            CHECK(f[0] == (T)0xE0F1 && f[1] == (T)0x00F1 && f[2] == (T)0x01F1,                 \
                  #N " fetching bitwise nbi");                                                 \
        }                                                                                      \
        i++;                                                                                   \
    }

static void amo_kernel(void *p)
{
    const struct amo_args *a = p;
    int me = shmemd_my_pe(), n = shmemd_n_pes(), next = (me + 1) % n;
    size_t i = 0;
    SHMEM_AMO_STANDARD_TABLE(AMO_STD)
    i = 0;
    SHMEM_AMO_EXTENDED_TABLE(AMO_EXT)
    i = 0;
    SHMEM_AMO_BITWISE_TABLE(AMO_BIT)
    /* The generic forms pick the typed routine. */
    if (first_thread()) {
        long *w = (long *)(a->std + (N_STD - 1) * SLOT) + 6;
        shmemd_atomic_set(w, 5L, next);
        shmemd_quiet();
        CHECK(shmemd_atomic_fetch_add(w, 2L, next) == 5, "generic fetch_add");
        CHECK(shmemd_atomic_fetch_inc(w, next) == 7, "generic fetch_inc");
        CHECK(shmemd_atomic_compare_swap(w, 8L, 1L, next) == 8, "generic compare_swap");
        unsigned *u = (unsigned *)(a->bit + (N_BIT - 1) * SLOT) + 10;
        shmemd_atomic_set(u, 6u, next);
        shmemd_quiet();
        CHECK(shmemd_atomic_fetch_and(u, 3u, next) == 6u, "generic fetch_and");
        CHECK(shmemd_atomic_swap(u, 9u, next) == 2u, "generic swap");
    }
    shmemd_barrier_all();
}

static void test_amo(void)
{
    struct amo_args a = {shmemx_device_calloc(N_STD, SLOT), shmemx_device_calloc(N_EXT, SLOT),
                         shmemx_device_calloc(N_BIT, SLOT)};
    CHECK(a.std && a.ext && a.bit, "device memory");
    CHECK(shmemx_launch(amo_kernel, BLOCKS, THREADS, &a, sizeof a, NULL) == 0, "launch");
    shmemx_stream_synchronize(NULL);
    shmem_barrier_all();
    shmemx_device_free(a.bit);
    shmemx_device_free(a.ext);
    shmemx_device_free(a.std);
}

/* ---- Put with signal ------------------------------------------------------ */
#define SIG_ELEMS 5
struct signal_args {
    unsigned char *dst, *src;  /* SLOT bytes per type */
    uint64_t *sig;             /* one word per type, then one per sized form */
};

/* Each type's source bytes on PE p: a pattern of p and the type's index. */
static unsigned char pattern(int pe, size_t type, size_t byte)
{
    return (unsigned char)(pe * 31 + type * 7 + byte + 1);
}

#define PUT_SIGNAL(T, N)                                                                       \
    {                                                                                          \
        T *d = (T *)(a->dst + i * SLOT);                                                       \
        const T *s = (const T *)(a->src + i * SLOT);                                           \
        if (i % 2)                                                                             \
            shmemd_##N##_put_signal(d, s, SIG_ELEMS, &a->sig[i], 1, SHMEM_SIGNAL_ADD, next);   \
        else                                                                                   \
            shmemd_##N##_put_signal_nbi(d, s, SIG_ELEMS, &a->sig[i], i + 1, SHMEM_SIGNAL_SET,  \
                                        next);                                                 \
        i++;                                                                                   \
    }
#define SIZED_SIGNAL(BITS, UNIT)                                                               \
    {                                                                                          \
        unsigned char *d = a->dst + i * SLOT;                                                  \
        const unsigned char *s = a->src + i * SLOT;                                            \
        if (i % 2)                                                                             \
            shmemd_put##BITS##_signal(d, s, 2, &a->sig[i], 1, SHMEM_SIGNAL_ADD, next);         \
        else                                                                                   \
            shmemd_put##BITS##_signal_nbi(d, s, 2, &a->sig[i], i + 1, SHMEM_SIGNAL_SET, next); \
        i++;                                                                                   \
    }
#define SIZE_OF_(T, N) sizeof(T) * SIG_ELEMS,
#define SIZED_BYTES_(BITS, UNIT) (BITS / 8) * 2,

static void signal_kernel(void *p)
{
    const struct signal_args *a = p;
    int me = shmemd_my_pe(), n = shmemd_n_pes(), next = (me + 1) % n, prev = (me + n - 1) % n;
    if (!first_thread())
        return;
    size_t i = 0;
    SHMEMD_RMA_TYPE_TABLE(PUT_SIGNAL)
    SHMEM_SIZED_TABLE(SIZED_SIGNAL)
    static const size_t bytes[] = {SHMEMD_RMA_TYPE_TABLE(SIZE_OF_) SHMEM_SIZED_TABLE(SIZED_BYTES_)};
    for (size_t t = 0; t < N_RMA + N_SIZED; t++) {
        /* The signal never lands before the data. */
        uint64_t seen = shmemd_signal_wait_until(&a->sig[t], SHMEM_CMP_GE, 1);
        CHECK(seen == (t % 2 ? 1 : t + 1), "signal %zu: %llu", t, (unsigned long long)seen);
        for (size_t b = 0; b < bytes[t]; b++)
            CHECK(a->dst[t * SLOT + b] == pattern(prev, t, b), "type %zu byte %zu: %u", t, b,
                  a->dst[t * SLOT + b]);
        CHECK(a->dst[t * SLOT + bytes[t]] == 0, "type %zu: put past its end", t);
    }
    shmemd_quiet();
}

static void test_signal(int me)
{
    size_t types = N_RMA + N_SIZED;
    struct signal_args a = {shmemx_device_calloc(types, SLOT), shmemx_device_calloc(types, SLOT),
                            shmemx_device_calloc(types, sizeof(uint64_t))};
    for (size_t t = 0; t < types; t++)
        for (size_t b = 0; b < SLOT; b++)
            a.src[t * SLOT + b] = pattern(me, t, b);
    shmem_barrier_all();
    CHECK(shmemx_launch(signal_kernel, 1, 2, &a, sizeof a, NULL) == 0, "launch");
    shmemx_stream_synchronize(NULL);
    shmem_barrier_all();
    shmemx_device_free(a.sig);
    shmemx_device_free(a.src);
    shmemx_device_free(a.dst);
}

/* ---- Point-to-point --------------------------------------------------------- */
#define NV 4
struct p2p_args {
    unsigned char *iv; /* SLOT bytes per type: ivars[NV], then late[NV] */
};

/* Stores VALUE into PE's copy of *IVAR: directly (an atomic store) where
 * shmemd_ptr reaches it, else with a put. Waits read ivars while the
 * updates land, which a plain memcpy would make a data race to
 * ThreadSanitizer (one PE: the writer is an engine thread of this
 * process). */
#define STORE(T, N, IVAR, VALUE, PE)                                                           \
    do {                                                                                       \
        T *direct_ = shmemd_ptr((IVAR), (PE));                                                 \
        if (direct_)                                                                           \
            __atomic_store_n(direct_, (T)(VALUE), __ATOMIC_RELEASE);                           \
        else                                                                                   \
            shmemd_##N##_p((IVAR), (T)(VALUE), (PE));                                          \
    } while (0)

/* The previous PE stores 5 at ivars[1] and 7 at ivars[3]; then, after the
 * waiter is already waiting, 1, 2, 3 into late[0..2]. */
#define P2P(T, N)                                                                              \
    {                                                                                          \
        T *iv = (T *)(a->iv + i * SLOT), *late = iv + NV;                                      \
        size_t idx[NV] = {9, 9, 9, 9};                                                         \
        int none[NV] = {1, 1, 1, 1}, skip1[NV] = {0, 1, 0, 0}, only02[NV] = {0, 1, 0, 1};      \
        /* Before anything: every element 0. */                                                \
        CHECK(shmemd_##N##_test(&iv[0], SHMEM_CMP_EQ, 0) == 1, #N " test");                    \
        CHECK(shmemd_##N##_test(&iv[0], SHMEM_CMP_NE, 0) == 0, #N " test NE");                 \
        CHECK(shmemd_##N##_test_all(iv, NV, NULL, SHMEM_CMP_EQ, 0) == 1, #N " test_all");      \
        CHECK(shmemd_##N##_test_any(iv, NV, NULL, SHMEM_CMP_GT, 0) == SIZE_MAX, #N " test_any none"); \
        CHECK(shmemd_##N##_test_some(iv, NV, idx, NULL, SHMEM_CMP_GT, 0) == 0, #N " test_some none"); \
        /* Empty and fully excluded sets. */                                                   \
        CHECK(shmemd_##N##_test_all(iv, 0, NULL, SHMEM_CMP_GT, 0) == 1, #N " test_all empty"); \
        CHECK(shmemd_##N##_test_all(iv, NV, none, SHMEM_CMP_GT, 0) == 1, #N " test_all excl"); \
        CHECK(shmemd_##N##_test_any(iv, 0, NULL, SHMEM_CMP_EQ, 0) == SIZE_MAX, #N " test_any empty"); \
        CHECK(shmemd_##N##_test_any(iv, NV, none, SHMEM_CMP_EQ, 0) == SIZE_MAX, #N " test_any excl"); \
        CHECK(shmemd_##N##_test_some(iv, NV, idx, none, SHMEM_CMP_EQ, 0) == 0, #N " test_some excl"); \
        CHECK(shmemd_##N##_wait_until_any(iv, NV, none, SHMEM_CMP_GT, 0) == SIZE_MAX,          \
              #N " wait_until_any excl");                                                      \
        CHECK(shmemd_##N##_wait_until_some(iv, NV, idx, none, SHMEM_CMP_GT, 0) == 0,           \
              #N " wait_until_some excl");                                                     \
        shmemd_##N##_wait_until_all(iv, NV, none, SHMEM_CMP_GT, 0);                            \
        shmemd_##N##_wait_until_all(iv, 0, NULL, SHMEM_CMP_GT, 0);                             \
        shmemd_sync_all();                                                                     \
        STORE(T, N, &iv[1], 5, next);                                                          \
        STORE(T, N, &iv[3], 7, next);                                                          \
        shmemd_quiet();                                                                        \
        shmemd_sync_all();                                                                     \
        const T want[NV] = {0, 5, 0, 7}, gt[NV] = {0, 4, 9, 6};                                \
        CHECK(shmemd_##N##_test_some(iv, NV, idx, NULL, SHMEM_CMP_GT, 0) == 2 && idx[0] == 1 && \
                  idx[1] == 3, #N " test_some");                                               \
        CHECK(shmemd_##N##_test_some(iv, NV, idx, skip1, SHMEM_CMP_GT, 0) == 1 && idx[0] == 3, \
              #N " test_some status");                                                         \
        CHECK(shmemd_##N##_wait_until_some(iv, NV, idx, NULL, SHMEM_CMP_NE, 0) == 2 &&         \
                  idx[0] == 1 && idx[1] == 3, #N " wait_until_some");                          \
        CHECK(shmemd_##N##_wait_until_some_vector(iv, NV, idx, NULL, SHMEM_CMP_EQ, want) == NV \
                  && idx[0] == 0 && idx[3] == 3, #N " wait_until_some_vector");                \
        CHECK(shmemd_##N##_test_some_vector(iv, NV, idx, skip1, SHMEM_CMP_GT, gt) == 1 &&      \
                  idx[0] == 3, #N " test_some_vector");                                        \
        CHECK(shmemd_##N##_test_all(iv, NV, NULL, SHMEM_CMP_GT, 0) == 0, #N " test_all false"); \
        CHECK(shmemd_##N##_test_all(iv, NV, only02 + 0, SHMEM_CMP_EQ, 0) == 1,                 \
              #N " test_all status");                                                          \
        CHECK(shmemd_##N##_test_all_vector(iv, NV, NULL, SHMEM_CMP_EQ, want) == 1,             \
              #N " test_all_vector");                                                          \
        CHECK(shmemd_##N##_test_all_vector(iv, NV, NULL, SHMEM_CMP_GT, gt) == 0,               \
              #N " test_all_vector false");                                                    \
        size_t x = shmemd_##N##_wait_until_any(iv, NV, NULL, SHMEM_CMP_GT, 0);                 \
        size_t y = shmemd_##N##_wait_until_any(iv, NV, NULL, SHMEM_CMP_GT, 0);                 \
        CHECK((x == 1 && y == 3) || (x == 3 && y == 1), #N " wait_until_any rotates: %zu %zu", x, y); \
        x = shmemd_##N##_test_any(iv, NV, skip1, SHMEM_CMP_GT, 0);                             \
        CHECK(x == 3, #N " test_any status: %zu", x);                                          \
        x = shmemd_##N##_test_any_vector(iv, NV, NULL, SHMEM_CMP_GT, gt);                      \
        CHECK(x == 1 || x == 3, #N " test_any_vector: %zu", x);                                \
        x = shmemd_##N##_wait_until_any_vector(iv, NV, skip1, SHMEM_CMP_EQ, want);             \
        CHECK(x == 0 || x == 2 || x == 3, #N " wait_until_any_vector: %zu", x);                \
        shmemd_##N##_wait_until(&iv[1], SHMEM_CMP_EQ, 5);                                      \
        shmemd_##N##_wait_until_all_vector(iv, NV, NULL, SHMEM_CMP_GE, want);                  \
        /* A real wait: the values come after the waiter started. */                           \
        shmemd_sync_all();                                                                     \
        if (first_thread()) {                                                                  \
            for (int v = 0; v < 3; v++) {                                                      \
                STORE(T, N, &late[v], v + 1, next);                                            \
                shmemd_quiet();                                                                \
            }                                                                                  \
        } else {                                                                               \
            shmemd_##N##_wait_until_all(late, 3, NULL, SHMEM_CMP_GE, 1);                       \
            CHECK(late[0] == 1 && late[1] == 2 && late[2] == 3, #N " wait_until_all values");  \
            size_t k = shmemd_##N##_wait_until_some(late, NV, idx, NULL, SHMEM_CMP_EQ, 3);     \
            CHECK(k == 1 && idx[0] == 2, #N " wait_until_some late");                          \
        }                                                                                      \
        shmemd_sync_all();                                                                     \
        i++;                                                                                   \
    }

static void p2p_kernel(void *p)
{
    const struct p2p_args *a = p;
    int me = shmemd_my_pe(), n = shmemd_n_pes(), next = (me + 1) % n;
    size_t i = 0;
    (void)me;
    SHMEM_P2P_TABLE(P2P)
    /* The generic forms. */
    int *iv = (int *)(a->iv + N_P2P * SLOT);
    CHECK(shmemd_test(iv, SHMEM_CMP_EQ, 0) == 1, "generic test");
    size_t idx[2];
    CHECK(shmemd_test_some(iv, 2, idx, NULL, SHMEM_CMP_EQ, 0) == 2, "generic test_some");
    shmemd_wait_until(iv, SHMEM_CMP_GE, 0);
}

static void test_p2p(void)
{
    struct p2p_args a = {shmemx_device_calloc(N_P2P + 1, SLOT)};
    shmem_barrier_all();
    /* One block of two threads: the first stores, the second waits. */
    CHECK(shmemx_launch(p2p_kernel, 1, 2, &a, sizeof a, NULL) == 0, "launch");
    shmemx_stream_synchronize(NULL);
    shmem_barrier_all();
    shmemx_device_free(a.iv);
}

/* ---- sync_all, team_sync, team queries -------------------------------------- */
#define ROUNDS 4
struct sync_args {
    long *count;         /* ROUNDS words on PE 0 */
    long *team_count;    /* ROUNDS words on the team's first PE */
    shmem_team_t team;   /* every other PE, or INVALID here */
    int team_me, team_n, team_first, translated;
};

static void sync_kernel(void *p)
{
    const struct sync_args *a = p;
    int n = shmemd_n_pes();
    long all = (long)threads_per_pe() * n;
    for (int r = 0; r < ROUNDS; r++) {
        (void)shmemd_long_atomic_fetch_inc(&a->count[r], 0); /* complete on return */
        shmemd_sync_all();
        /* Every thread of every PE has counted this round. */
        CHECK(shmemd_long_atomic_fetch(&a->count[r], 0) == all, "round %d: %ld of %ld", r,
              shmemd_long_atomic_fetch(&a->count[r], 0), all);
    }
    CHECK(shmemd_team_my_pe(SHMEMD_TEAM_WORLD) == shmemd_my_pe(), "team_my_pe(world)");
    CHECK(shmemd_team_n_pes(SHMEMD_TEAM_WORLD) == n, "team_n_pes(world)");
    CHECK(shmemd_team_my_pe(SHMEMD_TEAM_INVALID) == -1, "team_my_pe(invalid)");
    CHECK(shmemd_team_n_pes(SHMEMD_TEAM_INVALID) == -1, "team_n_pes(invalid)");
    CHECK(shmemd_team_translate_pe(SHMEMD_TEAM_WORLD, n, SHMEMD_TEAM_WORLD) == -1,
          "translate_pe out of range");
    if (a->team == SHMEM_TEAM_INVALID)
        return;
    CHECK(shmemd_team_my_pe(a->team) == a->team_me, "team_my_pe");
    CHECK(shmemd_team_n_pes(a->team) == a->team_n, "team_n_pes");
    CHECK(shmemd_team_translate_pe(a->team, a->team_n - 1, SHMEMD_TEAM_WORLD) == a->translated,
          "translate_pe");
    long members = (long)threads_per_pe() * a->team_n;
    for (int r = 0; r < ROUNDS; r++) {
        (void)shmemd_long_atomic_fetch_inc(&a->team_count[r], a->team_first);
        shmemd_team_sync(a->team);
        CHECK(shmemd_long_atomic_fetch(&a->team_count[r], a->team_first) == members,
              "team round %d", r);
    }
}

static void test_sync(int me, int n)
{
    struct sync_args a = {.count = shmemx_device_calloc(ROUNDS, sizeof(long)),
                          .team_count = shmemx_device_calloc(ROUNDS, sizeof(long)),
                          .team = SHMEM_TEAM_INVALID};
    /* PEs 1, 3, 5, ... (PE 0 alone when there is one). */
    int start = n > 1 ? 1 : 0, size = n > 1 ? n / 2 : 1;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, start, 2, size, NULL, 0, &a.team);
    if (a.team != SHMEM_TEAM_INVALID) {
        a.team_me = shmem_team_my_pe(a.team);
        a.team_n = shmem_team_n_pes(a.team);
        a.team_first = start;
        a.translated = start + 2 * (size - 1);
        CHECK(a.team_me == (me - start) / 2, "host team_my_pe");
    }
    shmem_barrier_all();
    CHECK(shmemx_launch(sync_kernel, BLOCKS, THREADS, &a, sizeof a, NULL) == 0, "launch");
    shmemx_stream_synchronize(NULL);
    shmem_barrier_all();
    if (a.team != SHMEM_TEAM_INVALID)
        shmem_team_destroy(a.team);
    shmemx_device_free(a.team_count);
    shmemx_device_free(a.count);
}

/* Bad input: a clear error naming the routine (the test's regular
 * expression). */
struct bad_args {
    int *buf;
    bool cmp; /* else a NULL fetch */
};

static void bad_kernel(void *p)
{
    const struct bad_args *a = p;
    size_t idx[2];
    if (a->cmp)
        shmemd_int_wait_until_some(a->buf, 0, idx, NULL, 42, 0);
    else
        shmemd_long_atomic_fetch_add_nbi(NULL, (long *)a->buf, 1, 0);
}

int main(int argc, char **argv)
{
    shmem_init();
    if (argc > 1 && !strncmp(argv[1], "bad_", 4)) {
        struct bad_args a = {shmemx_device_calloc(4, sizeof(long)), !strcmp(argv[1], "bad_cmp")};
        shmemx_launch(bad_kernel, 1, 1, &a, sizeof a, NULL);
        shmemx_stream_synchronize(NULL);
        shmem_finalize();
        return 0;
    }
    int me = shmem_my_pe(), n = shmem_n_pes();
    test_amo();
    test_signal(me);
    test_p2p();
    test_sync(me, n);
    shmem_finalize();
    if (me == 0)
        printf("device_sync: %d PEs passed\n", n);
    return 0;
}
