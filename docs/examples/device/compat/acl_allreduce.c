/* CANN SHMEM's all-reduce kernel, ported through <shmem/compat/aclshmem.h>,
 * on half (fp16) data: each block owns a slice of the vector. It puts its
 * slice to slot [my_pe] of every PE's symmetric gather buffer, fences, and
 * adds 1 to that PE's 32-bit arrival counter for the block; once its own
 * counter shows every PE, it pulls the n slots into the unified buffer
 * (gm2ub), sums them there in float, and writes the result out (ub2gm).
 *
 *   oshcc -o acl_allreduce acl_allreduce.c && oshrun -np 4 ./acl_allreduce
 */
#include <shmem/compat/aclshmem.h>
#include <stdio.h>
#include <stdlib.h>

#define LEN 3000   /* halves per PE */
#define BLOCKS 3
#define COUNTER_INTERVAL 16

struct allreduce_args {
    half *input;      /* LEN, symmetric */
    half *gather;     /* n_pes * LEN, symmetric */
    half *output;     /* LEN, symmetric */
    int32_t *counter; /* BLOCKS * COUNTER_INTERVAL, symmetric */
    int32_t expect;   /* counter value once this round's pieces are in */
};

ACLSHMEM_GLOBAL void all_reduce_kernel(void *p)
{
    const struct allreduce_args *a = p;
    int64_t block = GetBlockIdx(), nblocks = GetBlockNum();
    int me = aclshmem_my_pe(), n = aclshmem_n_pes();
    int64_t per = LEN / nblocks, off = per * block, len = block == nblocks - 1 ? LEN - off : per;
    int32_t *counter = a->counter + block * COUNTER_INTERVAL;

    for (int k = 0; k < n; k++) {
        int pe = (me + k) % n;
        aclshmem_half_put_nbi(a->gather + me * LEN + off, a->input + off, (uint32_t)len, pe);
        aclshmem_fence(); /* the data before the count */
        aclshmemx_signal_op(counter, 1, ACLSHMEM_SIGNAL_ADD, pe);
    }
    aclshmem_signal_wait_until(counter, ACLSHMEM_CMP_GE, a->expect);

    half *slot = shmemd_ub_base();           /* one PE's slice */
    half *acc = slot + len;                  /* the running sum */
    for (int pe = 0; pe < n; pe++) {
        aclshmem_half_get_nbi(slot, a->gather + pe * LEN + off, (uint32_t)len, me);
        aclshmem_quiet();
        for (int64_t i = 0; i < len; i++)
            acc[i] = shmemd_float_to_half((pe ? shmemd_half_to_float(acc[i]) : 0.0f) +
                                          shmemd_half_to_float(slot[i]));
    }
    aclshmem_half_put_nbi(a->output + off, acc, (uint32_t)len, me);
    aclshmem_quiet();
}

int main(void)
{
    aclInit(NULL);
    shmem_init();
    int me = aclshmem_my_pe(), n = aclshmem_n_pes();
    aclrtSetDevice(me);
    aclrtStream stream;
    aclrtCreateStream(&stream);
    half *input = aclshmem_malloc(sizeof(half) * LEN);
    half *gather = aclshmem_malloc(sizeof(half) * (size_t)n * LEN);
    half *output = aclshmem_malloc(sizeof(half) * LEN);
    int32_t *counter = aclshmem_calloc(BLOCKS * COUNTER_INTERVAL, sizeof(int32_t));
    half host[LEN];
    long errors = 0;
    for (int round = 0; round < 3; round++) {
        /* Small integers: their half sums are exact. */
        for (int i = 0; i < LEN; i++)
            host[i] = shmemd_float_to_half((float)((me + 1) * (i % 5 + 1) + round));
        aclrtMemcpy(input, sizeof host, host, sizeof host, ACL_MEMCPY_HOST_TO_DEVICE);
        aclshmem_barrier_all(); /* every PE read last round's gather */
        struct allreduce_args args = {input, gather, output, counter, (round + 1) * n};
        shmemx_launch(all_reduce_kernel, BLOCKS, 1, &args, sizeof args, stream);
        aclrtSynchronizeStream(stream);
        aclrtMemcpy(host, sizeof host, output, sizeof host, ACL_MEMCPY_DEVICE_TO_HOST);
        for (int i = 0; i < LEN; i++) {
            float expect = (float)(n * (n + 1) / 2 * (i % 5 + 1) + n * round);
            if (shmemd_half_to_float(host[i]) != expect && errors++ < 5)
                fprintf(stderr, "PE %d round %d: output[%d] = %g, expected %g\n", me, round, i,
                        shmemd_half_to_float(host[i]), expect);
        }
    }
    static long total;
    total = errors;
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &total, &total, 1);
    aclshmem_free(counter);
    aclshmem_free(output);
    aclshmem_free(gather);
    aclshmem_free(input);
    aclrtDestroyStream(stream);
    aclshmem_finalize();
    aclFinalize();
    if (me == 0)
        printf("aclshmem all-reduce (half): %d PEs: %s\n", n, total ? "FAILED" : "passed");
    return total != 0;
}
