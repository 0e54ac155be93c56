/* 9.12 Distributed locking: mutual exclusion under contention, test_lock. */
#include "vv.h"

static long lock;
static long counter;

int main(void)
{
    shmem_init();
    int me = VV_ME, n = VV_NPES;
    const int rounds = 200;
    for (int i = 0; i < rounds; i++) {
        shmem_set_lock(&lock);
        /* A non-atomic read-modify-write: only safe under the lock. */
        long v = shmem_long_g(&counter, 0);
        shmem_long_p(&counter, v + 1, 0);
        shmem_quiet();
        shmem_clear_lock(&lock);
    }
    shmem_barrier_all();
    if (me == 0)
        VV_CHECK(counter == (long)rounds * n, "counter %ld, want %ld", counter, (long)rounds * n);
    vv_case_end("9.12", "set_lock/clear_lock", "contended");

    int acquired = 0;
    for (int i = 0; i < rounds; i++) {
        if (shmem_test_lock(&lock) == 0) {
            long v = shmem_long_g(&counter, 0);
            shmem_long_p(&counter, v + 1, 0);
            shmem_quiet();
            shmem_clear_lock(&lock);
            acquired++;
        }
    }
    static long total;
    shmem_long_atomic_add(&total, acquired, 0);
    shmem_barrier_all();
    if (me == 0)
        VV_CHECK(counter == (long)rounds * n + total && total > 0, "test_lock: %ld + %ld", counter, total);
    shmem_barrier_all();
    if (me == 0) {
        shmem_set_lock(&lock);
        VV_CHECK(shmem_test_lock(&lock) == 1, "test_lock on a held lock");
        shmem_clear_lock(&lock);
    }
    shmem_barrier_all();
    vv_case_end("9.12", "test_lock", "contended");
    return vv_finish("9.12");
}
