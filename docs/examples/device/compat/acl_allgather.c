/* CANN SHMEM's all-gather kernel, ported through <shmem/compat/aclshmem.h>:
 * the blocks split in two groups. The first copies this PE's input into its
 * symmetric staging buffer in unified-buffer-sized pieces with the MTE
 * engine (aclshmemx_mte_put_nbi) and publishes a 32-bit flag per piece
 * (aclshmemx_signal_op); the second polls each PE's flag
 * (aclshmem_int32_atomic_fetch: a plain get would race with the atomic
 * set), pulls the pieces into its unified buffer
 * (aclshmem_float_get_nbi: gm2ub) and writes them out (put_nbi: ub2gm).
 * A launch-unique magic keeps the flags from needing a reset.
 *
 *   oshcc -o acl_allgather acl_allgather.c && oshrun -np 4 ./acl_allgather
 */
#include <shmem/compat/aclshmem.h>
#include <stdio.h>
#include <stdlib.h>

#define LEN 5000          /* floats per PE */
#define GROUP 2           /* blocks per group: 2 * GROUP blocks */
#define UB_PIECE 1024     /* floats per staged piece (4 KiB of the UB) */
#define FLAG_INTERVAL 16  /* int32 words between two blocks' flags */

struct allgather_args {
    float *input;   /* LEN, local */
    float *output;  /* n_pes * LEN, symmetric */
    float *gva;     /* LEN, symmetric staging */
    int32_t *flags; /* GROUP * FLAG_INTERVAL, symmetric */
    int32_t magic;
};

static int64_t share_of(int64_t len, int64_t parts, int64_t idx, int64_t *off)
{
    int64_t per = len / parts;
    *off = per * idx;
    return idx == parts - 1 ? len - per * idx : per;
}

ACLSHMEM_GLOBAL void all_gather_kernel(void *p)
{
    const struct allgather_args *a = p;
    int64_t block = GetBlockIdx(), my_rank = aclshmem_my_pe(), pe_size = aclshmem_n_pes();
    float *ub = (float *)shmemd_ub_base();

    if (block < GROUP) { /* input -> own symmetric staging, piece by piece */
        int64_t off, len = share_of(LEN, GROUP, block, &off);
        int32_t times = 0;
        for (int64_t done = 0; done < len; done += UB_PIECE) {
            int64_t n = len - done < UB_PIECE ? len - done : UB_PIECE;
            aclshmemx_mte_put_nbi(a->gva + off + done, a->input + off + done, ub,
                                  UB_PIECE * sizeof(float), n, my_rank, 0);
            aclshmemx_mte_quiet(); /* the piece is in place before its flag */
            times++;
            aclshmemx_signal_op(a->flags + block * FLAG_INTERVAL, times + a->magic,
                                ACLSHMEM_SIGNAL_SET, my_rank);
        }
        return;
    }
    /* Remote staging -> UB -> output, each PE's pieces of this share. */
    int64_t g = block - GROUP, off, len = share_of(LEN, GROUP, g, &off);
    for (int64_t k = 0; k < pe_size; k++) {
        int pe = (int)((my_rank + k) % pe_size);
        int32_t times = 0;
        for (int64_t done = 0; done < len; done += UB_PIECE) {
            int64_t n = len - done < UB_PIECE ? len - done : UB_PIECE;
            times++;
            while (aclshmem_int32_atomic_fetch(a->flags + g * FLAG_INTERVAL, pe) - a->magic < times)
                ;
            aclshmem_float_get_nbi(ub, a->gva + off + done, (uint32_t)n, pe);
            aclshmem_quiet();
            aclshmem_float_put_nbi(a->output + pe * LEN + off + done, ub, (uint32_t)n, (int32_t)my_rank);
            aclshmem_quiet(); /* the UB is reused by the next piece */
        }
    }
}

int main(void)
{
    aclInit(NULL);
    shmem_init();
    int me = aclshmem_my_pe(), n = aclshmem_n_pes();
    aclrtSetDevice(me);
    aclrtStream stream;
    aclrtCreateStream(&stream);
    float *output = aclshmem_malloc(sizeof(float) * (size_t)n * LEN);
    float *gva = aclshmem_malloc(sizeof(float) * LEN);
    int32_t *flags = aclshmem_calloc(GROUP * FLAG_INTERVAL, sizeof(int32_t));
    float *input = malloc(sizeof(float) * LEN);
    float *host = malloc(sizeof(float) * (size_t)n * LEN);
    long errors = 0;
    for (int32_t round = 0; round < 3; round++) {
        for (int i = 0; i < LEN; i++)
            input[i] = (float)(me * 10000 + i + round);
        aclshmem_barrier_all(); /* every PE read its output: gva may change */
        struct allgather_args args = {input, output, gva, flags, round * 1000};
        shmemx_launch(all_gather_kernel, 2 * GROUP, 1, &args, sizeof args, stream);
        aclrtSynchronizeStream(stream);
        aclrtMemcpy(host, sizeof(float) * (size_t)n * LEN, output, sizeof(float) * (size_t)n * LEN,
                    ACL_MEMCPY_DEVICE_TO_HOST);
        for (int pe = 0; pe < n; pe++)
            for (int i = 0; i < LEN; i++)
                if (host[pe * LEN + i] != (float)(pe * 10000 + i + round) && errors++ < 5)
                    fprintf(stderr, "PE %d round %d: output[%d][%d] = %g\n", me, round, pe, i,
                            host[pe * LEN + i]);
    }
    static long total;
    total = errors;
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &total, &total, 1);
    free(host);
    free(input);
    aclshmem_free(flags);
    aclshmem_free(gva);
    aclshmem_free(output);
    aclrtDestroyStream(stream);
    aclshmem_finalize();
    aclFinalize();
    if (me == 0)
        printf("aclshmem all-gather: %d PEs: %s\n", n, total ? "FAILED" : "passed");
    return total != 0;
}
