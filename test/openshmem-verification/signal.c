/* 9.8 Signaling: put with signal (set and add, blocking and nbi, typed,
 * sized and bytes), signal_fetch, signal_wait_until. */
#include "vv.h"

#define LEN 64

#define TEST_PUT_SIGNAL(T, N)                                                                 \
    static void test_##N(void)                                                                \
    {                                                                                         \
        int me = VV_ME, n = VV_NPES, next = (me + 1) % n, prev = (me + n - 1) % n;            \
        T *buf = shmem_calloc(2 * LEN, sizeof(T));                                            \
        uint64_t *sig = shmem_calloc(2, sizeof(uint64_t));                                    \
        T src[LEN];                                                                           \
        for (int i = 0; i < LEN; i++)                                                         \
            src[i] = (T)(me * 3 + i);                                                         \
        shmem_barrier_all();                                                                  \
        shmem_##N##_put_signal(buf, src, LEN, &sig[0], 1, SHMEM_SIGNAL_SET, next);            \
        shmem_ctx_##N##_put_signal_nbi(SHMEM_CTX_DEFAULT, buf + LEN, src, LEN, &sig[1], 5,    \
                                       SHMEM_SIGNAL_ADD, next);                               \
        shmem_##N##_put_signal_nbi(buf + LEN, src, LEN, &sig[1], 5, SHMEM_SIGNAL_ADD, next);  \
        VV_CHECK(shmem_signal_wait_until(&sig[0], SHMEM_CMP_EQ, 1) == 1, "wait set");         \
        for (int i = 0; i < LEN; i++)                                                         \
            VV_CHECK(buf[i] == (T)(prev * 3 + i), "data before signal [%d]", i);              \
        VV_CHECK(shmem_signal_wait_until(&sig[1], SHMEM_CMP_GE, 10) == 10, "wait add");       \
        for (int i = 0; i < LEN; i++)                                                         \
            VV_CHECK(buf[LEN + i] == (T)(prev * 3 + i), "nbi data [%d]", i);                  \
        VV_CHECK(shmem_signal_fetch(&sig[1]) == 10, "signal_fetch");                          \
        shmem_barrier_all();                                                                  \
        shmem_free(buf);                                                                      \
        shmem_free(sig);                                                                      \
        vv_case_end("9.8", "put_signal", #N);                                                 \
    }
SHMEM_RMA_TYPE_TABLE(TEST_PUT_SIGNAL)
#define CALL(T, N) test_##N();

static void test_sized(void)
{
    int me = VV_ME, n = VV_NPES, next = (me + 1) % n, prev = (me + n - 1) % n;
    char *buf = shmem_calloc(1024, 1);
    uint64_t *sig = shmem_calloc(1, sizeof(uint64_t));
    char src[1024];
    for (int i = 0; i < 1024; i++)
        src[i] = (char)(me + i);
    shmem_barrier_all();
    shmem_put8_signal(buf, src, 16, sig, 1, SHMEM_SIGNAL_ADD, next);
    shmem_put16_signal_nbi(buf + 16, src + 16, 8, sig, 1, SHMEM_SIGNAL_ADD, next);
    shmem_put32_signal(buf + 32, src + 32, 8, sig, 1, SHMEM_SIGNAL_ADD, next);
    shmem_put64_signal_nbi(buf + 64, src + 64, 8, sig, 1, SHMEM_SIGNAL_ADD, next);
    shmem_put128_signal(buf + 128, src + 128, 8, sig, 1, SHMEM_SIGNAL_ADD, next);
    shmem_putmem_signal(buf + 256, src + 256, 256, sig, 1, SHMEM_SIGNAL_ADD, next);
    shmem_putmem_signal_nbi(buf + 512, src + 512, 512, sig, 1, SHMEM_SIGNAL_ADD, next);
    shmem_ctx_put64_signal(SHMEM_CTX_DEFAULT, buf + 64, src + 64, 8, sig, 1, SHMEM_SIGNAL_ADD, next);
    shmem_wait_until((long *)sig, SHMEM_CMP_EQ, 8);
    for (int i = 0; i < 1024; i++)
        VV_CHECK(buf[i] == (char)(prev + i), "byte %d", i);
    /* the C11 generic name */
    long *lb = shmem_calloc(4, sizeof(long));
    long lv[4] = {me, me, me, me};
    shmem_barrier_all();
    shmem_put_signal(lb, lv, 4, sig, 100, SHMEM_SIGNAL_SET, next);
    shmem_signal_wait_until(sig, SHMEM_CMP_EQ, 100);
    VV_CHECK(lb[3] == prev, "generic put_signal");
    shmem_barrier_all();
    shmem_free(lb);
    shmem_free(buf);
    shmem_free(sig);
    vv_case_end("9.8", "put_signal sized, mem, generic", "8 16 32 64 128 mem");
}

int main(void)
{
    shmem_init();
    SHMEM_RMA_TYPE_TABLE(CALL)
    test_sized();
    return vv_finish("9.8");
}
