/* A CANN SHMEM put-with-signal pipeline written with the older shmem_*
 * device names, ported through <shmem/compat/aclshmem.h> with
 * OSHM_CANN_SHMEM_NAMES: each PE streams CHUNKS chunks to the next PE, each
 * chunk's 32-bit signal set to its number; the receiver consumes chunk k as
 * soon as the signal reaches k + 1 (no barrier between chunks), and reports
 * its checksum to PE 0 with a put (shmem_int64_p). The host code of this
 * file calls shmem_barrier_all too: that name routes to the host barrier
 * outside kernels, and (shmem_int64_p) reaches the host routine.
 *
 *   oshcc -o acl_put_signal acl_put_signal.c && oshrun -np 4 ./acl_put_signal
 */
#define OSHM_CANN_SHMEM_NAMES
#include <shmem/compat/aclshmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK 700
#define CHUNKS 12

struct pipe_args {
    float *src, *dst;  /* CHUNKS * CHUNK, symmetric */
    int32_t *sig;      /* symmetric */
    int64_t *sums;     /* n_pes, symmetric (read on PE 0) */
    int32_t base;      /* this round's first signal value - 1 */
};

ACLSHMEM_GLOBAL void pipeline_kernel(void *p)
{
    const struct pipe_args *a = p;
    int me = shmem_my_pe(), n = shmem_n_pes(), next = (me + 1) % n;
    for (int k = 0; k < CHUNKS; k++)
        shmem_put_float_mem_signal_nbi(a->dst + k * CHUNK, a->src + k * CHUNK, CHUNK, a->sig,
                                       a->base + k + 1, ACLSHMEM_SIGNAL_SET, next);
    int64_t sum = 0;
    for (int k = 0; k < CHUNKS; k++) {
        shmem_signal_wait_until(a->sig, ACLSHMEM_CMP_GE, a->base + k + 1);
        for (int i = 0; i < CHUNK; i++)
            sum += (int64_t)a->dst[k * CHUNK + i];
    }
    shmem_quiet();
    shmem_int64_p(&a->sums[me], sum, 0);
    shmem_quiet();
}

int main(int argc, char **argv)
{
    shmem_init();
    if (argc > 1 && !strcmp(argv[1], "host-misuse"))
        shmem_quiet(); /* the device routine, from the host: a clear error */
    int me = shmem_my_pe(), n = shmem_n_pes();
    float *src = aclshmem_malloc(sizeof(float) * CHUNKS * CHUNK);
    float *dst = aclshmem_malloc(sizeof(float) * CHUNKS * CHUNK);
    int32_t *sig = aclshmem_calloc(1, sizeof(int32_t));
    int64_t *sums = aclshmem_calloc((size_t)n, sizeof(int64_t));
    static int64_t bad; /* symmetric: PE 0 puts its verdict everywhere */
    long errors = 0;
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < CHUNKS * CHUNK; i++)
            src[i] = (float)(me * 3 + i % 11 + round);
        shmem_barrier_all(); /* the host barrier: not in a kernel */
        struct pipe_args args = {src, dst, sig, sums, round * CHUNKS};
        shmemx_launch(pipeline_kernel, 1, 1, &args, sizeof args, NULL);
        shmemx_stream_synchronize(NULL);
        shmem_barrier_all();
        if (me == 0) {
            int64_t wrong = 0;
            for (int pe = 0; pe < n; pe++) {
                int64_t expect = 0, from = (pe + n - 1) % n;
                for (int i = 0; i < CHUNKS * CHUNK; i++)
                    expect += from * 3 + i % 11 + round;
                if (sums[pe] != expect) {
                    fprintf(stderr, "round %d: PE %d summed %lld, expected %lld\n", round, pe,
                            (long long)sums[pe], (long long)expect);
                    wrong++;
                }
            }
            for (int pe = 0; pe < n; pe++)
                (shmem_int64_p)(&bad, wrong, pe); /* the host routine */
        }
        shmem_barrier_all();
        errors += bad != 0;
    }
    aclshmem_free(sums);
    aclshmem_free(sig);
    aclshmem_free(dst);
    aclshmem_free(src);
    shmem_finalize();
    if (me == 0)
        printf("aclshmem put-signal pipeline (shmem_* names): %d PEs: %s\n", n, errors ? "FAILED" : "passed");
    return errors != 0;
}
