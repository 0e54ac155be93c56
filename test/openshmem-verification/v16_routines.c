/* OpenSHMEM 1.6: the routines it adds. Blocked strided RMA (ibput, ibget),
 * scans (sum_inscan, sum_exscan), signal_add/set, pe_quiet,
 * query_initialized, sessions, and the version it reports. Each case
 * checks values against the specification's definitions. */
#include <complex.h>
#include <stdint.h>

#include "vv.h"

/* ibput/ibget shape: NB blocks of BS elements, block starts DST elements
 * apart at the destination and SST apart at the source. */
#define BS 3
#define NB 4
#define DST 5
#define SST 4

static shmem_ctx_t vv_ctx; /* a context of its own: the ctx forms use it */

/* What ibput with the shape above leaves at index I of a destination that
 * held zeros, when source element k held BASE + k + 1. */
#define IB_EXPECT(BASE, I) ((I) % DST < BS ? (BASE) + ((I) / DST) * SST + (I) % DST + 1 : 0)

#define TEST_IB(T, N)                                                                         \
    static void test_ib_##N(void)                                                             \
    {                                                                                         \
        int me = VV_ME, n = VV_NPES, next = (me + 1) % n, prev = (me + n - 1) % n;            \
        T *dest = shmem_calloc(2 * NB * DST, sizeof(T));                                      \
        T *sym = shmem_malloc(NB * SST * sizeof(T));                                          \
        T src[NB * SST], got[2][NB * DST];                                                    \
        for (int i = 0; i < NB * SST; i++)                                                    \
            src[i] = sym[i] = (T)(me * 7 + i + 1);                                            \
        memset(got, 0, sizeof got);                                                           \
        shmem_barrier_all();                                                                  \
        shmem_##N##_ibput(dest, src, DST, SST, BS, NB, next);                                 \
        shmem_ctx_##N##_ibput(vv_ctx, dest + NB * DST, src, DST, SST, BS, NB, next);          \
        shmem_##N##_ibget(got[0], sym, DST, SST, BS, NB, next);                               \
        shmem_ctx_##N##_ibget(vv_ctx, got[1], sym, DST, SST, BS, NB, next);                   \
        shmem_ctx_quiet(vv_ctx);                                                              \
        shmem_barrier_all();                                                                  \
        for (int i = 0; i < NB * DST; i++) {                                                  \
            VV_CHECK(dest[i] == (T)IB_EXPECT(prev * 7, i), "ibput [%d]", i);                  \
            VV_CHECK(dest[NB * DST + i] == (T)IB_EXPECT(prev * 7, i), "ctx ibput [%d]", i);   \
            VV_CHECK(got[0][i] == (T)IB_EXPECT(next * 7, i), "ibget [%d]", i);                \
            VV_CHECK(got[1][i] == (T)IB_EXPECT(next * 7, i), "ctx ibget [%d]", i);            \
        }                                                                                     \
        shmem_barrier_all();                                                                  \
        shmem_free(dest);                                                                     \
        shmem_free(sym);                                                                      \
        vv_case_end("1.6", "ibput ibget (ctx)", #N);                                          \
    }
SHMEM_RMA_TYPE_TABLE(TEST_IB)
#define CALL_IB(T, N) test_ib_##N();

/* The sized forms move BITS-bit elements whatever they hold; the generic
 * names pick the typed routine. Block size 1 is iput/iget. */
#define SIZED_IB(BITS)                                                                        \
    do {                                                                                      \
        const size_t e = (BITS) / 8;                                                          \
        memset(dest, 0, 2 * NB * DST * 16);                                                   \
        memset(got, 0, sizeof got);                                                           \
        shmem_barrier_all();                                                                  \
        shmem_ibput##BITS(dest, src, DST, SST, BS, NB, next);                                 \
        shmem_ctx_ibput##BITS(vv_ctx, dest + NB * DST * e, src, DST, SST, BS, NB, next);      \
        shmem_ibget##BITS(got[0], sym, DST, SST, BS, NB, next);                               \
        shmem_ctx_ibget##BITS(vv_ctx, got[1], sym, DST, SST, BS, NB, next);                   \
        shmem_ctx_quiet(vv_ctx);                                                              \
        shmem_barrier_all();                                                                  \
        for (size_t i = 0; i < NB * DST * e; i++) {                                           \
            size_t el = i / e, b = el / DST, k = el % DST;                                    \
            unsigned char put_want = k < BS ? src_of(prev, (b * SST + k) * e + i % e) : 0;    \
            unsigned char get_want = k < BS ? src_of(next, (b * SST + k) * e + i % e) : 0;    \
            VV_CHECK(dest[i] == put_want, "ibput%d byte %zu", BITS, i);                       \
            VV_CHECK(dest[NB * DST * e + i] == put_want, "ctx ibput%d byte %zu", BITS, i);    \
            VV_CHECK(got[0][i] == get_want, "ibget%d byte %zu", BITS, i);                     \
            VV_CHECK(got[1][i] == get_want, "ctx ibget%d byte %zu", BITS, i);                 \
        }                                                                                     \
    } while (0)

static unsigned char src_of(int pe, size_t byte) { return (unsigned char)(pe * 31 + byte + 1); }

static void test_ib_sized_generic(void)
{
    int me = VV_ME, n = VV_NPES, next = (me + 1) % n, prev = (me + n - 1) % n;
    unsigned char *dest = shmem_malloc(2 * NB * DST * 16);
    unsigned char *sym = shmem_malloc(NB * SST * 16);
    unsigned char src[NB * SST * 16], got[2][NB * DST * 16];
    for (size_t i = 0; i < sizeof src; i++)
        src[i] = sym[i] = src_of(me, i);
    SIZED_IB(8);
    SIZED_IB(16);
    SIZED_IB(32);
    SIZED_IB(64);
    SIZED_IB(128);

    /* C11 generic names, plain and context form; block size 1 is iput. */
    long *ld = shmem_calloc(NB * DST, sizeof(long));
    double *dd = shmem_calloc(NB * DST, sizeof(double));
    long *lsym = shmem_malloc(NB * SST * sizeof(long));
    long lsrc[NB * SST], lgot[NB * DST] = {0};
    double dsrc[NB * SST];
    for (int i = 0; i < NB * SST; i++) {
        lsrc[i] = lsym[i] = me * 7 + i + 1;
        dsrc[i] = me * 7 + i + 1;
    }
    shmem_barrier_all();
    shmem_ibput(ld, lsrc, DST, SST, 1, NB, next);
    shmem_ibput(vv_ctx, dd, dsrc, DST, SST, BS, NB, next);
    shmem_ibget(vv_ctx, lgot, lsym, DST, SST, BS, NB, next);
    shmem_ctx_quiet(vv_ctx);
    shmem_barrier_all();
    for (int i = 0; i < NB * DST; i++) {
        VV_CHECK(ld[i] == (i % DST == 0 ? prev * 7 + (i / DST) * SST + 1 : 0),
                 "generic ibput bsize 1 [%d]", i);
        VV_CHECK(dd[i] == IB_EXPECT(prev * 7, i), "generic ctx ibput [%d]", i);
        VV_CHECK(lgot[i] == IB_EXPECT(next * 7, i), "generic ctx ibget [%d]", i);
    }
    /* nothing to move: no block or no element */
    shmem_long_ibput(ld, lsrc, DST, SST, BS, 0, next);
    shmem_long_ibget(lgot, lsym, DST, SST, 0, NB, next);
    shmem_barrier_all();
    shmem_free(ld);
    shmem_free(dd);
    shmem_free(lsym);
    shmem_free(dest);
    shmem_free(sym);
    vv_case_end("1.6", "ibput ibget sized, generic", "8 16 32 64 128");
}

/* iput and ibput share the strided path: a negative stride (iput allows
 * it) runs downwards from the end of an allocation. */
static void test_iput_downwards(void)
{
    int me = VV_ME, n = VV_NPES, next = (me + 1) % n, prev = (me + n - 1) % n;
    int *a = shmem_calloc(16, sizeof(int));
    int src[8], got[8] = {0};
    for (int i = 0; i < 8; i++)
        src[i] = me * 10 + i;
    shmem_barrier_all();
    shmem_int_iput(a + 15, src, -2, 1, 8, next);
    shmem_barrier_all();
    shmem_int_iget(got + 7, a + 15, -1, -2, 8, next);
    for (int i = 0; i < 16; i++)
        VV_CHECK(a[i] == (i % 2 ? prev * 10 + (15 - i) / 2 : 0), "iput stride -2 [%d]", i);
    for (int i = 0; i < 8; i++)
        VV_CHECK(got[7 - i] == me * 10 + i, "iget stride -2 (what this PE put there) [%d]", i);
    shmem_barrier_all();
    shmem_free(a);
    vv_case_end("1.6", "iput iget negative stride", "int");
}

/* ---- scans ---- */
#define NS 7 /* not a multiple of any PE count tested */

/* dest[i][j] = sum over k <= i (inscan) or k < i (exscan) of (k + 1 + j). */
static long scan_want(int i, int j, int exclusive)
{
    long upto = exclusive ? i : i + 1;
    return upto * (upto + 1) / 2 + upto * j;
}

#define TEST_SCAN(T, N)                                                                       \
    static void test_scan_##N(void)                                                           \
    {                                                                                         \
        int me = VV_ME;                                                                       \
        T *src = shmem_malloc(NS * sizeof(T)), *in = shmem_malloc(NS * sizeof(T));            \
        T *ex = shmem_malloc(NS * sizeof(T)), *inplace = shmem_malloc(NS * sizeof(T));        \
        for (int j = 0; j < NS; j++) {                                                        \
            src[j] = (T)(me + 1 + j);                                                         \
            inplace[j] = src[j];                                                              \
            in[j] = ex[j] = (T)99;                                                            \
        }                                                                                     \
        VV_CHECK(shmem_##N##_sum_inscan(SHMEM_TEAM_WORLD, in, src, NS) == 0, "inscan rc");    \
        VV_CHECK(shmem_##N##_sum_exscan(SHMEM_TEAM_WORLD, ex, src, NS) == 0, "exscan rc");    \
        VV_CHECK(shmem_##N##_sum_inscan(SHMEM_TEAM_WORLD, inplace, inplace, NS) == 0,         \
                 "in-place rc");                                                              \
        for (int j = 0; j < NS; j++) {                                                        \
            VV_CHECK(in[j] == (T)scan_want(me, j, 0), "inscan [%d]", j);                      \
            VV_CHECK(ex[j] == (T)scan_want(me, j, 1), "exscan [%d]", j);                      \
            VV_CHECK(inplace[j] == (T)scan_want(me, j, 0), "in-place inscan [%d]", j);        \
            VV_CHECK(src[j] == (T)(me + 1 + j), "source kept [%d]", j);                       \
        }                                                                                     \
        shmem_barrier_all();                                                                  \
        shmem_free(src);                                                                      \
        shmem_free(in);                                                                       \
        shmem_free(ex);                                                                       \
        shmem_free(inplace);                                                                  \
        vv_case_end("1.6", "sum_inscan sum_exscan", #N);                                      \
    }
SHMEM_SCAN_TABLE(TEST_SCAN)
#define CALL_SCAN(T, N) test_scan_##N();

/* Imaginary parts, an in-place exscan, a team that is not the world, and
 * the generic names. */
static void test_scan_more(void)
{
    int me = VV_ME, n = VV_NPES;
    double _Complex *z = shmem_malloc(NS * sizeof *z);
    for (int j = 0; j < NS; j++)
        z[j] = (me + 1) + (double)j * (me + 1) * I;
    shmem_complexd_sum_exscan(SHMEM_TEAM_WORLD, z, z, NS);
    for (int j = 0; j < NS; j++) {
        double want = me * (me + 1) / 2.0;
        VV_CHECK(creal(z[j]) == want && cimag(z[j]) == want * j, "complexd exscan in place [%d]",
                 j);
    }

    /* team: world PEs 1, 3, ... (PE 0 alone at 1 PE) */
    int start = n > 1 ? 1 : 0, size = (n - start + 1) / 2;
    shmem_team_t team;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, start, 2, size, NULL, 0, &team);
    int *a = shmem_malloc(NS * sizeof(int)), *b = shmem_malloc(NS * sizeof(int));
    if (team != SHMEM_TEAM_INVALID) {
        int t = shmem_team_my_pe(team);
        for (int j = 0; j < NS; j++)
            a[j] = t + 1 + j;
        shmem_int_sum_exscan(team, b, a, NS);
        for (int j = 0; j < NS; j++)
            VV_CHECK(b[j] == scan_want(t, j, 1), "team exscan [%d]", j);
        shmem_int_sum_inscan(team, a, a, NS);
        for (int j = 0; j < NS; j++)
            VV_CHECK(a[j] == scan_want(t, j, 0), "team inscan in place [%d]", j);
        shmem_team_destroy(team);
    }

    long *ls = shmem_malloc(NS * sizeof(long)), *ld = shmem_malloc(NS * sizeof(long));
    float *fs = shmem_malloc(NS * sizeof(float)), *fd = shmem_malloc(NS * sizeof(float));
    for (int j = 0; j < NS; j++) {
        ls[j] = me + 1 + j;
        fs[j] = (float)(me + 1 + j);
    }
    shmem_sum_inscan(SHMEM_TEAM_WORLD, ld, ls, NS);
    shmem_sum_exscan(SHMEM_TEAM_WORLD, fd, fs, NS);
    for (int j = 0; j < NS; j++) {
        VV_CHECK(ld[j] == scan_want(me, j, 0), "generic inscan long [%d]", j);
        VV_CHECK(fd[j] == (float)scan_want(me, j, 1), "generic exscan float [%d]", j);
    }
    /* nothing to scan */
    VV_CHECK(shmem_long_sum_inscan(SHMEM_TEAM_WORLD, ld, ls, 0) == 0, "nelems 0");
    shmem_barrier_all();
    shmem_free(z);
    shmem_free(a);
    shmem_free(b);
    shmem_free(ls);
    shmem_free(ld);
    shmem_free(fs);
    shmem_free(fd);
    vv_case_end("1.6", "scan in place, team, generic", "complexd int long float");
}

/* ---- signal_add, signal_set ---- */
#define SIG_ROUNDS 50

static void test_signal(void)
{
    int me = VV_ME, n = VV_NPES, next = (me + 1) % n, prev = (me + n - 1) % n;
    uint64_t *sig = shmem_calloc(5, sizeof(uint64_t));
    long *data = shmem_calloc(1, sizeof(long));
    long one = 1;
    shmem_barrier_all();
    for (int p = 0; p < n; p++) {
        shmem_signal_add(&sig[0], (uint64_t)me + 1, p);
        shmem_ctx_signal_add(vv_ctx, &sig[0], 1000, p);
    }
    shmem_signal_set(&sig[1], 42, next);
    shmem_ctx_signal_set(vv_ctx, &sig[2], (uint64_t)me + 100, next);
    /* atomic with put-with-signal's add: both add to one word of PE 0 */
    for (int r = 0; r < SIG_ROUNDS; r++) {
        shmem_signal_add(&sig[3], 1, 0);
        shmem_long_put_signal(data, &one, 1, &sig[3], 1, SHMEM_SIGNAL_ADD, 0);
        shmem_ctx_signal_add(vv_ctx, &sig[3], 1, 0);
    }
    /* the C11 names: shmem_signal_add(ctx, ...) is the context form */
    shmem_signal_add(vv_ctx, &sig[4], 5, next);
    shmem_signal_add(&sig[4], 2, next);
    shmem_signal_set(vv_ctx, &sig[1], 43, next);
    shmem_ctx_quiet(vv_ctx);
    shmem_barrier_all();
    uint64_t want0 = (uint64_t)n * (n + 1) / 2 + 1000u * n;
    VV_CHECK(shmem_signal_wait_until(&sig[0], SHMEM_CMP_EQ, want0) == want0, "signal_add sum");
    VV_CHECK(sig[1] == 42 || sig[1] == 43, "signal_set %lu", (unsigned long)sig[1]);
    VV_CHECK(sig[2] == (uint64_t)prev + 100, "ctx signal_set %lu", (unsigned long)sig[2]);
    if (me == 0)
        VV_CHECK(sig[3] == 3u * SIG_ROUNDS * n, "signal_add with put_signal add: %lu",
                 (unsigned long)sig[3]);
    VV_CHECK(sig[4] == 7, "generic signal_add %lu", (unsigned long)sig[4]);
    shmem_barrier_all();
    /* ordered after the set by a fence on the same context: the last one wins */
    shmem_signal_set(&sig[1], 7, next);
    shmem_fence();
    shmem_signal_set(&sig[1], 8, next);
    shmem_barrier_all();
    VV_CHECK(sig[1] == 8, "set after fence %lu", (unsigned long)sig[1]);
    shmem_barrier_all();
    shmem_free(sig);
    shmem_free(data);
    vv_case_end("1.6", "signal_add signal_set (ctx, generic)", "uint64");
}

/* ---- pe_quiet ---- */
#define QN (1 << 16)

static void test_pe_quiet(void)
{
    int me = VV_ME, n = VV_NPES, next = (me + 1) % n, prev = (me + n - 1) % n;
    long *buf = shmem_calloc(2 * QN, sizeof(long));
    long *all = shmem_calloc((size_t)n, sizeof(long));
    long *flag = shmem_calloc(2, sizeof(long));
    static long src[QN];
    for (int i = 0; i < QN; i++)
        src[i] = me * 100000L + i;
    shmem_barrier_all();
    /* Once pe_quiet returns, the puts to NEXT are complete and visible to
     * every PE: a flag raised afterwards, by any path (here: through the
     * other context, which no transport orders with this one), finds them
     * there. */
    shmem_long_put_nbi(buf, src, QN, next);
    shmem_pe_quiet(&next, 1);
    shmem_ctx_long_atomic_set(vv_ctx, &flag[0], 1, next);
    shmem_ctx_quiet(vv_ctx);
    shmem_ctx_long_put_nbi(vv_ctx, buf + QN, src, QN, next);
    shmem_ctx_pe_quiet(vv_ctx, &next, 1);
    shmem_long_atomic_set(&flag[1], 1, next);
    shmem_long_wait_until(&flag[0], SHMEM_CMP_EQ, 1);
    shmem_long_wait_until(&flag[1], SHMEM_CMP_EQ, 1);
    for (int i = 0; i < QN; i++) {
        VV_CHECK(buf[i] == prev * 100000L + i, "after pe_quiet [%d]", i);
        VV_CHECK(buf[QN + i] == prev * 100000L + i, "after ctx pe_quiet [%d]", i);
    }
    shmem_barrier_all();
    /* Several PEs at once, puts and AMOs; npes 0 ignores the array. */
    int *pes = malloc((size_t)n * sizeof *pes);
    for (int p = n - 1; p >= 0; p--) {
        shmem_long_atomic_add(&flag[0], 1, p);
        shmem_long_p(&all[me], me + 1, p);
        pes[n - 1 - p] = p;
    }
    shmem_pe_quiet(pes, (size_t)n);
    shmem_pe_quiet(NULL, 0);
    shmem_ctx_pe_quiet(vv_ctx, NULL, 0);
    shmem_ctx_pe_quiet(SHMEM_CTX_INVALID, pes, 1);
    shmem_sync_all(); /* no quiet of its own: pe_quiet completed them */
    for (int p = 0; p < n; p++)
        VV_CHECK(all[p] == p + 1, "put from PE %d after pe_quiet of all", p);
    VV_CHECK(flag[0] == 1 + n, "AMOs after pe_quiet of all: %ld", flag[0]);
    free(pes);
    shmem_barrier_all();
    shmem_free(buf);
    shmem_free(all);
    shmem_free(flag);
    vv_case_end("1.6", "pe_quiet (ctx)", "long");
}

/* ---- sessions ---- */
static void test_session(void)
{
    int me = VV_ME, n = VV_NPES, next = (me + 1) % n, prev = (me + n - 1) % n;
    long *buf = shmem_calloc(128, sizeof(long));
    long *cnt = shmem_calloc(1, sizeof(long));
    shmem_ctx_session_config_t cfg = {.total_ops = 64};
    shmem_barrier_all();
    shmem_ctx_session_start(SHMEM_CTX_DEFAULT, SHMEM_CTX_SESSION_BATCH, &cfg,
                            SHMEM_CTX_SESSION_TOTAL_OPS);
    for (int i = 0; i < 64; i++) {
        shmem_long_p(&buf[i], me * 1000L + i, next);
        shmem_long_atomic_add(cnt, 1, next);
    }
    /* a second start ORs options in; NULL config with mask 0 */
    shmem_ctx_session_start(SHMEM_CTX_DEFAULT, 0, NULL, 0);
    shmem_ctx_session_stop(SHMEM_CTX_DEFAULT);
    shmem_ctx_session_stop(SHMEM_CTX_DEFAULT); /* no effect */
    shmem_ctx_session_start(SHMEM_CTX_INVALID, SHMEM_CTX_SESSION_BATCH, &cfg, 0);
    shmem_ctx_session_stop(SHMEM_CTX_INVALID);

    /* A put, then a wait for the peer's answer, no quiet: the put gets
     * there all the same (a blocking put is delivered without a quiet). */
    long *ping = shmem_calloc(1, sizeof(long));
    shmem_ctx_session_start(SHMEM_CTX_DEFAULT, SHMEM_CTX_SESSION_BATCH, NULL, 0);
    if (n > 1 && me == 0) {
        shmem_long_p(ping, 1, 1);
        shmem_long_wait_until(ping, SHMEM_CMP_EQ, 2);
    } else if (n > 1 && me == 1) {
        shmem_long_wait_until(ping, SHMEM_CMP_EQ, 1);
        shmem_long_p(ping, 2, 0);
        shmem_long_wait_until(ping, SHMEM_CMP_EQ, 1); /* its own word: still 1 */
    }
    shmem_ctx_session_stop(SHMEM_CTX_DEFAULT);
    shmem_barrier_all();
    VV_CHECK(n == 1 || me > 1 || *ping == (me == 0 ? 2 : 1), "ping-pong in session %ld", *ping);
    shmem_free(ping);

    shmem_ctx_session_start(vv_ctx, SHMEM_CTX_SESSION_BATCH, NULL, 0);
    for (int i = 64; i < 128; i++)
        shmem_ctx_long_p(vv_ctx, &buf[i], me * 1000L + i, next);
    long back = shmem_ctx_long_g(vv_ctx, &buf[0], me); /* a get inside: still a get */
    shmem_ctx_quiet(vv_ctx); /* quiet inside a session completes as always */
    shmem_ctx_session_stop(vv_ctx);
    shmem_barrier_all();
    (void)back;
    for (int i = 0; i < 128; i++)
        VV_CHECK(buf[i] == prev * 1000L + i, "put in session [%d]", i);
    VV_CHECK(*cnt == 64, "AMOs in session: %ld", *cnt);
    shmem_barrier_all();
    shmem_free(buf);
    shmem_free(cnt);
    vv_case_end("1.6", "ctx_session_start/stop", "BATCH, TOTAL_OPS");
}

/* ---- version, query_initialized ---- */
static void test_version(int initialized_before_init)
{
    int major = -1, minor = -1, init = -1;
    shmem_info_get_version(&major, &minor);
    VV_CHECK(major == 1 && minor == 6, "info_get_version %d.%d", major, minor);
    VV_CHECK(SHMEM_MAJOR_VERSION == 1 && SHMEM_MINOR_VERSION == 6, "version macros");
#if !defined(_OPENSHMEM) || _OPENSHMEM < 202411
    VV_CHECK(0, "_OPENSHMEM does not say 1.6");
#endif
    char name[SHMEM_MAX_NAME_LEN];
    shmem_info_get_name(name);
    VV_CHECK(strcmp(name, SHMEM_VENDOR_STRING) == 0 && strlen(name) > 0, "vendor string");
    shmem_query_initialized(&init);
    VV_CHECK(init != 0, "query_initialized while running: %d", init);
    VV_CHECK(initialized_before_init == 0, "query_initialized before init: %d",
             initialized_before_init);
    vv_case_end("1.6", "version, query_initialized", "1.6");
}

int main(void)
{
    int before = -1;
    shmem_query_initialized(&before);
    shmem_init();
    if (shmem_ctx_create(0, &vv_ctx) != 0) {
        fprintf(stderr, "PE %d: no context\n", VV_ME);
        shmem_global_exit(1);
    }
    test_version(before);
    SHMEM_RMA_TYPE_TABLE(CALL_IB)
    test_ib_sized_generic();
    test_iput_downwards();
    SHMEM_SCAN_TABLE(CALL_SCAN)
    test_scan_more();
    test_signal();
    test_pe_quiet();
    test_session();
    shmem_ctx_destroy(vv_ctx);
    int me = VV_ME;
    int status = vv_finish("1.6");
    int after = -1;
    shmem_query_initialized(&after);
    if (me == 0)
        printf("%s  %-6s %-30s %s\n", after == 0 ? "PASS" : "FAIL", "1.6",
               "query_initialized after finalize", "-");
    return status || after != 0;
}
