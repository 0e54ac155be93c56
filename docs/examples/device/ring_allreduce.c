/* Ring all-reduce (sum) as a device kernel: reduce-scatter then all-gather
 * around the ring of PEs, n-1 steps each. Every step sends one chunk to the
 * next PE with put-with-signal; the receiver waits for the signal, not for
 * a barrier. The kernel's blocks each own a slice of every chunk, with
 * signal words of their own.
 *
 *   oshcc -o ring_allreduce ring_allreduce.c && oshrun -np 4 ./ring_allreduce
 */
#include <shmem.h>
#include <shmem/device.h>
#include <shmemx.h>
#include <stdio.h>
#include <string.h>

#define CHUNK 3000   /* floats per PE-sized chunk */
#define BLOCKS 3

struct ring_args {
    float *data;     /* npes * CHUNK: in and out */
    float *inbox;    /* (npes - 1) * CHUNK: one slot per reduce-scatter step */
    uint64_t *sig;   /* BLOCKS * 2 * npes signal words */
};

static void ring_allreduce_kernel(void *p)
{
    const struct ring_args *a = p;
    int me = shmemd_my_pe(), n = shmemd_n_pes(), next = (me + 1) % n;
    unsigned b = shmemd_block_idx(), nb = shmemd_block_num();
    size_t share = (CHUNK + nb - 1) / nb, off = share * b;
    size_t len = off < CHUNK ? (CHUNK - off < share ? CHUNK - off : share) : 0;
    uint64_t *sig = a->sig + (size_t)b * 2 * n;

    /* Reduce-scatter: after step s, chunk (me - s - 1) holds s + 2 PEs' sum. */
    for (int s = 0; s < n - 1; s++) {
        int send = (me - s + n) % n, recv = (me - s - 1 + n) % n;
        float *slot = a->inbox + (size_t)s * CHUNK + off;
        shmemd_putmem_signal_nbi(slot, a->data + (size_t)send * CHUNK + off, len * sizeof(float),
                                 &sig[s], 1, SHMEM_SIGNAL_ADD, next);
        shmemd_signal_wait_until(&sig[s], SHMEM_CMP_GE, 1);
        float *mine = a->data + (size_t)recv * CHUNK + off;
        for (size_t i = 0; i < len; i++)
            mine[i] += slot[i];
    }
    /* All-gather: the finished chunk travels around the ring. */
    for (int s = 0; s < n - 1; s++) {
        int send = (me + 1 - s + n) % n;
        float *chunk = a->data + (size_t)send * CHUNK + off;
        shmemd_putmem_signal_nbi(chunk, chunk, len * sizeof(float), &sig[n + s], 1,
                                 SHMEM_SIGNAL_ADD, next);
        shmemd_signal_wait_until(&sig[n + s], SHMEM_CMP_GE, 1);
    }
    shmemd_quiet();
}

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    float *data = shmemx_device_malloc((size_t)n * CHUNK * sizeof(float));
    float *inbox = shmemx_device_malloc((size_t)(n > 1 ? n - 1 : 1) * CHUNK * sizeof(float));
    uint64_t *sig = shmemx_device_calloc((size_t)BLOCKS * 2 * n, sizeof(uint64_t));
    /* Small integers: their float sums are exact. */
    for (size_t i = 0; i < (size_t)n * CHUNK; i++)
        data[i] = (float)((me + 1) * (int)(i % 7 + 1));
    shmem_barrier_all(); /* every PE's signals are zero before any kernel sends */

    struct ring_args args = {data, inbox, sig};
    shmemx_launch(ring_allreduce_kernel, BLOCKS, 1, &args, sizeof args, NULL);
    shmemx_stream_synchronize(NULL);

    static long errors; /* symmetric: reduced below */
    errors = 0;
    float pes_sum = (float)(n * (n + 1) / 2);
    for (size_t i = 0; i < (size_t)n * CHUNK; i++)
        errors += data[i] != pes_sum * (float)(i % 7 + 1);
    if (errors)
        fprintf(stderr, "PE %d: %ld wrong sums\n", me, errors);
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &errors, &errors, 1);
    shmemx_device_free(sig);
    shmemx_device_free(inbox);
    shmemx_device_free(data);
    shmem_finalize();
    if (me == 0)
        printf("ring all-reduce: %d PEs, %d floats: %s\n", n, n * CHUNK, errors ? "FAILED" : "passed");
    return errors != 0;
}
