/* All-gather as a device kernel: every PE's block of N ints ends up, in PE
 * order, in every PE's DST. The kernel's blocks share out the target PEs;
 * the threads of a block move each transfer together.
 *
 *   oshcc -o allgather allgather.c && oshrun -np 4 ./allgather
 */
#include <shmem.h>
#include <shmem/device.h>
#include <shmemx.h>
#include <stdio.h>

#define N 4096

struct allgather_args {
    const int *src;
    int *dst;
    size_t n;
};

static void allgather_kernel(void *p)
{
    const struct allgather_args *a = p;
    int me = shmemd_my_pe(), npes = shmemd_n_pes();
    for (int k = (int)shmemd_block_idx(); k < npes; k += (int)shmemd_block_num()) {
        int pe = (me + k) % npes; /* start with the neighbour: spreads the load */
        shmemd_putmem_nbi_block(a->dst + (size_t)me * a->n, a->src, a->n * sizeof(int), pe);
    }
    /* Completes every block's puts, then meets the other PEs. */
    shmemd_barrier_all();
}

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    int *src = shmemx_device_malloc(N * sizeof(int));
    int *dst = shmemx_device_malloc((size_t)npes * N * sizeof(int));
    for (int i = 0; i < N; i++)
        src[i] = me * 1000003 + i;

    struct allgather_args args = {src, dst, N};
    shmemx_stream_t stream;
    shmemx_stream_create(&stream);
    shmemx_launch(allgather_kernel, 4, 2, &args, sizeof args, stream);
    shmemx_stream_synchronize(stream);

    static long errors; /* symmetric: reduced below */
    errors = 0;
    for (int pe = 0; pe < npes; pe++)
        for (int i = 0; i < N; i++)
            errors += dst[(size_t)pe * N + i] != pe * 1000003 + i;
    if (errors)
        fprintf(stderr, "PE %d: %ld wrong elements\n", me, errors);
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &errors, &errors, 1);
    long total = errors;
    shmemx_stream_destroy(stream);
    shmemx_device_free(dst);
    shmemx_device_free(src);
    shmem_finalize();
    if (me == 0)
        printf("allgather: %d PEs, %d ints each: %s\n", npes, N, total ? "FAILED" : "passed");
    return total != 0;
}
