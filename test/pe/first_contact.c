/*
 * The first operations to each peer, through the default context and
 * through contexts created at once (each a fresh set of network endpoints,
 * still wiring up when the first put leaves), checked against what the
 * specification promises for any put:
 *  - a blocking put returns once its source may be reused: the source is
 *    overwritten at once, and the target must still get what it held;
 *  - shmem_ctx_fence orders the puts of a context to one PE: put the data,
 *    fence, put a flag; a PE that sees the flag must see the data whole;
 *  - sizes on both sides of 8 KiB, and one word, all arrive whole.
 * Every PE does this to every other PE, so every ordered pair of PEs is a
 * first contact once per context.
 * Then PE 0 puts a word to every other PE at once through one more fresh
 * context (several first contacts in flight together, none fenced) and
 * computes, calling nothing, until every PE has acknowledged its word by
 * an atomic add: the puts must reach their targets while their initiator
 * computes (a put held back for its connection included).
 */
#include <shmem.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"

#define NCTX 4 /* the default context and three created ones */
#define MAXLEN 8200
#define COMPUTE_LIMIT_S 60 /* PE 0 gives up on the acknowledgements */

static const size_t sizes[] = {8, 8192, MAXLEN, 96};

static unsigned char pattern(int from, int ctx, size_t i)
{
    return (unsigned char)(from * 31 + ctx * 7 + i * 13 + 1);
}

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    unsigned char *inbox = shmem_calloc((size_t)NCTX * (size_t)n, MAXLEN);
    long *flag = shmem_calloc((size_t)NCTX * (size_t)n, sizeof(long));
    CHECK(inbox && flag, "symmetric allocation failed");
    shmem_ctx_t ctx[NCTX] = {SHMEM_CTX_DEFAULT};
    for (int c = 1; c < NCTX; c++)
        if (shmem_ctx_create(0, &ctx[c]) != 0)
            ctx[c] = SHMEM_CTX_DEFAULT; /* still a put, fence, put */
    shmem_barrier_all();

    unsigned char src[MAXLEN];
    for (int c = 0; c < NCTX; c++)
        for (int i = 1; i < n; i++) {
            int to = (me + i) % n;
            size_t len = sizes[(size_t)(i + c) % (sizeof sizes / sizeof *sizes)];
            for (size_t k = 0; k < len; k++)
                src[k] = pattern(me, c, k);
            unsigned char *at = inbox + ((size_t)c * (size_t)n + (size_t)me) * MAXLEN;
            shmem_ctx_putmem(ctx[c], at, src, len, to);
            memset(src, 0xEE, len); /* the source is free once the put returns */
            shmem_ctx_fence(ctx[c]);
            shmem_ctx_long_p(ctx[c], &flag[c * n + me], c + 1, to);
        }

    int bad = 0;
    for (int c = 0; c < NCTX; c++)
        for (int i = 1; i < n; i++) {
            int from = (me - i + n) % n;
            shmem_long_wait_until(&flag[c * n + from], SHMEM_CMP_EQ, c + 1);
            /* The flag left after a fence: the data is here. */
            size_t len = sizes[(size_t)(i + c) % (sizeof sizes / sizeof *sizes)];
            const unsigned char *got = inbox + ((size_t)c * (size_t)n + (size_t)from) * MAXLEN;
            for (size_t k = 0; k < len; k++)
                if (got[k] != pattern(from, c, k)) {
                    if (bad++ < 5)
                        fprintf(stderr, "PE %d: context %d, from PE %d, byte %zu of %zu: %u, "
                                "expected %u\n", me, c, from, k, len, got[k],
                                pattern(from, c, k));
                    break;
                }
        }
    CHECK(bad == 0, "%d first puts arrived wrong or after their flag", bad);

    /* Several first contacts at once, then computation. */
    long *word = shmem_calloc(1, sizeof(long));
    long *acks = shmem_calloc(1, sizeof(long));
    CHECK(word && acks, "symmetric allocation failed");
    shmem_ctx_t fresh = SHMEM_CTX_DEFAULT;
    if (shmem_ctx_create(0, &fresh) != 0)
        fresh = SHMEM_CTX_DEFAULT;
    shmem_barrier_all();
    if (me == 0) {
        for (int to = 1; to < n; to++)
            shmem_ctx_long_p(fresh, word, 1000 + to, to);
        struct timespec t0, t;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        volatile long *seen = acks;
        do
            clock_gettime(CLOCK_MONOTONIC, &t);
        while (*seen < n - 1 && t.tv_sec - t0.tv_sec < COMPUTE_LIMIT_S);
        CHECK(*seen == n - 1, "%ld of %d PEs saw PE 0's put while it computed for %d s", *seen,
              n - 1, COMPUTE_LIMIT_S);
    } else {
        shmem_long_wait_until(word, SHMEM_CMP_EQ, 1000 + me);
        shmem_long_atomic_add(acks, 1, 0);
    }
    shmem_barrier_all();
    if (fresh != SHMEM_CTX_DEFAULT)
        shmem_ctx_destroy(fresh);
    shmem_free(acks);
    shmem_free(word);
    for (int c = 1; c < NCTX; c++)
        if (ctx[c] != SHMEM_CTX_DEFAULT)
            shmem_ctx_destroy(ctx[c]);
    shmem_free(flag);
    shmem_free(inbox);
    if (me == 0)
        printf("first contact: passed\n");
    shmem_finalize();
    return 0;
}
