/* NVSHMEM's ring broadcast, ported through <shmem/compat/nvshmem.h>: the
 * root's data goes around the ring of PEs, each PE forwarding it with a put,
 * a fence and a signal once its own copy has arrived. The kernel and the
 * host code are NVSHMEM's; what changed is the include line and the
 * kernel's one-argument form (C has no <<<>>>).
 *
 *   oshcc -o nv_ring_bcast nv_ring_bcast.c && oshrun -np 4 ./nv_ring_bcast
 */
#include <shmem/compat/nvshmem.h>
#include <stdio.h>
#include <stdlib.h>

struct ring_args {
    int *data;
    size_t nelem;
    int root;
    uint64_t *psync;
};

__global__ void ring_bcast(void *p)
{
    const struct ring_args *a = p;
    int mype = nvshmem_my_pe();
    int npes = nvshmem_n_pes();
    int peer = (mype + 1) % npes;

    if (mype == a->root)
        *a->psync = 1;
    nvshmem_signal_wait_until(a->psync, NVSHMEM_CMP_NE, 0);
    if (mype != (a->root + npes - 1) % npes) { /* the last PE only receives */
        nvshmem_int_put(a->data, a->data, a->nelem, peer);
        nvshmem_fence();
        nvshmemx_signal_op(a->psync, 1, NVSHMEM_SIGNAL_SET, peer);
    }
    *a->psync = 0; /* ready for the next round */
}

int main(void)
{
    size_t data_len = 4096;
    cudaStream_t stream;
    nvshmem_init();
    int mype = nvshmem_my_pe(), npes = nvshmem_n_pes();
    cudaSetDevice(nvshmem_team_my_pe(NVSHMEMX_TEAM_NODE));
    cudaStreamCreate(&stream);

    int *data = nvshmem_malloc(sizeof(int) * data_len);
    int *data_h = malloc(sizeof(int) * data_len);
    uint64_t *psync = nvshmem_calloc(1, sizeof(uint64_t));
    long errors = 0;
    /* Each round a different root: every PE ends with the root's values. */
    for (int root = 0; root < npes; root++) {
        for (size_t i = 0; i < data_len; i++)
            data_h[i] = mype * 100000 + (int)i;
        cudaMemcpyAsync(data, data_h, sizeof(int) * data_len, cudaMemcpyHostToDevice, stream);
        struct ring_args a = {data, data_len, root, psync};
        void *args[] = {&a};
        dim3 grid = {1, 1, 1}, block = {1, 1, 1};
        nvshmemx_barrier_all_on_stream(stream);
        nvshmemx_collective_launch(ring_bcast, grid, block, args, 0, stream);
        nvshmemx_barrier_all_on_stream(stream);
        cudaMemcpyAsync(data_h, data, sizeof(int) * data_len, cudaMemcpyDeviceToHost, stream);
        cudaStreamSynchronize(stream);
        for (size_t i = 0; i < data_len; i++)
            if (data_h[i] != root * 100000 + (int)i) {
                if (errors++ < 5)
                    fprintf(stderr, "PE %d root %d: data[%zu] = %d, expected %d\n", mype, root, i,
                            data_h[i], root * 100000 + (int)i);
            }
    }
    static long total;
    total = errors;
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &total, &total, 1);
    nvshmem_free(data);
    nvshmem_free(psync);
    free(data_h);
    cudaStreamDestroy(stream);
    nvshmem_finalize();
    if (mype == 0)
        printf("nvshmem ring broadcast: %d PEs: %s\n", npes, total ? "FAILED" : "passed");
    return total != 0;
}
