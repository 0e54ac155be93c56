/*
 * Collectives at and around the sizes where an implementation may change
 * algorithm, on every kind of PE set the specification allows: the world
 * team, strided teams (shmem_team_split_strided), active sets with
 * logPE_stride 0 and 1. Every result is checked against a value computed
 * here from the specification's definition; dest is filled with a marker
 * first, so a block that nobody wrote shows.
 *   broadcast  every root, sizes around 4 KiB (a network notify's most),
 *              8 KiB and 16 KiB (the network's tree and scatter); the
 *              active-set form leaves
 *              the root's dest alone, the team form fills it; team calls
 *              back to back with changing roots and no barrier between;
 *   reduce     every operator on long (team and _to_all forms), a few
 *              operators on int, float, double and double complex; vector
 *              lengths of 1, fewer than the PEs, around 2 KiB, across 32 KiB
 *              blocks and up to 1 MiB; in place (dest == source) and not;
 *   collect, fcollect, alltoall on strided teams and active sets;
 *   active-set calls alternating two pSync arrays (a barrier before each
 *   reuse, as the specification asks), two calls back to back between.
 * COLL_ALGORITHMS_QUICK=1 keeps only the short cases (for 64 PEs on a few
 * cores); SHMEM_COLL_* variables force an algorithm (coll_algorithms.cmake).
 */
#include <complex.h>
#include <stdint.h>
#include <stdlib.h>

#include "check.h"

#define MAX_ELEMS (1 << 17) /* 1 MiB of long */

static long psync[SHMEM_REDUCE_SYNC_SIZE];
static long pwrk_l[MAX_ELEMS / 2 + SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static char *src, *dst; /* symmetric, MAX_ELEMS * 16 bytes each */
static int me, npes;
static bool quick; /* COLL_ALGORITHMS_QUICK: short payloads only */

/* A set of world PEs start + k * stride, k < size; in_set: this PE is one. */
struct set {
    int start, stride, log_stride, size;
    bool team_form;    /* else the active-set form */
    shmem_team_t team; /* on members of a team */
};

static int set_index(const struct set *s)
{
    int rel = me - s->start;
    if (rel < 0 || rel % s->stride || rel / s->stride >= s->size)
        return -1;
    return rel / s->stride;
}

static uint64_t hash(int p, size_t i)
{
    uint64_t x = (uint64_t)p * 0x9E3779B97F4A7C15ull + i * 0xBF58476D1CE4E5B9ull + 1;
    x ^= x >> 31;
    return x * 0x94D049BB133111EBull;
}

/* The value PE p contributes at element i, per operator. */
#define VAL_sum(T, p, i) ((T)((p) * 3 + (long)((i) % 5)))
#define VAL_prod(T, p, i) ((T)((((size_t)(p) + (i)) % 4 == 0) ? 2 : 1))
#define VAL_min(T, p, i) ((T)(((long)(p) * 37 + (long)((i) % 1000) * 11) % 97 - 48))
#define VAL_max(T, p, i) VAL_min(T, p, i)
#define VAL_and(T, p, i) ((T)(hash(p, i) | (1ull << (((size_t)(p) + (i)) % 12))))
#define VAL_or(T, p, i) ((T)(1ull << (((size_t)(p) * 3 + (i)) % 14)))
#define VAL_xor(T, p, i) ((T)hash(p, i))
#define VALC_sum(T, p, i) ((T)((p) + (long)((i) % 7) * I))
#define VALC_prod(T, p, i) ((T)((((size_t)(p) + (i)) % 3 == 0) ? I : 1))
#define OP_sum(a, b) ((a) + (b))
#define OP_prod(a, b) ((a) * (b))
#define OP_min(a, b) ((b) < (a) ? (b) : (a))
#define OP_max(a, b) ((b) > (a) ? (b) : (a))
#define OP_and(a, b) ((a) & (b))
#define OP_or(a, b) ((a) | (b))
#define OP_xor(a, b) ((a) ^ (b))

/* One reduction of N elements over S, in place or not; checks dest. */
#define DEFINE_REDUCE_CHECK(T, NAME, OP, VAL, TO_ALL_PWRK)                                     \
    static void check_##NAME##_##OP(const struct set *s, size_t n, int in_place)              \
    {                                                                                          \
        int idx = set_index(s);                                                                \
        T *source = (T *)src, *dest = in_place ? (T *)src : (T *)dst;                          \
        if (idx >= 0) {                                                                        \
            for (size_t i = 0; i < n + 2; i++)                                                 \
                ((T *)dst)[i] = VAL(T, 1000, i);                                               \
            for (size_t i = 0; i < n; i++)                                                     \
                source[i] = VAL(T, me, i);                                                     \
            source[n] = source[n + 1] = VAL(T, 1001, n);                                       \
        }                                                                                      \
        shmem_barrier_all();                                                                   \
        if (idx >= 0) {                                                                        \
            if (s->team_form)                                                 \
                CHECK(TEAM_##NAME##_##OP(s->team, dest, source, n) == 0, "rc");              \
            else                                                                               \
                shmem_##NAME##_##OP##_to_all(dest, source, (int)n, s->start, s->log_stride,    \
                                             s->size, (T *)TO_ALL_PWRK, psync);                \
            for (size_t i = 0; i < n; i++) {                                                   \
                T want = VAL(T, s->start, i);                                                  \
                for (int k = 1; k < s->size; k++)                                              \
                    want = OP_##OP(want, VAL(T, s->start + k * s->stride, i));                 \
                CHECK(dest[i] == want,                                                         \
                      #NAME " " #OP " n %zu in_place %d set %d+%d*k<%d team %d: [%zu] wrong", \
                      n, in_place, s->start, s->stride, s->size,                               \
                      s->team_form, i);                                       \
            }                                                                                  \
            CHECK(dest[n] == (in_place ? VAL(T, 1001, n) : VAL(T, 1000, n)),                   \
                  #NAME " " #OP " n %zu: wrote past the end", n);                              \
        }                                                                                      \
        shmem_barrier_all();                                                                   \
    }

#define PWRK pwrk_l
/* The team forms; the signed bitwise ones exist only as _to_all, so their
 * team counterparts are the unsigned ones on the same bits. */
#define TEAM_long_sum shmem_long_sum_reduce
#define TEAM_long_prod shmem_long_prod_reduce
#define TEAM_long_min shmem_long_min_reduce
#define TEAM_long_max shmem_long_max_reduce
#define TEAM_long_and(t, d, s, n) shmem_ulong_and_reduce(t, (unsigned long *)(d), (const unsigned long *)(s), n)
#define TEAM_long_or(t, d, s, n) shmem_ulong_or_reduce(t, (unsigned long *)(d), (const unsigned long *)(s), n)
#define TEAM_long_xor(t, d, s, n) shmem_ulong_xor_reduce(t, (unsigned long *)(d), (const unsigned long *)(s), n)
#define TEAM_int_sum shmem_int_sum_reduce
#define TEAM_int_max shmem_int_max_reduce
#define TEAM_int_xor(t, d, s, n) shmem_uint_xor_reduce(t, (unsigned int *)(d), (const unsigned int *)(s), n)
#define TEAM_float_sum shmem_float_sum_reduce
#define TEAM_double_sum shmem_double_sum_reduce
#define TEAM_double_prod shmem_double_prod_reduce
#define TEAM_double_min shmem_double_min_reduce
#define TEAM_complexd_sum shmem_complexd_sum_reduce
#define TEAM_complexd_prod shmem_complexd_prod_reduce
DEFINE_REDUCE_CHECK(long, long, sum, VAL_sum, PWRK)
DEFINE_REDUCE_CHECK(long, long, prod, VAL_prod, PWRK)
DEFINE_REDUCE_CHECK(long, long, min, VAL_min, PWRK)
DEFINE_REDUCE_CHECK(long, long, max, VAL_max, PWRK)
DEFINE_REDUCE_CHECK(long, long, and, VAL_and, PWRK)
DEFINE_REDUCE_CHECK(long, long, or, VAL_or, PWRK)
DEFINE_REDUCE_CHECK(long, long, xor, VAL_xor, PWRK)
DEFINE_REDUCE_CHECK(int, int, sum, VAL_sum, PWRK)
DEFINE_REDUCE_CHECK(int, int, max, VAL_max, PWRK)
DEFINE_REDUCE_CHECK(int, int, xor, VAL_xor, PWRK)
DEFINE_REDUCE_CHECK(float, float, sum, VAL_sum, PWRK)
DEFINE_REDUCE_CHECK(double, double, sum, VAL_sum, PWRK)
DEFINE_REDUCE_CHECK(double, double, prod, VAL_prod, PWRK)
DEFINE_REDUCE_CHECK(double, double, min, VAL_min, PWRK)
DEFINE_REDUCE_CHECK(double _Complex, complexd, sum, VALC_sum, PWRK)
DEFINE_REDUCE_CHECK(double _Complex, complexd, prod, VALC_prod, PWRK)

typedef void (*reduce_check)(const struct set *, size_t, int);

static void run_reductions(const struct set *s)
{
    static const reduce_check long_ops[] = {check_long_sum, check_long_prod, check_long_min,
                                            check_long_max, check_long_and,  check_long_or,
                                            check_long_xor};
    static const reduce_check other_ops[] = {
        check_int_sum,    check_int_max,     check_int_xor,       check_float_sum,
        check_double_sum, check_double_prod, check_double_min,    check_complexd_sum,
        check_complexd_prod};
    /* Element counts around the places where the byte length or the share of
     * each PE changes hands: 1, fewer than the PEs, 2 KiB of long or int,
     * 32 KiB of long (the most an active set's reduction sends in mail,
     * coll_net.h), several 32 KiB blocks per PE, 1 MiB. */
    static const size_t long_n[] = {1, 3, 255, 256, 257, 4095, 4096, 4097, 3 * 4096 * 8 + 5,
                                    MAX_ELEMS};
    static const size_t other_n[] = {1, 2, 511, 512, 513, 8193, 40000};
    size_t long_count = quick ? 3 : sizeof long_n / sizeof *long_n;
    size_t other_count = quick ? 2 : sizeof other_n / sizeof *other_n;
    for (size_t k = 0; k < long_count; k++)
        for (size_t o = 0; o < sizeof long_ops / sizeof *long_ops; o++)
            for (int in_place = 0; in_place < 2; in_place++)
                if (long_n[k] < MAX_ELEMS || o == 0)
                    long_ops[o](s, long_n[k], in_place);
    for (size_t k = 0; k < other_count; k++)
        for (size_t o = 0; o < sizeof other_ops / sizeof *other_ops; o++)
            other_ops[o](s, other_n[k], k & 1);
}

/* Broadcast of N elements of BITS from every root of S. */
static void check_broadcast(const struct set *s, size_t nbytes, int bits)
{
    int idx = set_index(s);
    for (int root = 0; root < s->size; root++) {
        if (idx >= 0) {
            memset(dst, 0xEE, nbytes + 8);
            for (size_t i = 0; i < nbytes; i++)
                src[i] = (char)(hash(me, i) & 0xff);
        }
        shmem_barrier_all();
        if (idx < 0)
            continue;
        if (s->team_form)
            CHECK(shmem_broadcastmem(s->team, dst, src, nbytes, root) == 0, "rc");
        else if (bits == 32)
            shmem_broadcast32(dst, src, nbytes / 4, root, s->start, s->log_stride, s->size, psync);
        else
            shmem_broadcast64(dst, src, nbytes / 8, root, s->start, s->log_stride, s->size, psync);
        int root_pe = s->start + root * s->stride;
        bool untouched = !s->team_form && idx == root;
        for (size_t i = 0; i < nbytes; i++) {
            char want = untouched ? (char)0xEE : (char)(hash(root_pe, i) & 0xff);
            CHECK(dst[i] == want, "broadcast%d %zu bytes root %d set %d+%d*k<%d team %d: [%zu]", bits,
                  nbytes, root, s->start, s->stride, s->size, s->team_form, i);
        }
        CHECK(dst[nbytes] == (char)0xEE, "broadcast %zu bytes: wrote past the end", nbytes);
    }
    shmem_barrier_all();
}

static void run_broadcasts(const struct set *s)
{
    /* Around 4, 8 and 16 KiB, in 32- and 64-bit elements, and 64 KiB (the
     * most an active set's broadcast sends in mail) and 4 bytes above. */
    static const size_t sizes[] = {0, 8, 4088, 4096, 4104, 8184, 8192, 8200, 16376, 16384, 16392,
                                   65536};
    for (size_t k = 0; k < (quick ? 2 : sizeof sizes / sizeof *sizes); k++) {
        check_broadcast(s, sizes[k], 64);
        if (!s->team_form)
            check_broadcast(s, sizes[k] + 4, 32);
    }
    /* Team broadcasts back to back, each root in turn, into separate
     * blocks of dest with no synchronization between them: a PE may be a
     * whole call ahead of another. */
    if (!s->team_form)
        return;
    int idx = set_index(s);
    const size_t len = 24;
    memset(dst, 0, len * (size_t)s->size);
    for (size_t i = 0; i < len * (size_t)s->size; i++)
        src[i] = (char)(hash(me, i) & 0xff);
    shmem_barrier_all();
    if (idx >= 0) {
        for (int round = 0; round < 3; round++)
            for (int root = 0; root < s->size; root++)
                shmem_broadcastmem(s->team, dst + root * len, src + root * len, len, root);
        for (int root = 0; root < s->size; root++)
            for (size_t i = 0; i < len; i++)
                CHECK(dst[root * len + i] ==
                          (char)(hash(s->start + root * s->stride, root * len + i) & 0xff),
                      "back-to-back broadcast root %d [%zu]", root, i);
    }
    shmem_barrier_all();
}

static void run_collects_of(const struct set *s, size_t nlong, bool with_collect)
{
    int idx = set_index(s);
    long *d = (long *)dst, *sr = (long *)src;
    size_t all = nlong * (size_t)s->size;
    /* collect: PE k gives k + 1 longs, or k with blocks of 1 (PE 0 none) */
    size_t extra = nlong == 1 ? 0 : 1;
    size_t collected = (size_t)s->size * ((size_t)s->size - 1) / 2 + extra * (size_t)s->size;
    for (int op = 0; op < 3; op++) {
        if (op == 1 && !with_collect)
            continue;
        for (size_t i = 0; i < all; i++)
            sr[i] = me * 100000 + (long)i;
        memset(dst, 0xEE, ((all > collected ? all : collected) + 1) * 8); /* unwritten shows */
        shmem_barrier_all();
        if (idx >= 0) {
            bool team = s->team_form;
            if (op == 0 && team)
                shmem_long_fcollect(s->team, d, sr, nlong);
            else if (op == 0)
                shmem_fcollect64(d, sr, nlong, s->start, s->log_stride, s->size, psync);
            else if (op == 1 && team)
                shmem_long_collect(s->team, d, sr, (size_t)idx + extra);
            else if (op == 1)
                shmem_collect64(d, sr, (size_t)idx + extra, s->start, s->log_stride, s->size,
                                psync);
            else if (team)
                shmem_long_alltoall(s->team, d, sr, nlong);
            else
                shmem_alltoall64(d, sr, nlong, s->start, s->log_stride, s->size, psync);
            size_t at = 0;
            for (int k = 0; k < s->size; k++) {
                int pe = s->start + k * s->stride;
                size_t count = op == 1 ? (size_t)k + extra : nlong;
                for (size_t i = 0; i < count; i++, at++) {
                    long want = pe * 100000 + (long)(op == 2 ? (size_t)idx * nlong + i : i);
                    CHECK(d[at] == want, "op %d of %zu from set PE %d [%zu]: %ld, want %ld", op,
                          nlong, k, i, d[at], want);
                }
            }
            CHECK(d[at] == (long)0xEEEEEEEEEEEEEEEEull, "op %d of %zu: wrote past the end", op, nlong);
        }
        shmem_barrier_all();
    }
}

/* fcollect, collect (PE k gives k + 1 longs) and alltoall of 3 longs; then
 * fcollect and alltoall of 1 and 700 longs (several steps' worth of blocks
 * where an algorithm forwards them), and a collect where PE k gives k (an
 * empty block first). */
static void run_collects(const struct set *s)
{
    for (int k = 0; k < 3; k++)
        run_collects_of(s, k == 0 ? 3 : k == 1 ? 1 : 700, k < 2);
}

/* Active-set calls alternating two pSync arrays, each call writing the dest
 * of the call two before it. The specification lets a program reuse a pSync
 * array once every collective that used it has completed on every PE, which
 * a barrier ensures: so a barrier (on a pSync of its own) comes before each
 * reuse, and between two barriers two collectives on different pSync arrays
 * run back to back, the second started while slower PEs may still be in
 * the first. Each result is checked as soon as its call returns. */
static long psync_b[SHMEM_REDUCE_SYNC_SIZE];
static long psync_bar[SHMEM_BARRIER_SYNC_SIZE];

static void run_alternating(const struct set *s)
{
    int idx = set_index(s);
    long *sr = (long *)src, *d = (long *)dst;
    size_t span = s->size > 64 ? (size_t)s->size : 64; /* a result of every PE */
    long *da = d, *db = d + span;
    memset(dst, 0, 2 * span * sizeof(long));
    shmem_barrier_all();
    if (idx >= 0) {
        for (int round = 0; round < 40; round++) {
            long base = round * 10;
            for (int i = 0; i < s->size + 4; i++) /* alltoall reads one per PE */
                sr[i] = me * 1000 + base + i;
            int root = round % s->size, root2 = (round + 1) % s->size;
            shmem_broadcast64(da, sr, 2, root, s->start, s->log_stride, s->size, psync);
            if (idx != root)
                CHECK(da[1] == (s->start + root * s->stride) * 1000 + base + 1,
                      "round %d broadcast: %ld", round, da[1]);
            shmem_broadcast64(db, sr + 2, 2, root2, s->start, s->log_stride, s->size, psync_b);
            if (idx != root2)
                CHECK(db[1] == (s->start + root2 * s->stride) * 1000 + base + 3,
                      "round %d second broadcast: %ld", round, db[1]);
            shmem_barrier(s->start, s->log_stride, s->size, psync_bar);
            shmem_fcollect64(da, sr, 1, s->start, s->log_stride, s->size, psync);
            for (int k = 0; k < s->size; k++)
                CHECK(da[k] == (s->start + k * s->stride) * 1000 + base,
                      "round %d fcollect [%d]: %ld", round, k, da[k]);
            shmem_alltoall64(db, sr, 1, s->start, s->log_stride, s->size, psync_b);
            for (int k = 0; k < s->size; k++)
                CHECK(db[k] == (s->start + k * s->stride) * 1000 + base + idx,
                      "round %d alltoall [%d]: %ld", round, k, db[k]);
            shmem_barrier(s->start, s->log_stride, s->size, psync_bar);
            shmem_collect64(da, sr, 1, s->start, s->log_stride, s->size, psync);
            for (int k = 0; k < s->size; k++)
                CHECK(da[k] == (s->start + k * s->stride) * 1000 + base,
                      "round %d collect [%d]: %ld", round, k, da[k]);
            shmem_long_sum_to_all(db, sr, 1, s->start, s->log_stride, s->size, pwrk_l, psync_b);
            long want = 0;
            for (int k = 0; k < s->size; k++)
                want += (s->start + k * s->stride) * 1000 + base;
            CHECK(db[0] == want, "round %d sum: %ld, want %ld", round, db[0], want);
            shmem_barrier(s->start, s->log_stride, s->size, psync_bar);
        }
    }
    shmem_barrier_all();
}

int main(void)
{
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    const char *q = getenv("COLL_ALGORITHMS_QUICK");
    quick = q && *q == '1';
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
        psync[i] = psync_b[i] = SHMEM_SYNC_VALUE;
    for (int i = 0; i < SHMEM_BARRIER_SYNC_SIZE; i++)
        psync_bar[i] = SHMEM_SYNC_VALUE;
    src = shmem_malloc(MAX_ELEMS * 16 + 64);
    dst = shmem_malloc(MAX_ELEMS * 16 + 64);
    CHECK(src && dst, "shmem_malloc");
    shmem_team_t even, odd = SHMEM_TEAM_INVALID;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (npes + 1) / 2, NULL, 0, &even);
    if (npes > 1)
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, npes / 2, NULL, 0, &odd);
    struct set sets[] = {
        {0, 1, 0, npes, true, SHMEM_TEAM_WORLD},
        {0, 2, 1, (npes + 1) / 2, true, even},
        {1, 2, 1, npes / 2, true, odd},
        {0, 1, 0, npes, false, SHMEM_TEAM_INVALID},
        {0, 2, 1, (npes + 1) / 2, false, SHMEM_TEAM_INVALID},
        {npes > 1, 1, 0, npes > 1 ? npes - 1 : 1, false, SHMEM_TEAM_INVALID},
    };
    for (size_t k = 0; k < sizeof sets / sizeof *sets; k++) {
        if (sets[k].size < 1)
            continue; /* no odd PEs at 1 PE */
        run_broadcasts(&sets[k]);
        run_reductions(&sets[k]);
        run_collects(&sets[k]);
        if (!sets[k].team_form)
            run_alternating(&sets[k]);
    }
    if (even != SHMEM_TEAM_INVALID)
        shmem_team_destroy(even);
    if (odd != SHMEM_TEAM_INVALID)
        shmem_team_destroy(odd);
    shmem_free(src);
    shmem_free(dst);
    if (me == 0)
        printf("coll_algorithms: %d PEs passed\n", npes);
    shmem_finalize();
    return 0;
}
