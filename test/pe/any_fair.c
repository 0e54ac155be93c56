/* The _any forms of test and wait_until (and their vector forms) as
 * OpenSHMEM 1.5 states them: when element i of the wait set satisfies the
 * condition, a series of calls must eventually return i, so a program that
 * polls with no status array sees every satisfied element, not only the
 * lowest. Never an unsatisfied or excluded element; SIZE_MAX for an empty
 * wait set (nelems 0 or every element excluded) and, for test_any, when
 * nothing satisfies. The _some forms return every satisfied index at once.
 *
 * Each PE's flags are set by the previous PE (by itself at 1 PE), then each
 * PE checks its own. Every polling loop is bounded: a starved index fails
 * the check instead of hanging. */
#include <stdint.h>

#include "check.h"

#define N 8
#define CALLS (16 * N) /* a fair scan needs N calls to return all N */

enum kind { TEST_ANY, WAIT_ANY, TEST_ANY_V, WAIT_ANY_V, KINDS };
static const char *const kind_name[KINDS] = {"test_any", "wait_until_any", "test_any_vector",
                                             "wait_until_any_vector"};

static int flags[N], other[N]; /* symmetric: data segment */
static long lflags[N];
static int ones[N] = {1, 1, 1, 1, 1, 1, 1, 1};

static size_t call(enum kind k, int *ivars, size_t n, const int *status)
{
    switch (k) {
    case TEST_ANY:
        return shmem_int_test_any(ivars, n, status, SHMEM_CMP_EQ, 1);
    case WAIT_ANY:
        return shmem_int_wait_until_any(ivars, n, status, SHMEM_CMP_EQ, 1);
    case TEST_ANY_V:
        return shmem_int_test_any_vector(ivars, n, status, SHMEM_CMP_EQ, ones);
    default:
        return shmem_int_wait_until_any_vector(ivars, n, status, SHMEM_CMP_EQ, ones);
    }
}

/* Element i of both arrays becomes 1 where bit i of PATTERN is set, 0
 * elsewhere, written by the previous PE. */
static void set_flags(unsigned pattern)
{
    int me = shmem_my_pe(), n = shmem_n_pes(), v[N];
    long lv[N];
    for (int i = 0; i < N; i++)
        lv[i] = v[i] = (pattern >> i) & 1;
    int to = (me + 1) % n;
    shmem_barrier_all(); /* the next PE has done with the previous pattern */
    shmem_int_put(flags, v, N, to);
    shmem_int_put(other, v, N, to);
    shmem_long_put(lflags, lv, N, to);
    shmem_quiet();
    shmem_barrier_all();
}

/* Polls with routine K until every element expected (satisfied and not
 * excluded) has been returned; every answer must be one of them. */
static void poll_all(enum kind k, unsigned pattern, const int *status)
{
    unsigned expected = 0, seen = 0;
    for (int i = 0; i < N; i++)
        if (((pattern >> i) & 1) && !(status && status[i]))
            expected |= 1u << i;
    for (int c = 0; c < CALLS && seen != expected; c++) {
        size_t i = call(k, flags, N, status);
        CHECK(i < N && ((expected >> i) & 1), "%s returned %zu (pattern %#x, expected %#x)",
              kind_name[k], i, pattern, expected);
        seen |= 1u << i;
    }
    CHECK(seen == expected, "%s: %d calls returned only %#x of %#x", kind_name[k], CALLS, seen,
          expected);
}

/* Two series interleaved: each must still be fair on its own (a series of
 * calls to one routine on one array). */
static void poll_interleaved(void)
{
    unsigned seen_test = 0, seen_wait = 0, seen_other = 0, seen_long = 0, all = (1u << N) - 1;
    for (int c = 0; c < CALLS; c++) {
        size_t a = shmem_int_test_any(flags, N, NULL, SHMEM_CMP_EQ, 1);
        size_t b = shmem_int_wait_until_any(flags, N, NULL, SHMEM_CMP_EQ, 1);
        size_t o = shmem_int_test_any(other, N, NULL, SHMEM_CMP_EQ, 1);
        size_t l = shmem_long_test_any(lflags, N, NULL, SHMEM_CMP_EQ, 1);
        CHECK(a < N && b < N && o < N && l < N, "returned %zu %zu %zu %zu", a, b, o, l);
        seen_test |= 1u << a;
        seen_wait |= 1u << b;
        seen_other |= 1u << o;
        seen_long |= 1u << l;
    }
    CHECK(seen_test == all && seen_wait == all && seen_other == all && seen_long == all,
          "interleaved series saw %#x (test_any) %#x (wait_until_any) %#x (other array) "
          "%#x (long)", seen_test, seen_wait, seen_other, seen_long);
}

static void empty_sets(void)
{
    static const int all_out[N] = {1, 1, 1, 1, 1, 1, 1, 1};
    size_t idx[N];
    for (int k = 0; k < KINDS; k++) {
        CHECK(call((enum kind)k, flags, 0, NULL) == SIZE_MAX, "%s, nelems 0", kind_name[k]);
        CHECK(call((enum kind)k, flags, N, all_out) == SIZE_MAX, "%s, all excluded",
              kind_name[k]);
    }
    /* Nothing satisfies: test_any says so (the waits would wait). */
    CHECK(shmem_int_test_any(flags, N, NULL, SHMEM_CMP_EQ, 2) == SIZE_MAX, "test_any, none");
    int twos[N] = {2, 2, 2, 2, 2, 2, 2, 2};
    CHECK(shmem_int_test_any_vector(flags, N, NULL, SHMEM_CMP_EQ, twos) == SIZE_MAX,
          "test_any_vector, none");
    CHECK(shmem_int_test_some(flags, N, idx, all_out, SHMEM_CMP_EQ, 1) == 0, "test_some");
    CHECK(shmem_int_wait_until_some(flags, N, idx, all_out, SHMEM_CMP_EQ, 1) == 0,
          "wait_until_some");
    CHECK(shmem_int_test_all(flags, N, all_out, SHMEM_CMP_EQ, 2) == 1, "test_all");
    shmem_int_wait_until_all(flags, N, all_out, SHMEM_CMP_EQ, 2); /* returns at once */
}

/* The _some forms: every satisfied, included index, each once, in order. */
static void some(unsigned pattern, const int *status)
{
    size_t idx[N], got[2];
    got[0] = shmem_int_test_some(flags, N, idx, status, SHMEM_CMP_EQ, 1);
    for (int pass = 0; pass < 2; pass++) {
        size_t j = 0;
        for (size_t i = 0; i < N; i++)
            if (((pattern >> i) & 1) && !(status && status[i])) {
                CHECK(j < got[pass] && idx[j] == i, "_some pass %d: index %zu missing", pass, i);
                j++;
            }
        CHECK(j == got[pass], "_some pass %d returned %zu indices, %zu expected", pass, got[pass], j);
        if (pass == 0)
            got[1] = shmem_int_wait_until_some_vector(flags, N, idx, status, SHMEM_CMP_EQ, ones);
    }
}

int main(void)
{
    shmem_init();
    static const int odd_out[N] = {0, 1, 0, 0, 1, 0, 0, 1}; /* excludes 1, 4, 7 */
    static const int low_out[N] = {1, 1, 1, 0, 0, 0, 0, 0};
    const unsigned all = (1u << N) - 1, odd = 0xaa, sparse = 0x91; /* 0, 4, 7 */
    const unsigned patterns[] = {all, odd, sparse};
    const int *statuses[] = {NULL, odd_out, low_out};
    for (size_t p = 0; p < sizeof patterns / sizeof *patterns; p++) {
        set_flags(patterns[p]);
        for (size_t s = 0; s < sizeof statuses / sizeof *statuses; s++) {
            for (int k = 0; k < KINDS; k++)
                poll_all((enum kind)k, patterns[p], statuses[s]);
            some(patterns[p], statuses[s]);
        }
    }
    set_flags(all);
    poll_interleaved();
    empty_sets();
    shmem_barrier_all();
    if (shmem_my_pe() == 0)
        printf("any_fair: passed\n");
    shmem_finalize();
    return 0;
}
