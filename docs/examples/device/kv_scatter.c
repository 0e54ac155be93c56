/* KV-cache transfer as in disaggregated LLM serving: the prefill PE (0)
 * holds K blocks of a KV cache and scatters them to the decode PEs, block k
 * to PE 1 + k % (npes - 1) (to itself when alone), each with a signal of its
 * own that carries k + 1. A decode PE's kernel starts on a block as soon as
 * that block's signal arrives, whatever the order of the others.
 *
 *   oshcc -o kv_scatter kv_scatter.c && oshrun -np 4 ./kv_scatter
 */
#include <shmem.h>
#include <shmem/device.h>
#include <shmemx.h>
#include <stdio.h>

#define KV_BLOCKS 48
#define KV_BLOCK_FLOATS 2048

struct kv_args {
    const float *kv;     /* prefill: KV_BLOCKS blocks */
    float *cache;        /* decode: its blocks, in arrival slots */
    uint64_t *sig;       /* one per block, on the decode PE that gets it */
    long *bad;           /* decode: wrong elements seen, per kernel block */
};

static int owner_of(int k, int npes) { return npes > 1 ? 1 + k % (npes - 1) : 0; }
static int slot_of(int k, int npes) { return npes > 1 ? k / (npes - 1) : k; }

static void kv_send_kernel(void *p)
{
    const struct kv_args *a = p;
    int npes = shmemd_n_pes();
    for (int k = (int)shmemd_block_idx(); k < KV_BLOCKS; k += (int)shmemd_block_num())
        shmemd_putmem_signal_nbi(a->cache + (size_t)slot_of(k, npes) * KV_BLOCK_FLOATS,
                                 a->kv + (size_t)k * KV_BLOCK_FLOATS,
                                 KV_BLOCK_FLOATS * sizeof(float), &a->sig[k], (uint64_t)k + 1,
                                 SHMEM_SIGNAL_SET, owner_of(k, npes));
    shmemd_quiet();
}

static void kv_receive_kernel(void *p)
{
    const struct kv_args *a = p;
    int me = shmemd_my_pe(), npes = shmemd_n_pes();
    unsigned b = shmemd_block_idx();
    long bad = 0;
    for (int k = (int)b; k < KV_BLOCKS; k += (int)shmemd_block_num()) {
        if (owner_of(k, npes) != me)
            continue;
        shmemd_signal_wait_until(&a->sig[k], SHMEM_CMP_EQ, (uint64_t)k + 1);
        const float *blk = a->cache + (size_t)slot_of(k, npes) * KV_BLOCK_FLOATS;
        for (int i = 0; i < KV_BLOCK_FLOATS; i++)
            bad += blk[i] != (float)(k * KV_BLOCK_FLOATS + i);
    }
    a->bad[b] = bad;
}

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    const unsigned blocks = 4;
    float *kv = shmemx_device_malloc((size_t)KV_BLOCKS * KV_BLOCK_FLOATS * sizeof(float));
    float *cache = shmemx_device_malloc((size_t)KV_BLOCKS * KV_BLOCK_FLOATS * sizeof(float));
    uint64_t *sig = shmemx_device_calloc(KV_BLOCKS, sizeof(uint64_t));
    long *bad = shmemx_device_calloc(blocks, sizeof(long));
    if (me == 0)
        for (size_t i = 0; i < (size_t)KV_BLOCKS * KV_BLOCK_FLOATS; i++)
            kv[i] = (float)i;
    shmem_barrier_all();

    struct kv_args args = {kv, cache, sig, bad};
    shmemx_stream_t recv_stream;
    shmemx_stream_create(&recv_stream);
    /* Receivers first: they wait on signals while the sender runs. */
    shmemx_launch(kv_receive_kernel, blocks, 1, &args, sizeof args, recv_stream);
    if (me == 0)
        shmemx_launch(kv_send_kernel, blocks, 1, &args, sizeof args, NULL);
    shmemx_device_synchronize();

    static long errors, mine; /* symmetric: reduced below */
    errors = mine = 0;
    for (unsigned b = 0; b < blocks; b++)
        errors += bad[b];
    for (int k = 0; k < KV_BLOCKS; k++)
        mine += owner_of(k, npes) == me;
    if (errors)
        fprintf(stderr, "PE %d: %ld wrong KV elements\n", me, errors);
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &errors, &errors, 1);
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &mine, &mine, 1);
    shmemx_stream_destroy(recv_stream);
    shmemx_device_free(bad);
    shmemx_device_free(sig);
    shmemx_device_free(cache);
    shmemx_device_free(kv);
    shmem_finalize();
    if (me == 0)
        printf("kv scatter: %d blocks to %d decode PE(s), %ld received: %s\n", KV_BLOCKS,
               npes > 1 ? npes - 1 : 1, mine, errors || mine != KV_BLOCKS ? "FAILED" : "passed");
    return errors != 0 || mine != KV_BLOCKS;
}
