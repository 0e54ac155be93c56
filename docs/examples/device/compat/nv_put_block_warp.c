/* NVSHMEM's put-block and thread-group examples, ported through
 * <shmem/compat/nvshmem.h>: every thread sets its elements of send_data,
 * then the threads of each block share one put of the block's slice to the
 * next PE (nvshmemx_float_put_block); a second kernel does the same per
 * warp with non-blocking warp puts (nvshmemx_float_put_nbi_warp) and a
 * quiet, and signals the block's arrival with a warp put-with-signal.
 *
 *   oshcc -o nv_put_block_warp nv_put_block_warp.c && oshrun -np 4 ./nv_put_block_warp
 */
#include <shmem/compat/nvshmem.h>
#include <stdio.h>
#include <stdlib.h>

#define THREADS_PER_BLOCK 64 /* two warps */
#define NUM_BLOCKS 2
#define ELEMS_PER_THREAD 8
#define NUM_ELEMS (NUM_BLOCKS * THREADS_PER_BLOCK * ELEMS_PER_THREAD)

struct shift_args {
    float *send_data, *recv_data;
    uint64_t *arrived; /* one signal word per warp of the launch */
    int num_elems, mype, npes;
    float base;
};

static int min_int(int a, int b) { return a < b ? a : b; }

__global__ void set_and_shift_kernel(void *p)
{
    const struct shift_args *a = p;
    int block_elems = (int)blockDim.x * ELEMS_PER_THREAD;
    int block_offset = (int)blockIdx.x * block_elems;
    for (int k = 0; k < ELEMS_PER_THREAD; k++) {
        int i = block_offset + k * (int)blockDim.x + (int)threadIdx.x;
        if (i < a->num_elems)
            a->send_data[i] = a->base + (float)a->mype;
    }
    __syncthreads(); /* the block's slice is set before any thread puts it */
    int peer = (a->mype + 1) % a->npes;
    /* Every thread of the block calls with the same arguments. */
    nvshmemx_float_put_block(a->recv_data + block_offset, a->send_data + block_offset,
                             (size_t)min_int(block_elems, a->num_elems - block_offset), peer);
}

__global__ void set_and_shift_warp_kernel(void *p)
{
    const struct shift_args *a = p;
    int warp = (int)threadIdx.x / warpSize;
    int warps_per_block = ((int)blockDim.x + warpSize - 1) / warpSize;
    int warp_elems = warpSize * ELEMS_PER_THREAD;
    int warp_offset = ((int)blockIdx.x * warps_per_block + warp) * warp_elems;
    int lane = (int)threadIdx.x % warpSize;
    for (int k = 0; k < ELEMS_PER_THREAD; k++)
        a->send_data[warp_offset + k * warpSize + lane] = a->base + (float)a->mype;
    __syncwarp();
    int peer = (a->mype + 1) % a->npes;
    int half = warp_elems / 2;
    /* Two non-blocking halves, completed by quiet, then the arrival signal
     * of this warp, put with the signal behind its (empty) data. */
    nvshmemx_float_put_nbi_warp(a->recv_data + warp_offset, a->send_data + warp_offset, (size_t)half, peer);
    nvshmemx_float_put_nbi_warp(a->recv_data + warp_offset + half, a->send_data + warp_offset + half,
                                (size_t)(warp_elems - half), peer);
    nvshmem_quiet();
    __syncwarp();
    int gwarp = (int)blockIdx.x * warps_per_block + warp;
    nvshmemx_putmem_signal_warp(a->recv_data, a->send_data, 0, &a->arrived[gwarp], 1,
                                NVSHMEM_SIGNAL_ADD, peer);
}

static long check(const float *host, int num_elems, float expect, int mype, const char *what)
{
    long errors = 0;
    for (int i = 0; i < num_elems; i++)
        if (host[i] != expect && errors++ < 5)
            fprintf(stderr, "PE %d %s: recv[%d] = %g, expected %g\n", mype, what, i, host[i], expect);
    return errors;
}

int main(void)
{
    nvshmem_init();
    int mype = nvshmem_my_pe(), npes = nvshmem_n_pes();
    cudaSetDevice(nvshmem_team_my_pe(NVSHMEMX_TEAM_NODE));
    float *send_data = nvshmem_malloc(sizeof(float) * NUM_ELEMS);
    float *recv_data = nvshmem_malloc(sizeof(float) * NUM_ELEMS);
    int nwarps = NUM_BLOCKS * THREADS_PER_BLOCK / SHMEMD_WARP_SIZE;
    uint64_t *arrived = nvshmem_calloc((size_t)nwarps, sizeof(uint64_t));
    float *host = malloc(sizeof(float) * NUM_ELEMS);
    int ref = (mype - 1 + npes) % npes;
    long errors = 0;
    dim3 grid = {NUM_BLOCKS, 1, 1}, block = {THREADS_PER_BLOCK, 1, 1};

    struct shift_args a = {send_data, recv_data, arrived, NUM_ELEMS, mype, npes, 0.0f};
    void *args[] = {&a};
    cudaLaunchKernel(set_and_shift_kernel, grid, block, args, 0, NULL);
    nvshmemx_barrier_all_on_stream(NULL);
    cudaMemcpy(host, recv_data, sizeof(float) * NUM_ELEMS, cudaMemcpyDeviceToHost);
    errors += check(host, NUM_ELEMS, (float)ref, mype, "put_block");

    shmem_barrier_all(); /* every PE has checked before the next kernel writes recv_data */
    struct shift_args w = {send_data, recv_data, arrived, NUM_ELEMS, mype, npes, 1000.0f};
    args[0] = &w;
    cudaLaunchKernel(set_and_shift_warp_kernel, grid, block, args, 0, NULL);
    /* Each warp's arrival signal says its slice is complete. */
    for (int g = 0; g < nwarps; g++)
        nvshmemx_signal_wait_until_on_stream(&arrived[g], NVSHMEM_CMP_EQ, 1, NULL);
    cudaMemcpy(host, recv_data, sizeof(float) * NUM_ELEMS, cudaMemcpyDeviceToHost);
    errors += check(host, NUM_ELEMS, 1000.0f + (float)ref, mype, "put_nbi_warp");

    static long total;
    total = errors;
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &total, &total, 1);
    free(host);
    nvshmem_free(arrived);
    nvshmem_free(recv_data);
    nvshmem_free(send_data);
    nvshmem_finalize();
    if (mype == 0)
        printf("nvshmem put block/warp: %d PEs: %s\n", npes, total ? "FAILED" : "passed");
    return total != 0;
}
