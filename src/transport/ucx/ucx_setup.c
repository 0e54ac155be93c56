/*
 * UCX set-up: the context, the target worker, memory registration as the
 * segments grow, the card peers connect with, and what this PE keeps of
 * each peer.
 *
 * Only memory that exists is registered. A segment is registered range by
 * range as its backed part grows ([0, committed) at start-up, then each new
 * part), and every new range's key reaches every peer before anyone may use
 * the memory (grow/peer_grow, driven by hcomm during the collective
 * allocation). On a fabric that pins memory (InfiniBand or RoCE without
 * on-demand paging) registering the reserved but unbacked rest of the heap
 * would fail or pin the wrong pages.
 */
#include "transport/ucx/ucx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

#include "util/log.h"
#include "fabric/fabric.h"
#include "fabric/fabric_ranges.h"
#include "transport/mailbox.h"
#include "transport/net_card.h"
#include "transport/ucx/ucx_int.h"

struct ucx_state ucx = {.target_lock = PTHREAD_MUTEX_INITIALIZER, .chans = CHAN_POOL_INIT};

void ucx_failed(const char *what, int pe, ucs_status_t st)
{
    if (pe >= 0)
        oshm_fatal("UCX %s to PE %d failed: %s", what, pe, ucs_status_string(st));
    oshm_fatal("UCX %s failed: %s", what, ucs_status_string(st));
}

static struct net_ranges ranges(void);

/* Registers [start, end) of this PE's segment SEG as its next range. */
static int register_range(int seg, size_t start, size_t end)
{
    const struct net_ranges nr = ranges();
    if (!net_range_allowed(&nr, seg, start, end))
        return -1;
    uint32_t n = ucx.nranges[seg];
    const struct backend_seg *s = &ucx.seg[seg];
    ucp_mem_map_params_t mp = {.field_mask = UCP_MEM_MAP_PARAM_FIELD_ADDRESS |
                                             UCP_MEM_MAP_PARAM_FIELD_LENGTH,
                               .address = (void *)(s->base + start),
                               .length = end - start};
    ucs_status_t st = ucp_mem_map(ucx.context, &mp, &ucx.mem[seg][n]);
    if (st != UCS_OK) {
        oshm_warn("UCX cannot register %zu bytes at %p: %s", end - start, mp.address,
                  ucs_status_string(st));
        return -1;
    }
    struct ucx_range *r = &ucx.range[seg][n];
    st = ucp_rkey_pack(ucx.context, ucx.mem[seg][n], &r->rkey, &r->rkey_len);
    if (st != UCS_OK) {
        ucp_mem_unmap(ucx.context, ucx.mem[seg][n]);
        oshm_warn("UCX cannot pack a memory key: %s", ucs_status_string(st));
        return -1;
    }
    r->start = start;
    r->end = end;
    ucx.nranges[seg] = n + 1;
    oshm_debug("UCX: registered [%p, %p) of segment %d", mp.address,
               (void *)(s->base + end), seg);
    return 0;
}

static void range_of(int seg, uint32_t i, size_t *start, size_t *end, const void **key,
                     uint32_t *key_len)
{
    const struct ucx_range *r = &ucx.range[seg][i];
    *start = r->start;
    *end = r->end;
    *key = r->rkey;
    *key_len = (uint32_t)r->rkey_len;
}

static struct net_ranges ranges(void)
{
    return (struct net_ranges){.name = "UCX", .seg = ucx.seg, .nranges = ucx.nranges,
                               .max_ranges = UCX_MAX_RANGES, .range = range_of,
                               .add = register_range};
}

/* UCX's System V segments are created with mode 0660, so that a user of
 * the job's group could attach them; its POSIX ones are 0600, unlinked at
 * once and reached through /proc/PID/fd (the owner only), and CMA needs the
 * right to ptrace the peer. Peers of this host that UCX serves (split nodes,
 * SHMEM_TRANSPORT=ucx) keep those; sysv is left out unless the user chose
 * UCX's transports. */
static void restrict_to_job(ucp_config_t *config)
{
    if (getenv("UCX_TLS"))
        return;
    ucs_status_t st = ucp_config_modify(config, "TLS", "^sysv");
    if (st != UCS_OK)
        oshm_warn("UCX: cannot leave its System V shared memory out (%s): same-host "
                  "segments may be open to the job's group", ucs_status_string(st));
}

/* Out of memory or resources at UCX's start: its same-host buffers live in
 * /dev/shm (or UCX_POSIX_DIR), whose room is the usual culprit; say so. */
static void say_where(ucs_status_t st)
{
    const char *dir = getenv("UCX_POSIX_DIR");
    struct statvfs fs;
    if (!dir || !*dir)
        dir = "/dev/shm";
    if ((st == UCS_ERR_NO_MEMORY || st == UCS_ERR_NO_RESOURCE) && statvfs(dir, &fs) == 0)
        oshm_warn("UCX keeps its same-host buffers in %s, which has %llu KiB free of %llu KiB "
                  "(df %s; UCX_POSIX_DIR names another directory)", dir,
                  (unsigned long long)fs.f_bavail * fs.f_frsize / 1024,
                  (unsigned long long)fs.f_blocks * fs.f_frsize / 1024, dir);
}

static int ucx_open(const struct backend_config *cfg)
{
    if (ucx_dl_open() != 0)
        return -1;
    ucx.my_pe = cfg->my_pe;
    ucx.n_pes = cfg->n_pes;
    ucx.seg = cfg->seg;
    ucx.debug = cfg->debug;
    ucx.oversubscribed = cfg->oversubscribed;
    ucx.thread_on = cfg->progress_thread;
    ucx.peer = calloc((size_t)cfg->n_pes, sizeof *ucx.peer);
    if (!ucx.peer)
        return -1;
    ucp_config_t *config;
    ucs_status_t st = ucp_config_read(NULL, NULL, &config);
    if (st != UCS_OK)
        goto fail;
    restrict_to_job(config);
    /* With active messages on (the library's notifies), UCX 1.13 gives an
     * endpoint a second tcp connection for rendezvous; setting those up
     * crashed a PE in uct_tcp_iface_progress in 3 of 30 runs of a 2-PE
     * barrier loop (0 of 60 with one lane). The library's active messages
     * are small and eager: nothing it sends uses rendezvous lanes. */
    if (!getenv("UCX_MAX_RNDV_LANES"))
        (void)ucp_config_modify(config, "MAX_RNDV_LANES", "1");
    /* UCX's adaptive progress leaves a worker's interface out of progress
     * while no endpoint of that worker uses it, and watches it from UCX's
     * own thread instead: the target worker has no endpoints of its own,
     * so a peer's notify (an active message, which asks for no reply) went
     * through that thread and a wake-up before the target saw it. A 2-PE
     * barrier over tcp took 19-68 us, bimodal, and 19-20 us without it. */
    if (!getenv("UCX_ADAPTIVE_PROGRESS"))
        (void)ucp_config_modify(config, "ADAPTIVE_PROGRESS", "n");
    /* UCX's tcp keepalive gives a connection some 16 s to answer: 1,024 PEs
     * as 128 nodes of 8 on one 2-core host (2 million connections, the
     * loopback dropping packets) lost connections that way, "Endpoint
     * timeout", in a put to every PE; with 300 s they completed. A PE that
     * dies is the launcher's to report, a node that hangs its heartbeat's:
     * from 34 PEs on, the idle time before probes is 0.3 s a PE. UCX 1.13's
     * ucp_config_modify does not reach a transport's settings (it warns of
     * them as unused): the environment, before UCX opens its transports. */
    if (!getenv("UCX_TCP_KEEPIDLE") && cfg->n_pes > 33) {
        char idle[32];
        snprintf(idle, sizeof idle, "%ds", cfg->n_pes * 3 / 10);
        setenv("UCX_TCP_KEEPIDLE", idle, 0);
    }
    /* Several workers (target, one per channel) run in different threads. */
    ucp_params_t params = {.field_mask = UCP_PARAM_FIELD_FEATURES |
                                         UCP_PARAM_FIELD_MT_WORKERS_SHARED |
                                         UCP_PARAM_FIELD_ESTIMATED_NUM_EPS,
                           .features = UCP_FEATURE_RMA | UCP_FEATURE_AMO32 | UCP_FEATURE_AMO64 |
                                       UCP_FEATURE_AM |
                                       (ucx.thread_on ? UCP_FEATURE_WAKEUP : 0),
                           .mt_workers_shared = 1,
                           .estimated_num_eps = (size_t)cfg->n_pes};
    st = ucp_init(&params, config, &ucx.context);
    ucp_config_release(config);
    if (st != UCS_OK)
        goto fail;
    ucp_worker_params_t wp = {.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE,
                              .thread_mode = UCS_THREAD_MODE_SERIALIZED};
    st = ucp_worker_create(ucx.context, &wp, &ucx.target);
    if (st != UCS_OK)
        goto fail;
    st = ucp_worker_get_address(ucx.target, &ucx.addr, &ucx.addr_len);
    if (st != UCS_OK)
        goto fail;
    if (ucx_notify_serve() != 0)
        goto fail_quietly;
    const struct net_ranges nr = ranges();
    if (net_register_committed(&nr) != 0)
        goto fail_quietly;
    if (ucx.thread_on && ucx_thread_start() != 0)
        goto fail_quietly;
    return 0;
fail:
    oshm_warn("cannot open UCX: %s", ucs_status_string(st));
    say_where(st);
fail_quietly:
    ucx_backend.close();
    return -1;
}

static int ucx_card(const pid_t *pids, int npids, void **blob, size_t *len)
{
    (void)pids, (void)npids;
    const struct net_ranges nr = ranges();
    return net_card(&nr, ucx.addr, ucx.addr_len, blob, len);
}

static uint32_t peer_count(void *peer, int seg, size_t *end)
{
    struct backend_peer *p = peer;
    uint32_t n = atomic_load_explicit(&p->nranges[seg], memory_order_relaxed);
    *end = n ? ucx_peer_range(p, seg, n - 1)->end : 0;
    return n;
}

/* Keeps a peer's range with its packed rkey (unpacked per channel). */
static int peer_add(void *peer, int seg, uint32_t n, size_t start, size_t end,
                    const struct fabric_token *t)
{
    struct backend_peer *p = peer;
    if (n && !p->more[seg] && !(p->more[seg] = calloc(UCX_MAX_RANGES - 1, sizeof *p->more[seg])))
        return -1;
    struct ucx_range *r = ucx_peer_range(p, seg, n);
    if (!(r->rkey = malloc(t->key_len)))
        return -1;
    memcpy(r->rkey, t->key, t->key_len);
    r->rkey_len = t->key_len;
    r->start = start;
    r->end = end;
    atomic_store_explicit(&p->nranges[seg], n + 1, memory_order_release);
    return 0;
}

/* What this PE keeps of P's ranges. */
static struct fabric_peer_ranges peer_ranges(struct backend_peer *p)
{
    return (struct fabric_peer_ranges){.peer = p, .base = p->base, .size = p->size,
                                       .nsegs = BACKEND_MAX_SEGS, .max_ranges = UCX_MAX_RANGES,
                                       .count = peer_count, .add = peer_add};
}

static int ucx_connect(int pe, const void *blob, size_t len, struct backend_peer **out)
{
    struct fabric_card card;
    struct backend_peer *p = calloc(1, sizeof *p);
    if (!p)
        return -1;
    *out = p;
    p->pe = pe;
    const struct fabric_peer_ranges pr = peer_ranges(p);
    if (net_learn("UCX", pe, blob, len, true, &pr, &card) != 0)
        return -1;
    p->addr = malloc(card.addr_len);
    if (!p->addr)
        return -1;
    memcpy(p->addr, card.addr, card.addr_len);
    p->addr_len = card.addr_len;
    ucx.peer[pe] = p;
    return 0;
}

static void ucx_disconnect(struct backend_peer *p)
{
    if (!p)
        return;
    ucx.peer[p->pe] = NULL;
    for (int s = 0; s < BACKEND_MAX_SEGS; s++) {
        uint32_t n = atomic_load_explicit(&p->nranges[s], memory_order_relaxed);
        for (uint32_t i = 0; i < n; i++)
            free(ucx_peer_range(p, s, i)->rkey);
        free(p->more[s]);
    }
    free(p->addr);
    free(p);
}

static int ucx_grow(int seg, size_t committed, void **blob, size_t *len)
{
    const struct net_ranges nr = ranges();
    return net_grow(&nr, seg, committed, blob, len);
}

static int ucx_peer_grow(struct backend_peer *p, const void *blob, size_t len)
{
    struct fabric_card card;
    const struct fabric_peer_ranges pr = peer_ranges(p);
    return net_learn("UCX", p->pe, blob, len, false, &pr, &card);
}

static void ucx_close(void)
{
    ucx_thread_stop();
    ucx_chan_close_all();
    for (int s = 0; s < BACKEND_MAX_SEGS; s++) {
        for (uint32_t i = 0; i < ucx.nranges[s]; i++) {
            ucp_rkey_buffer_release(ucx.range[s][i].rkey);
            ucp_mem_unmap(ucx.context, ucx.mem[s][i]);
        }
        ucx.nranges[s] = 0;
    }
    if (ucx.addr)
        ucp_worker_release_address(ucx.target, ucx.addr);
    if (ucx.target)
        ucp_worker_destroy(ucx.target);
    mailbox_clear(); /* after the worker: nothing drops one any more */
    if (ucx.context)
        ucp_cleanup(ucx.context);
    free(ucx.peer);
    ucx.peer = NULL;
    ucx.addr = NULL;
    ucx.target = NULL;
    ucx.context = NULL;
}

int ucx_registrations(int seg, struct ucx_registration *out, int max)
{
    int n = (int)ucx.nranges[seg];
    for (int i = 0; i < n && i < max; i++) {
        ucp_mem_attr_t attr = {.field_mask = UCP_MEM_ATTR_FIELD_ADDRESS |
                                             UCP_MEM_ATTR_FIELD_LENGTH};
        if (ucp_mem_query(ucx.mem[seg][i], &attr) != UCS_OK)
            return -1;
        out[i] = (struct ucx_registration){attr.address, attr.length};
    }
    return n;
}

/* The transports of UCX's resources ("#  resource 2 : md 1 dev 2 flags --
 * tcp/eth0" in ucp_context_print_info), each once. */
static int ucx_networks(const char **names, bool *on_device, int max)
{
    static char tl[16][32];
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f || !ucx.context) {
        if (f)
            fclose(f);
        free(text);
        return 0;
    }
    ucp_context_print_info(ucx.context, f);
    fclose(f);
    int n = 0;
    for (char *line = strtok(text, "\n"); line && n < max && n < 16; line = strtok(NULL, "\n")) {
        char *at = strstr(line, " -- ");
        if (!strstr(line, "resource") || !at)
            continue;
        at += 4;
        size_t l = strcspn(at, "/ ");
        if (l == 0 || l >= sizeof tl[0])
            continue;
        bool seen = false;
        for (int i = 0; i < n; i++)
            seen |= strncmp(tl[i], at, l) == 0 && tl[i][l] == 0;
        if (seen)
            continue;
        memcpy(tl[n], at, l);
        tl[n][l] = 0;
        names[n] = tl[n];
        on_device[n] = false;
        n++;
    }
    free(text);
    return n;
}

/* UCX transports whose atomics a CPU carries out: tcp and the transports
 * without atomics of their own make UCP emulate them in software at the
 * target (ucs_atomic_* on the target's memory); the shared-memory ones
 * (posix, sysv, xpmem) do them with the initiator's CPU on the mapped
 * memory; the rest here move memory only. Anything else (rc, dc, ud over
 * verbs or mlx5, ugni, ...) may put atomics on a NIC. */
static bool cpu_transport(const char *tl)
{
    static const char *const cpu[] = {"tcp",       "posix",    "sysv",      "xpmem",
                                      "cma",       "knem",     "self",      "sm",
                                      "cuda_copy", "cuda_ipc", "rocm_copy", "rocm_ipc",
                                      "gdr_copy",  "ze_copy",  "ze_ipc"};
    for (size_t i = 0; i < sizeof cpu / sizeof *cpu; i++)
        if (strcmp(tl, cpu[i]) == 0)
            return true;
    return false;
}

static bool ucx_cpu_atomics(void)
{
    const char *tls[16];
    bool on_device[16];
    int n = ucx_networks(tls, on_device, 16);
    if (n <= 0)
        return false;
    for (int i = 0; i < n; i++)
        if (!cpu_transport(tls[i])) {
            oshm_debug("UCX: transport %s may do atomics on a NIC: every AMO goes through UCX",
                       tls[i]);
            return false;
        }
    return true;
}

const struct backend_ops ucx_backend = {
    .name = "ucx",
    .open = ucx_open,
    .card = ucx_card,
    .connect = ucx_connect,
    .disconnect = ucx_disconnect,
    .close = ucx_close,
    .chan_open = ucx_chan_open,
    .chan_close = ucx_chan_close,
    .chan_share = ucx_chan_share,
    .grow = ucx_grow,
    .peer_grow = ucx_peer_grow,
    .put = ucx_put,
    .get = ucx_get,
    .iput = ucx_iput,
    .iget = ucx_iget,
    .signal = ucx_signal,
    .notify = ucx_notify,
    .notify_max = UCX_NOTIFY_MAX,
    .mail = ucx_mail,
    .amo = ucx_amo,
    .ptr = ucx_ptr,
    .fence = ucx_fence,
    .quiet = ucx_quiet,
    .quiet_pe = ucx_quiet_pe,
    .progress = ucx_progress,
    .describe = ucx_describe,
    .networks = ucx_networks,
    .cpu_atomics = ucx_cpu_atomics,
};
