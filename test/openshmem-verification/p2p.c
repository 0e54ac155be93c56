/* 9.10 Point-to-point synchronization: wait_until and test, single and set
 * forms, every comparison, every point-to-point type; set forms honour
 * the status mask. */
#include "vv.h"

#define K 6

#define TEST_P2P(T, N)                                                                        \
    static void test_##N(void)                                                                \
    {                                                                                         \
        int me = VV_ME, n = VV_NPES, next = (me + 1) % n;                                     \
        T *v = shmem_calloc(K, sizeof(T));                                                    \
        shmem_barrier_all();                                                                  \
        /* The next PE's values are raised one by one; waits see each. */                   \
        for (int i = 0; i < K; i++)                                                           \
            shmem_##N##_p(&v[i], (T)(i + 1), next);                                           \
        shmem_quiet();                                                                        \
        shmem_##N##_wait_until(&v[0], SHMEM_CMP_EQ, (T)1);                                    \
        shmem_##N##_wait_until(&v[1], SHMEM_CMP_NE, (T)0);                                    \
        shmem_##N##_wait_until(&v[2], SHMEM_CMP_GT, (T)2);                                    \
        shmem_##N##_wait_until(&v[3], SHMEM_CMP_GE, (T)4);                                    \
        shmem_##N##_wait_until(&v[4], SHMEM_CMP_LT, (T)6);                                    \
        shmem_##N##_wait_until(&v[5], SHMEM_CMP_LE, (T)6);                                    \
        shmem_##N##_wait_until_all(v, K, NULL, SHMEM_CMP_GT, (T)0);                           \
        VV_CHECK(shmem_##N##_test(&v[2], SHMEM_CMP_EQ, (T)3), "test eq");                     \
        VV_CHECK(!shmem_##N##_test(&v[2], SHMEM_CMP_LT, (T)3), "test lt");                    \
        VV_CHECK(shmem_##N##_test_all(v, K, NULL, SHMEM_CMP_LE, (T)K), "test_all");           \
        int status[K] = {1, 1, 0, 0, 1, 1};                                                   \
        VV_CHECK(shmem_##N##_test_any(v, K, status, SHMEM_CMP_EQ, (T)4) == 3, "test_any");    \
        VV_CHECK(shmem_##N##_test_any(v, K, status, SHMEM_CMP_EQ, (T)1) == SIZE_MAX,          \
                 "test_any ignores masked");                                                  \
        size_t idx[K];                                                                        \
        VV_CHECK(shmem_##N##_test_some(v, K, idx, NULL, SHMEM_CMP_GE, (T)5) == 2 &&           \
                     idx[0] == 4 && idx[1] == 5,                                              \
                 "test_some");                                                                \
        VV_CHECK(shmem_##N##_wait_until_any(v, K, status, SHMEM_CMP_GE, (T)3) == 2,           \
                 "wait_until_any");                                                           \
        VV_CHECK(shmem_##N##_wait_until_some(v, K, idx, status, SHMEM_CMP_GE, (T)3) == 2,     \
                 "wait_until_some");                                                          \
        T want[K], low[K];                                                                    \
        for (int i = 0; i < K; i++) {                                                         \
            want[i] = (T)(i + 1);                                                             \
            low[i] = (T)i;                                                                    \
        }                                                                                     \
        shmem_##N##_wait_until_all_vector(v, K, NULL, SHMEM_CMP_EQ, want);                    \
        VV_CHECK(shmem_##N##_wait_until_any_vector(v, K, status, SHMEM_CMP_GT, low) == 2,     \
                 "wait_until_any_vector");                                                    \
        VV_CHECK(shmem_##N##_wait_until_some_vector(v, K, idx, NULL, SHMEM_CMP_EQ, want) == K, \
                 "wait_until_some_vector");                                                   \
        VV_CHECK(shmem_##N##_test_all_vector(v, K, status, SHMEM_CMP_EQ, want), "test_all_vector"); \
        VV_CHECK(shmem_##N##_test_any_vector(v, K, NULL, SHMEM_CMP_LT, low) == SIZE_MAX,      \
                 "test_any_vector");                                                          \
        VV_CHECK(shmem_##N##_test_some_vector(v, K, idx, status, SHMEM_CMP_NE, low) == 2,     \
                 "test_some_vector");                                                         \
        int none[K] = {1, 1, 1, 1, 1, 1};                                                     \
        VV_CHECK(shmem_##N##_wait_until_any(v, K, none, SHMEM_CMP_EQ, (T)0) == SIZE_MAX,      \
                 "all masked: any returns SIZE_MAX");                                         \
        VV_CHECK(shmem_##N##_test_all(v, K, none, SHMEM_CMP_EQ, (T)0) == 1,                   \
                 "all masked: test_all is true");                                             \
        shmem_barrier_all();                                                                  \
        shmem_free(v);                                                                        \
        vv_case_end("9.10", "wait_until and test", #N);                                       \
    }
SHMEM_P2P_TABLE(TEST_P2P)
#define CALL(T, N) test_##N();

/* A wait really waits: the value arrives late, from another PE. */
static void test_waits_block(void)
{
    int me = VV_ME, n = VV_NPES;
    long *flag = shmem_calloc(1, sizeof(long));
    int *ready = shmem_calloc(1, sizeof(int));
    shmem_barrier_all();
    if (n > 1) {
        if (me == 0) {
            for (volatile int spin = 0; spin < 2000000; spin++)
                ;
            for (int p = 1; p < n; p++)
                shmem_long_atomic_set(flag, 42, p);
        } else {
            shmem_wait_until(flag, SHMEM_CMP_EQ, 42L);
            VV_CHECK(*flag == 42, "woke early");
            shmem_long_wait(flag, 0); /* deprecated: returns once *flag != 0 */
            shmem_int_atomic_inc(ready, 0);
        }
        if (me == 0)
            shmem_int_wait_until(ready, SHMEM_CMP_EQ, n - 1);
    }
    shmem_barrier_all();
    shmem_free(flag);
    shmem_free(ready);
    vv_case_end("9.10", "wait blocks until a remote update", "long int");
}

int main(void)
{
    shmem_init();
    SHMEM_P2P_TABLE(CALL)
    test_waits_block();
    return vv_finish("9.10");
}
