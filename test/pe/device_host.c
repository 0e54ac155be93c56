/* The device library's host side (docs/device.md, "Host side"): device
 * memory by shmemd_malloc/calloc, shmemd_memcpy to and from any PE's device
 * memory, and host operations in stream order with kernels. Values are
 * checked, and so is the order: each operation must see what the kernel
 * queued before it wrote, and the kernel after it what it moved.
 *   device_host [all|badpe|badcopy]
 * badpe: a put on a stream to a PE outside the job must fail naming
 * shmemd_putmem_on_stream; badcopy: shmemd_memcpy of host memory only must
 * return -1. */
#include <shmem/device.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define N 4096

struct fill_args {
    long *buf;
    long base;
};

/* Every thread fills its share of BUF with base + i. */
static void fill_kernel(void *p)
{
    const struct fill_args *a = p;
    unsigned id = shmemd_block_idx() * shmemd_thread_num() + shmemd_thread_idx();
    unsigned nt = shmemd_block_num() * shmemd_thread_num();
    for (size_t i = id; i < N; i += nt)
        a->buf[i] = a->base + (long)i;
}

struct check_args {
    const long *buf;
    long base;
    int *bad; /* host memory: counts wrong elements */
};

static void check_kernel(void *p)
{
    const struct check_args *a = p;
    if (shmemd_thread_idx() != 0 || shmemd_block_idx() != 0)
        return;
    for (size_t i = 0; i < N; i++)
        if (a->buf[i] != a->base + (long)i)
            (*a->bad)++;
}

static void test_memory(int me, int npes)
{
    long *z = shmemd_calloc(N, sizeof *z);
    long *m = shmemd_malloc(N * sizeof *m);
    CHECK(z && m, "shmemd_calloc/shmemd_malloc returned NULL");
    CHECK((char *)m - (char *)z == (char *)shmem_ptr(m, me) - (char *)shmem_ptr(z, me),
          "device allocations are not at the same distance on every PE");
    for (size_t i = 0; i < N; i++)
        CHECK(z[i] == 0, "shmemd_calloc: element %zu is %ld", i, z[i]);

    /* Host -> this PE's device memory, then everybody reads the next
     * PE's through shmemd_memcpy (device -> host of another PE). */
    long *host = malloc(N * sizeof *host), *back = malloc(N * sizeof *back);
    for (size_t i = 0; i < N; i++)
        host[i] = me * 100000L + (long)i;
    CHECK(shmemd_memcpy(m, host, N * sizeof *m, me) == 0, "shmemd_memcpy to device");
    shmem_barrier_all();
    int next = (me + 1) % npes;
    CHECK(shmemd_memcpy(back, m, N * sizeof *m, next) == 0, "shmemd_memcpy from device");
    for (size_t i = 0; i < N; i++)
        CHECK(back[i] == next * 100000L + (long)i, "memcpy from PE %d: [%zu] = %ld", next, i,
              back[i]);
    /* Host -> the next PE's device memory. */
    shmem_barrier_all();
    CHECK(shmemd_memcpy(z, host, N * sizeof *z, next) == 0, "shmemd_memcpy to PE %d", next);
    shmem_barrier_all();
    int prev = (me + npes - 1) % npes;
    for (size_t i = 0; i < N; i++)
        CHECK(z[i] == prev * 100000L + (long)i, "memcpy to device of PE %d: [%zu] = %ld", me,
              i, z[i]);
    shmem_barrier_all();
    free(host);
    free(back);
    shmemd_free(m);
    shmemd_free(z);
}

/* On one stream: kernel fills SRC; put it to the next PE with a signal;
 * wait for the previous PE's signal; a kernel checks what arrived; the
 * typed and memcpy forms read it back. Nothing in between on the host. */
static void test_stream_order(int me, int npes, shmemx_stream_t s)
{
    long *src = shmemd_malloc(N * sizeof *src);
    long *dst = shmemd_calloc(N, sizeof *dst);
    long *got = shmemd_calloc(N, sizeof *got);
    uint64_t *sig = shmemd_calloc(2, sizeof *sig);
    int *ints = shmemd_calloc(4, sizeof *ints);
    shmemd_half_t *halves = shmemd_calloc(4, sizeof *halves);
    int next = (me + 1) % npes, prev = (me + npes - 1) % npes;
    int bad = 0;
    long *host = calloc(N, sizeof *host);
    CHECK(src && dst && got && sig && ints && halves && host, "allocation failed");

    for (int round = 1; round <= 3; round++) {
        long base = (long)round * 1000000L + me * 10000L;
        struct fill_args f = {.buf = src, .base = base};
        CHECK(shmemx_launch(fill_kernel, 2, 4, &f, sizeof f, s) == 0, "launch");
        if (round % 2)
            shmemd_putmem_signal_on_stream(dst, src, N * sizeof *src, &sig[0], 1,
                                           SHMEM_SIGNAL_ADD, next, s);
        else {
            shmemd_long_put_on_stream(dst, src, N, next, s);
            shmemd_signal_op_on_stream(&sig[0], (uint64_t)round, SHMEM_SIGNAL_SET, next, s);
        }
        shmemd_signal_wait_until_on_stream(&sig[0], SHMEM_CMP_GE, (uint64_t)round, s);
        long pbase = (long)round * 1000000L + prev * 10000L;
        struct check_args c = {.buf = dst, .base = pbase, .bad = &bad};
        CHECK(shmemx_launch(check_kernel, 1, 1, &c, sizeof c, s) == 0, "launch");
        /* Read the previous PE's source back into device memory of mine. */
        shmemd_long_get_on_stream(got, src, N, prev, s);
        CHECK(shmemd_memcpy_async(host, got, N * sizeof *got, me, s) == 0, "memcpy_async");
        shmemd_quiet_on_stream(s);
        /* Before the next round overwrites SRC, every PE has read it. */
        shmemd_barrier_all_on_stream(s);
        shmemx_stream_synchronize(s);
        CHECK(bad == 0, "round %d: the kernel after the signal saw %d wrong elements", round,
              bad);
        for (size_t i = 0; i < N; i++)
            CHECK(host[i] == pbase + (long)i, "round %d: get_on_stream [%zu] = %ld, want %ld",
                  round, i, host[i], pbase + (long)i);
    }

    /* Typed forms, including a 16-bit float, and the team barrier. */
    int iv[4] = {me + 1, me + 2, me + 3, me + 4};
    shmemd_half_t hv[4];
    for (int i = 0; i < 4; i++)
        hv[i] = shmemd_float_to_half((float)(me + i) + 0.5f);
    shmemd_int_put_on_stream(ints, iv, 4, next, s);
    shmemd_half_put_on_stream(halves, hv, 4, next, s);
    shmemd_team_barrier_on_stream(SHMEM_TEAM_WORLD, s);
    int ir[4] = {0};
    shmemd_half_t hr[4];
    memset(hr, 0, sizeof hr);
    shmemd_int_get_on_stream(ir, ints, 4, me, s);
    shmemd_half_get_on_stream(hr, halves, 4, me, s);
    shmemx_stream_synchronize(s);
    for (int i = 0; i < 4; i++) {
        CHECK(ir[i] == prev + 1 + i, "int_put/get_on_stream [%d] = %d", i, ir[i]);
        float f = shmemd_half_to_float(hr[i]);
        CHECK(f == (float)(prev + i) + 0.5f, "half_put/get_on_stream [%d] = %g", i, (double)f);
    }
    shmem_barrier_all();
    free(host);
    shmemd_free(halves);
    shmemd_free(ints);
    shmemd_free(sig);
    shmemd_free(got);
    shmemd_free(dst);
    shmemd_free(src);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "all";
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    if (strcmp(mode, "badpe") == 0) {
        long *d = shmemd_malloc(64);
        long v = 1;
        shmemd_putmem_on_stream(d, &v, sizeof v, npes, NULL);
        shmemx_stream_synchronize(NULL);
        printf("PE %d: a put to PE %d was accepted\n", me, npes);
        shmem_finalize();
        return 1;
    }
    if (strcmp(mode, "badcopy") == 0) {
        char a[8] = "abc", b[8];
        CHECK(shmemd_memcpy(b, a, sizeof a, me) == -1, "memcpy of host memory accepted");
        long *d = shmemd_malloc(64);
        CHECK(shmemd_memcpy(d, a, sizeof a, npes) == -1, "memcpy to PE %d accepted", npes);
        shmemd_free(d);
        shmem_finalize();
        if (me == 0)
            printf("bad copies refused\n");
        return 0;
    }
    test_memory(me, npes);
    shmemx_stream_t s;
    CHECK(shmemx_stream_create(&s) == 0, "stream_create");
    test_stream_order(me, npes, s);
    /* The default stream too. */
    test_stream_order(me, npes, NULL);
    shmemx_stream_destroy(s);
    shmem_finalize();
    if (me == 0)
        printf("device_host: passed\n");
    return 0;
}
