/* NVSHMEM's on-stream example, ported through <shmem/compat/nvshmem.h>:
 * a kernel sums this PE's input into a partial sum, an all-reduce of the
 * partial sums runs in stream order (nvshmemx_int_sum_reduce_on_stream),
 * and a second kernel corrects the input when the global sum passes a
 * threshold and sums again; a broadcast, a sync and a token passed around
 * the ring follow in the same stream; the host never waits between them.
 *
 *   oshcc -o nv_on_stream nv_on_stream.c && oshrun -np 4 ./nv_on_stream
 */
#include <shmem/compat/nvshmem.h>
#include <stdio.h>
#include <stdlib.h>

#define THRESHOLD 42
#define CORRECTION 7
#define INPUT_NELEMS 48 /* threads of the one block */

struct acc_args {
    int *input, *partial_sum, *full_sum;
};

__global__ void accumulate(void *p)
{
    const struct acc_args *a = p;
    int index = threadIdx.x;
    if (0 == index)
        *a->partial_sum = 0;
    __syncthreads();
    atomicAdd(a->partial_sum, a->input[index]);
}

__global__ void correct_accumulate(void *p)
{
    const struct acc_args *a = p;
    int index = threadIdx.x;
    if (*a->full_sum > THRESHOLD)
        a->input[index] = a->input[index] - CORRECTION;
    if (0 == index)
        *a->partial_sum = 0;
    __syncthreads();
    atomicAdd(a->partial_sum, a->input[index]);
}

int main(void)
{
    cudaStream_t stream;
    nvshmem_init();
    int mype = nvshmem_my_pe(), npes = nvshmem_n_pes();
    cudaSetDevice(nvshmem_team_my_pe(NVSHMEMX_TEAM_NODE));
    cudaStreamCreate(&stream);

    int *input = nvshmem_malloc(sizeof(int) * INPUT_NELEMS);
    int *partial_sum = nvshmem_malloc(sizeof(int));
    int *full_sum = nvshmem_malloc(sizeof(int));
    int *copy = nvshmem_malloc(sizeof(int));   /* root's full sum, broadcast */
    int *token = nvshmem_calloc(1, sizeof(int)); /* set by the previous PE */
    int input_h[INPUT_NELEMS];
    for (int i = 0; i < INPUT_NELEMS; i++)
        input_h[i] = (i + mype) % 3; /* PE's sum: about INPUT_NELEMS */
    cudaMemcpyAsync(input, input_h, sizeof input_h, cudaMemcpyHostToDevice, stream);

    struct acc_args a = {input, partial_sum, full_sum};
    void *args[] = {&a};
    dim3 grid = {1, 1, 1}, block = {INPUT_NELEMS, 1, 1};
    cudaLaunchKernel(accumulate, grid, block, args, 0, stream);
    nvshmemx_int_sum_reduce_on_stream(NVSHMEM_TEAM_WORLD, full_sum, partial_sum, 1, stream);
    cudaLaunchKernel(correct_accumulate, grid, block, args, 0, stream);
    nvshmemx_int_sum_reduce_on_stream(NVSHMEM_TEAM_WORLD, full_sum, partial_sum, 1, stream);

    /* More stream-ordered collectives and point-to-point: PE 0's sum to
     * everyone, then a token around the ring, all without the host. */
    nvshmemx_int_broadcast_on_stream(NVSHMEM_TEAM_WORLD, copy, full_sum, 1, 0, stream);
    nvshmemx_sync_all_on_stream(stream);
    nvshmemx_int_p_on_stream(token, mype + 1, (mype + 1) % npes, stream);
    nvshmemx_int_wait_until_on_stream(token, NVSHMEM_CMP_EQ, (mype + npes - 1) % npes + 1, stream);

    int result = 0, copied = 0;
    cudaMemcpyAsync(&result, full_sum, sizeof result, cudaMemcpyDeviceToHost, stream);
    cudaMemcpyAsync(&copied, copy, sizeof copied, cudaMemcpyDeviceToHost, stream);
    cudaStreamSynchronize(stream);

    /* The same computation on the host. */
    long first = 0, second = 0;
    for (int pe = 0; pe < npes; pe++)
        for (int i = 0; i < INPUT_NELEMS; i++)
            first += (i + pe) % 3;
    for (int pe = 0; pe < npes; pe++)
        for (int i = 0; i < INPUT_NELEMS; i++)
            second += (i + pe) % 3 - (first > THRESHOLD ? CORRECTION : 0);
    static long errors;
    errors = result != second || copied != second;
    if (errors)
        fprintf(stderr, "PE %d: full sum %d, broadcast %d, expected %ld\n", mype, result, copied,
                second);
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &errors, &errors, 1);
    nvshmem_free(token);
    nvshmem_free(copy);
    nvshmem_free(full_sum);
    nvshmem_free(partial_sum);
    nvshmem_free(input);
    cudaStreamDestroy(stream);
    nvshmem_finalize();
    if (mype == 0)
        printf("nvshmem on-stream all-reduce: %d PEs: %s\n", npes, errors ? "FAILED" : "passed");
    return errors != 0;
}
