/*
 * Raw UCP between two processes: the figures rma_bench gives for the
 * library over UCX, measured with nothing but UCP, so that bench/ucx_compare
 * can show what the library adds on top of UCX on the same machine and
 * transport. OpenSHMEM only starts the two processes and hands PE 1's worker
 * address and memory key to PE 0; the timed loops call UCP alone.
 *
 *   put latency   ucp_put_nbx + ucp_worker_flush_nbx completed, per put
 *                 (and the same with ucp_ep_flush_nbx)
 *   get latency   ucp_get_nbx completed
 *   message rate  puts back to back, one ucp_worker_flush_nbx at the end
 *
 *   UCX_TLS=tcp oshrun -np 2 ucx_raw [max_bytes | size,size,...]
 *
 * UCX reads its configuration (UCX_TLS, ...) from the environment.
 */
#include <shmem.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucp/api/ucp.h>

#include "bench_util.h"

#define DEFAULT_MAX (64u << 10)
#define LIMIT (4u << 20)
#define WINDOW 16
#define RATE_MAX 4096
#define ADDR_MAX 8192
#define RKEY_MAX 2048

/* What PE 1 publishes in its symmetric memory for PE 0 to fetch. */
struct card {
    uint64_t base; /* the target buffer, as PE 1 addresses it */
    uint32_t addr_len, rkey_len;
    unsigned char addr[ADDR_MAX];
    unsigned char rkey[RKEY_MAX];
};

static ucp_worker_h worker;
static ucp_ep_h ep;
static ucp_rkey_h rkey;
static uint64_t remote_base;
static char *local;
/* PE 0 sets it on PE 1 once it needs nothing more from PE 1's worker. */
static uint64_t finished;

static _Noreturn void failed(const char *what, ucs_status_t st)
{
    fprintf(stderr, "ucx_raw: %s: %s\n", what, ucs_status_string(st));
    shmem_global_exit(1);
    exit(1);
}

/* The same counts as rma_bench, so that each figure averages as many
 * operations as the library's. */
static int iterations(size_t size)
{
    if (size <= 4096)
        return 20000;
    if (size <= 65536)
        return 2000;
    return size <= (1u << 20) ? 200 : 50;
}

/* Busy-polls: the fastest way to learn of completion, and what a raw UCP
 * program would do. */
static void wait_req(void *req, const char *what)
{
    if (req == NULL)
        return;
    if (UCS_PTR_IS_ERR(req))
        failed(what, UCS_PTR_STATUS(req));
    ucs_status_t st;
    while ((st = ucp_request_check_status(req)) == UCS_INPROGRESS)
        ucp_worker_progress(worker);
    ucp_request_free(req);
    if (st != UCS_OK)
        failed(what, st);
}

/* The next flush completes it, as with the library's non-blocking put. */
static void release_req(void *req, const char *what)
{
    if (UCS_PTR_IS_ERR(req))
        failed(what, UCS_PTR_STATUS(req));
    if (req != NULL)
        ucp_request_free(req);
}

static void worker_flush(void)
{
    ucp_request_param_t prm = {0};
    wait_req(ucp_worker_flush_nbx(worker, &prm), "worker flush");
}

enum test { PUT_WORKER_FLUSH, PUT_EP_FLUSH, GET, RATE };

/* N operations of TEST; for RATE, N puts and one flush. */
static void run(enum test t, size_t size, int n)
{
    ucp_request_param_t prm = {0};
    for (int i = 0; i < n; i++) {
        switch (t) {
        case PUT_WORKER_FLUSH:
            release_req(ucp_put_nbx(ep, local, size, remote_base, rkey, &prm), "put");
            worker_flush();
            break;
        case PUT_EP_FLUSH:
            release_req(ucp_put_nbx(ep, local, size, remote_base, rkey, &prm), "put");
            wait_req(ucp_ep_flush_nbx(ep, &prm), "ep flush");
            break;
        case GET:
            wait_req(ucp_get_nbx(ep, local, size, remote_base, rkey, &prm), "get");
            break;
        case RATE:
            release_req(ucp_put_nbx(ep, local, size, remote_base + (uint64_t)(i % WINDOW) * size,
                                    rkey, &prm),
                        "put");
            break;
        }
    }
    if (t == RATE)
        worker_flush();
}

/* OSU style: a tenth of the iterations as warm-up (connection set-up, first
 * touches), then the best of three timed runs, as rma_bench times. Returns
 * us per operation, or messages/s for RATE. */
static double measure(enum test t, size_t size)
{
    int n = t == RATE ? (size <= RATE_MAX ? 100000 : iterations(size)) : iterations(size);
    run(t, size, n / 10);
    double us;
    BENCH_BEST_OF_3(us, run(t, size, n));
    return t == RATE ? n / us * 1e6 : us / n;
}

static void report(const size_t *sizes, size_t nsizes)
{
    char impl[128];
    snprintf(impl, sizeof impl, "raw UCP (UCX %s, UCX_TLS=%s)", ucp_get_version_string(),
             getenv("UCX_TLS") ? getenv("UCX_TLS") : "all");
    static const struct {
        const char *title, *columns;
        enum test test;
    } tests[] = {
        /* The library's titles: bench/ucx_compare matches rows by them. */
        {"Put Latency Test [heap]", "Size          Latency (us)", PUT_WORKER_FLUSH},
        {"Put Latency Test [ep flush]", "Size          Latency (us)", PUT_EP_FLUSH},
        {"Get Latency Test [heap]", "Size          Latency (us)", GET},
        {"Put Message Rate Test [heap]", "Size          Messages/s", RATE},
    };
    for (size_t t = 0; t < sizeof tests / sizeof tests[0]; t++) {
        bench_section_as(tests[t].title, impl, tests[t].columns);
        for (size_t i = 0; i < nsizes; i++) {
            double v = measure(tests[t].test, sizes[i]);
            if (tests[t].test == RATE)
                printf("%-12zu %14.0f\n", sizes[i], v);
            else
                printf("%-12zu %14.3f\n", sizes[i], v);
        }
        fflush(stdout);
    }
}

int main(int argc, char **argv)
{
    if (!bench_init_pair("ucx_raw", 1))
        return 1;
    int me = shmem_my_pe();
    size_t sizes[BENCH_MAX_SIZES];
    size_t nsizes = bench_sizes(argc > 1 ? argv[1] : NULL, DEFAULT_MAX, LIMIT, sizes);
    size_t max = bench_max_size(sizes, nsizes);

    ucp_config_t *config;
    ucs_status_t st = ucp_config_read(NULL, NULL, &config);
    if (st != UCS_OK)
        failed("ucp_config_read", st);
    ucp_params_t params = {.field_mask = UCP_PARAM_FIELD_FEATURES,
                           .features = UCP_FEATURE_RMA | UCP_FEATURE_AMO64};
    ucp_context_h context;
    st = ucp_init(&params, config, &context);
    ucp_config_release(config);
    if (st != UCS_OK)
        failed("ucp_init", st);
    /* Single-threaded, as the library creates its worker. */
    ucp_worker_params_t wp = {.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE,
                              .thread_mode = UCS_THREAD_MODE_SINGLE};
    st = ucp_worker_create(context, &wp, &worker);
    if (st != UCS_OK)
        failed("ucp_worker_create", st);

    /* PE 1's target: the rate test's window, then the word that ends the
     * run. PE 0's source and destination stay unregistered, like
     * rma_bench's malloc'd buffer. */
    size_t span = max * WINDOW + sizeof(uint64_t);
    char *target = aligned_alloc(64, (span + 63) / 64 * 64);
    local = malloc(max);
    if (!target || !local) {
        fprintf(stderr, "ucx_raw: out of memory\n");
        shmem_global_exit(1);
    }
    memset(target, 1, span);
    memset(local, 2, max);
    _Atomic uint64_t *done = (_Atomic uint64_t *)(target + max * WINDOW);
    atomic_store(done, 0);

    struct card *card = shmem_malloc(sizeof *card);
    ucp_mem_h memh = NULL;
    void *packed = NULL;
    if (me == 1) {
        ucp_mem_map_params_t mp = {.field_mask = UCP_MEM_MAP_PARAM_FIELD_ADDRESS |
                                                 UCP_MEM_MAP_PARAM_FIELD_LENGTH,
                                   .address = target,
                                   .length = span};
        st = ucp_mem_map(context, &mp, &memh);
        if (st != UCS_OK)
            failed("ucp_mem_map", st);
        size_t rkey_len, addr_len;
        st = ucp_rkey_pack(context, memh, &packed, &rkey_len);
        if (st != UCS_OK)
            failed("ucp_rkey_pack", st);
        ucp_address_t *addr;
        st = ucp_worker_get_address(worker, &addr, &addr_len);
        if (st != UCS_OK)
            failed("ucp_worker_get_address", st);
        if (addr_len > ADDR_MAX || rkey_len > RKEY_MAX) {
            fprintf(stderr, "ucx_raw: worker address (%zu) or rkey (%zu) too long\n", addr_len,
                    rkey_len);
            shmem_global_exit(1);
        }
        card->base = (uintptr_t)target;
        card->addr_len = (uint32_t)addr_len;
        card->rkey_len = (uint32_t)rkey_len;
        memcpy(card->addr, addr, addr_len);
        memcpy(card->rkey, packed, rkey_len);
        ucp_worker_release_address(worker, addr);
    }
    shmem_barrier_all();
    if (me == 0) {
        struct card c;
        shmem_getmem(&c, card, sizeof c, 1);
        remote_base = c.base;
        ucp_ep_params_t ep_prm = {.field_mask = UCP_EP_PARAM_FIELD_REMOTE_ADDRESS,
                                  .address = (const ucp_address_t *)c.addr};
        st = ucp_ep_create(worker, &ep_prm, &ep);
        if (st != UCS_OK)
            failed("ucp_ep_create", st);
        st = ucp_ep_rkey_unpack(ep, c.rkey, &rkey);
        if (st != UCS_OK)
            failed("ucp_ep_rkey_unpack", st);
    }
    /* PE 1 stays in the library until PE 0 has its card: over UCX the
     * library's own get needs PE 1 to progress the library. */
    shmem_barrier_all();

    if (me == 0) {
        report(sizes, nsizes);
        static const uint64_t one = 1;
        ucp_request_param_t prm = {0};
        release_req(ucp_put_nbx(ep, &one, sizeof one, remote_base + max * WINDOW, rkey, &prm),
                    "put");
        worker_flush();
        ucp_rkey_destroy(rkey);
        /* A flush-mode close: UCX 1.13 refuses a forced one unless the
         * endpoint was made with peer error handling. Nothing is in flight,
         * so it needs nothing more from PE 1. */
        wait_req(ucp_ep_close_nbx(ep, &prm), "ep close");
        shmem_uint64_atomic_set(&finished, 1, 1);
        shmem_quiet();
    } else {
        /* tcp carries RMA out in software at the target: serve PE 0's
         * operations until it says it is done. Only a load in the loop, so
         * that the library costs nothing while PE 0 measures. */
        while (atomic_load_explicit(done, memory_order_acquire) == 0)
            ucp_worker_progress(worker);
        /* The acknowledgement of that last put, and the close, still need
         * this worker; shmem_test lets the library progress as well. */
        while (!shmem_uint64_test(&finished, SHMEM_CMP_EQ, 1))
            ucp_worker_progress(worker);
    }
    shmem_barrier_all();

    if (me == 1) {
        ucp_rkey_buffer_release(packed);
        ucp_mem_unmap(context, memh);
    }
    ucp_worker_destroy(worker);
    ucp_cleanup(context);
    shmem_free(card);
    free(target);
    free(local);
    shmem_finalize();
    return 0;
}
