/* Every feature that <shmem.h> declares to language bindings (the
 * PySHMEM_HAVE_* names of include/shmem/bindings.h, which shmem4py reads)
 * is there: one routine of each, with its values checked. */
#include "check.h"

#define FEATURES(X)                                                                       \
    X(shmem_malloc_with_hints) X(shmem_team_t) X(SHMEM_CTX_INVALID) X(shmem_amo_nbi)      \
    X(shmem_put_signal) X(shmem_signal_fetch) X(shmem_signal_wait_until) X(shmem_broadcast) \
    X(shmem_collect) X(shmem_fcollect) X(shmem_alltoall) X(shmem_alltoalls)               \
    X(shmem_broadcastmem) X(shmem_collectmem) X(shmem_fcollectmem) X(shmem_alltoallmem)   \
    X(shmem_alltoallsmem) X(shmem_reduce) X(shmem_wait_test_many) X(shmem_pcontrol)
#define DECLARED(f) PySHMEM_HAVE_##f +
/* Each name is defined to 1: the sum is the number of names. */
_Static_assert(FEATURES(DECLARED) 0 == 20, "a PySHMEM_HAVE_ name is missing");

#define MAXPES 16
static long counter, fetched;
static uint64_t sig;
static char msg[8];
static int ivar[MAXPES], all[MAXPES], pair[2 * MAXPES], spread[2 * MAXPES];
static int one, bcast, sum;

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    int right = (me + 1) % n, left = (me + n - 1) % n;
    CHECK(n <= MAXPES, "at most %d PEs", MAXPES);
    shmem_pcontrol(1);

    /* shmem_malloc_with_hints, shmem_team_t, SHMEM_CTX_INVALID */
    long *h = shmem_malloc_with_hints(sizeof(long), SHMEM_MALLOC_ATOMICS_REMOTE);
    CHECK(h != NULL, "shmem_malloc_with_hints gave NULL");
    shmem_team_t world = SHMEM_TEAM_WORLD;
    CHECK(shmem_team_n_pes(world) == n, "team of %d PEs", shmem_team_n_pes(world));
    shmem_ctx_t ctx = SHMEM_CTX_INVALID;
    CHECK(ctx == SHMEM_CTX_INVALID, "SHMEM_CTX_INVALID");
    shmem_free(h);

    /* non-blocking fetching AMO */
    shmem_long_atomic_fetch_add_nbi(&fetched, &counter, 1, right);
    shmem_quiet();
    CHECK(fetched == 0, "fetch_add_nbi fetched %ld", fetched);
    shmem_barrier_all();
    CHECK(counter == 1, "counter is %ld after one fetch_add_nbi", counter);

    /* put with signal, signal_wait_until, signal_fetch */
    char word[8] = "from";
    word[4] = (char)('0' + left % 10);
    shmem_barrier_all();
    char mine[8] = "from";
    mine[4] = (char)('0' + me % 10);
    shmem_putmem_signal(msg, mine, sizeof mine, &sig, 1, SHMEM_SIGNAL_SET, right);
    CHECK(shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, 1) == 1, "signal_wait_until");
    CHECK(shmem_signal_fetch(&sig) == 1, "signal_fetch %llu", (unsigned long long)sig);
    CHECK(memcmp(msg, word, sizeof word) == 0, "put_signal delivered '%.8s'", msg);

    /* team collectives, typed and untyped */
    one = me + 1;
    if (me == 0)
        bcast = 42;
    CHECK(shmem_int_broadcast(world, &bcast, &bcast, 1, 0) == 0, "broadcast");
    CHECK(bcast == 42, "broadcast gave %d", bcast);
    CHECK(shmem_broadcastmem(world, &bcast, &one, sizeof one, 0) == 0 && bcast == 1,
          "broadcastmem gave %d", bcast);
    CHECK(shmem_int_collect(world, all, &one, 1) == 0, "collect");
    for (int i = 0; i < n; i++)
        CHECK(all[i] == i + 1, "collect: [%d] = %d", i, all[i]);
    memset(all, 0, sizeof all);
    CHECK(shmem_collectmem(world, all, &one, sizeof one) == 0 && all[n - 1] == n, "collectmem");
    memset(all, 0, sizeof all);
    CHECK(shmem_int_fcollect(world, all, &one, 1) == 0 && all[n - 1] == n, "fcollect");
    memset(all, 0, sizeof all);
    CHECK(shmem_fcollectmem(world, all, &one, sizeof one) == 0 && all[0] == 1, "fcollectmem");
    int src[MAXPES], src2[2 * MAXPES];
    for (int i = 0; i < n; i++)
        src[i] = 100 * me + i, src2[2 * i] = 100 * me + i;
    CHECK(shmem_int_alltoall(world, all, src, 1) == 0, "alltoall");
    for (int i = 0; i < n; i++)
        CHECK(all[i] == 100 * i + me, "alltoall: [%d] = %d", i, all[i]);
    memset(all, 0, sizeof all);
    CHECK(shmem_alltoallmem(world, all, src, sizeof(int)) == 0 && all[n - 1] == 100 * (n - 1) + me,
          "alltoallmem");
    CHECK(shmem_int_alltoalls(world, spread, src2, 2, 2, 1) == 0, "alltoalls");
    for (int i = 0; i < n; i++)
        CHECK(spread[2 * i] == 100 * i + me, "alltoalls: [%d] = %d", 2 * i, spread[2 * i]);
    memset(pair, 0, sizeof pair);
    /* The untyped form's element is a byte: unit strides move whole ints. */
    CHECK(shmem_alltoallsmem(world, pair, src, 1, 1, sizeof(int)) == 0 &&
              pair[n - 1] == 100 * (n - 1) + me,
          "alltoallsmem");
    CHECK(shmem_int_sum_reduce(world, &sum, &one, 1) == 0 && sum == n * (n + 1) / 2,
          "sum_reduce gave %d", sum);

    /* wait on many: every PE sets its word on PE 0 */
    shmem_int_atomic_set(&ivar[me], 1, 0);
    if (me == 0) {
        shmem_int_wait_until_all(ivar, (size_t)n, NULL, SHMEM_CMP_EQ, 1);
        CHECK(shmem_int_test_all(ivar, (size_t)n, NULL, SHMEM_CMP_EQ, 1) == 1, "test_all");
    }
    shmem_barrier_all();
    if (me == 0)
        printf("bindings: %d PEs passed\n", n);
    shmem_finalize();
    return 0;
}
