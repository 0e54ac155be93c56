/*
 * Device collectives over a team, on a binomial tree of the team's PEs:
 * ceil(log2 n) rounds, each PE talking to at most one parent and log2 n
 * children, so no PE handles O(n) messages for a broadcast or reduction.
 *
 * The tree is rooted at team index 0 for every collective (a broadcast's
 * data first climbs from its root to 0): index rel's children are
 * rel + 2^k for 2^k below rel's lowest set bit (every k for 0), its subtree
 * the indices [rel, rel + lowbit). Every call sends exactly one signal up
 * and one down each edge, the one down only after the one up was taken.
 * Going up, a child adds one to its parent's tree[k]; going down, a parent
 * adds one to the child's down word. The words are counters that the waiter
 * takes back, like the barrier's, so they are idle between collectives and
 * back-to-back calls never mistake one call's signal for another's: each
 * word hears from one PE, which only reaches call c+1 after its call-c
 * signal was taken.
 *
 * Every PE's DEST is written by others only after that PE has entered the
 * call (its signal up says so), so a PE still reading the previous call's
 * result is never overwritten.
 *
 * A group is the calling thread, or every thread of the calling block for
 * the _block forms: thread 0 signals and waits, and each thread moves and
 * combines its share of the data between group barriers.
 */
#include "device/coll.h"

#include <shmem/shmem.h>
#include <stdlib.h>
#include <string.h>

#include "device/dsync.h"
#include "team/barrier.h"
#include "team/team.h"
#include "util/log.h"
#include "util/spin.h"

struct group {
    struct device_thread *t;
    unsigned rank, size;
    pthread_barrier_t *bar; /* NULL for one thread */
    const struct oshm_pe_set *set;
    struct oshm_device_sync_words *words;
    const char *routine;
};

static void group_sync(const struct group *g)
{
    if (g->bar)
        pthread_barrier_wait(g->bar);
}

static struct group group_of(shmemd_team_t team, bool block, const char *routine)
{
    struct device_thread *t = device_thread_of(routine);
    struct group g = {.t = t, .rank = 0, .size = 1, .routine = routine};
    if (block) {
        g.rank = t->thread;
        g.size = t->launch->nthreads;
        g.bar = &t->launch->block[t->block];
    }
    /* Kernels of the world team use the device's own words (team slot 2),
     * never the host's. */
    g.set = team == SHMEMD_TEAM_WORLD ? &oshm_device_world : oshm_team_set(team, routine);
    g.words = oshm_set_device_words(g.set);
    /* A block starts together: no thread writes DEST while another still
     * reads the previous call's result. */
    group_sync(&g);
    return g;
}

/* This thread's share [*from, *to) of N units. */
static void share(const struct group *g, size_t n, size_t *from, size_t *to)
{
    size_t each = (n + g->size - 1) / g->size;
    *from = each * g->rank < n ? each * g->rank : n;
    *to = *from + each < n ? *from + each : n;
}

static int world_pe(const struct group *g, int index) { return oshm_set_pe(g->set, index); }

/* WORD of PE for a direct atomic, when this PE maps its memory; else NULL.
 * The signals of a tree step are what its latency is made of: where
 * memory is shared they are stores, as a kernel's flag writes through
 * peer mappings are, and only the data goes through the engines. */
static int64_t *direct_word(int64_t *word, int pe)
{
    return hcomm_load_store(pe) ? shmem_ptr(word, pe) : NULL;
}

/* Adds one to WORD on team index TO (group rank 0 only), after everything
 * the group waited for. */
static void signal_index(const struct group *g, int64_t *word, int to)
{
    int pe = world_pe(g, to);
    int64_t *direct = direct_word(word, pe);
    if (direct) {
        __atomic_fetch_add(direct, 1, __ATOMIC_RELEASE);
        return;
    }
    dsync_post(g->t, (struct engine_desc){.op = ENGINE_SIGNAL, .pe = pe, .sig = (uint64_t *)word,
                                          .sig_value = 1, .sig_op = BACKEND_SIGNAL_ADD,
                                          .routine = g->routine});
}

/* Waits until this PE's WORD holds COUNT, and takes COUNT back. */
static void consume(const struct group *g, int64_t *word, int64_t count)
{
    uint32_t spins = 0;
    while (__atomic_load_n(word, __ATOMIC_ACQUIRE) < count)
        dsync_spin(&spins);
    if (direct_word(word, hcomm.my_pe)) {
        __atomic_fetch_sub(word, count, __ATOMIC_ACQ_REL);
        return;
    }
    dsync_post(g->t, (struct engine_desc){.op = ENGINE_AMO, .pe = hcomm.my_pe, .dst = word,
                                          .amo = BACKEND_AMO_ADD, .amo_size = sizeof *word,
                                          .operand = (uint64_t)-count, .routine = g->routine});
    dsync_wait(g->t);
}

static unsigned lowbit_of(int rel, int n)
{
    return rel ? (unsigned)__builtin_ctz((unsigned)rel) : (unsigned)(32 - __builtin_clz((unsigned)n));
}

/* Team index of the child of REL in round K, or -1. */
static int child_of(int rel, unsigned k, int n)
{
    if (k >= lowbit_of(rel, n) || k >= 31 || rel + (1 << k) >= n)
        return -1;
    return rel + (1 << k);
}

/* Moves bytes [from, to) of this thread's share: engine operations, waited for. */
static void move(const struct group *g, enum engine_op op, void *dst, const void *src,
                 size_t nbytes, int pe)
{
    size_t from, to;
    share(g, nbytes, &from, &to);
    if (from < to)
        dsync_post(g->t, (struct engine_desc){.op = op, .pe = pe, .dst = (char *)dst + from,
                                              .src = (const char *)src + from,
                                              .len = to - from, .routine = g->routine});
    dsync_wait(g->t);
}

static void local_copy(const struct group *g, void *dst, const void *src, size_t nbytes)
{
    size_t from, to;
    share(g, nbytes, &from, &to);
    if (dst != src && from < to)
        memmove((char *)dst + from, (const char *)src + from, to - from);
}

/* Tells the parent this PE (and its subtree's data) is ready, then waits
 * for the parent's word that the data came down. */
static void up_then_down(const struct group *g, int rel)
{
    if (g->rank == 0 && rel != 0) {
        int n = g->set->size;
        unsigned k = lowbit_of(rel, n);
        signal_index(g, &g->words->tree[k], rel - (1 << k));
        consume(g, &g->words->down, 1);
    }
    group_sync(g);
}

/* Puts bytes [lo, hi) of DEST to CHILD's DEST, then tells it. */
static void push_down(const struct group *g, void *dest, size_t lo, size_t hi, int child)
{
    move(g, ENGINE_PUT, (char *)dest + lo, (char *)dest + lo, hi - lo, world_pe(g, child));
    group_sync(g);
    if (g->rank == 0)
        signal_index(g, &g->words->down, child);
}

static void finish(const struct group *g)
{
    dsync_wait(g->t);
    group_sync(g);
}

static void check_sym(const struct group *g, const void *p, size_t nbytes)
{
    if (nbytes && hcomm_seg_of(p, nbytes) < 0)
        hcomm_bad_addr(p, nbytes, hcomm.my_pe, g->routine);
}

size_t dcoll_bytes(size_t nelems, size_t size, const char *routine)
{
    if (size && nelems > SIZE_MAX / size)
        oshm_fatal("%s: %zu elements of %zu bytes overflow size_t", routine, nelems, size);
    return nelems * size;
}

/* Is ROOT in the subtree of team index CHILD, the child of round K? */
static bool subtree_holds(int child, unsigned k, int root, int n)
{
    return root >= child && root < child + (1 << k) && root < n;
}

/* What a collective does at each edge of the binomial tree, which is
 * always rooted at team index 0 so that each word hears from one PE only.
 * GATHER: going up, a parent takes in the subtree of CHILD (its child of
 * round K), smallest subtrees first, once the child said it is ready.
 * SCATTER: coming down, largest subtrees first, the parent gives CHILD what
 * its subtree lacks and tells it (push_down). */
struct tree_edges {
    void (*gather)(const struct group *g, int child, unsigned k, void *arg);
    void (*scatter)(const struct group *g, int child, unsigned k, void *arg);
    void *arg;
};

static void tree_pass(const struct group *g, const struct tree_edges *e)
{
    int n = g->set->size, rel = g->set->my_index;
    for (unsigned k = 0; k < lowbit_of(rel, n); k++) {
        int child = child_of(rel, k, n);
        if (child < 0)
            break;
        if (g->rank == 0)
            consume(g, &g->words->tree[k], 1);
        group_sync(g);
        e->gather(g, child, k, e->arg);
        group_sync(g);
    }
    up_then_down(g, rel);
    for (int k = (int)lowbit_of(rel, n) - 1; k >= 0; k--) {
        int child = child_of(rel, (unsigned)k, n);
        if (child >= 0)
            e->scatter(g, child, (unsigned)k, e->arg);
    }
    finish(g);
}

struct bcast_arg {
    void *dest;
    size_t nbytes;
    int root;
};

/* The data goes up from ROOT to 0 (each parent pulls it from the child
 * whose subtree holds ROOT), and then down to the subtrees without it. */
static void bcast_gather(const struct group *g, int child, unsigned k, void *arg)
{
    const struct bcast_arg *a = arg;
    if (subtree_holds(child, k, a->root, g->set->size))
        move(g, ENGINE_GET, a->dest, a->dest, a->nbytes, world_pe(g, child));
}

static void bcast_scatter(const struct group *g, int child, unsigned k, void *arg)
{
    const struct bcast_arg *a = arg;
    push_down(g, a->dest, 0, subtree_holds(child, k, a->root, g->set->size) ? 0 : a->nbytes,
              child);
}

static int dcoll_broadcast_run(shmemd_team_t team, void *dest, const void *source, size_t nbytes,
                               int root, bool block, const char *routine)
{
    struct group g = group_of(team, block, routine);
    int n = g.set->size, rel = g.set->my_index;
    if (root < 0 || root >= n)
        oshm_fatal("%s: PE_root %d is not a PE of the team (0..%d)", routine, root, n - 1);
    check_sym(&g, dest, nbytes);
    if (rel == root) {
        check_sym(&g, source, nbytes);
        local_copy(&g, dest, source, nbytes);
        group_sync(&g);
    }
    struct bcast_arg a = {.dest = dest, .nbytes = nbytes, .root = root};
    tree_pass(&g, &(struct tree_edges){.gather = bcast_gather, .scatter = bcast_scatter, .arg = &a});
    return 0;
}

int dcoll_broadcast(shmemd_team_t team, void *dest, const void *source, size_t nbytes, int root,
                    bool block, const char *routine)
{
    int r;
    OSHM_PROFILED_LOCAL(OSHM_PROF_device_broadcast, routine, nbytes,
                        r = dcoll_broadcast_run(team, dest, source, nbytes, root, block, routine));
    return r;
}

struct fcollect_arg {
    char *dest;
    size_t nbytes, total;
};

/* Team indices [CHILD, its subtree's end) as bytes of DEST. */
static void subtree_bytes(const struct group *g, const struct fcollect_arg *a, int child,
                          unsigned k, size_t *lo, size_t *hi)
{
    int n = g->set->size, end = child + (1 << k) < n ? child + (1 << k) : n;
    *lo = (size_t)child * a->nbytes;
    *hi = (size_t)end * a->nbytes;
}

/* Up: each subtree's blocks gather at its top, smallest subtrees first. */
static void fcollect_gather(const struct group *g, int child, unsigned k, void *arg)
{
    const struct fcollect_arg *a = arg;
    size_t lo, hi;
    subtree_bytes(g, a, child, k, &lo, &hi);
    move(g, ENGINE_GET, a->dest + lo, a->dest + lo, hi - lo, world_pe(g, child));
}

/* Down: each child gets what its subtree lacks. */
static void fcollect_scatter(const struct group *g, int child, unsigned k, void *arg)
{
    const struct fcollect_arg *a = arg;
    size_t lo, hi;
    subtree_bytes(g, a, child, k, &lo, &hi);
    move(g, ENGINE_PUT, a->dest + hi, a->dest + hi, a->total - hi, world_pe(g, child));
    push_down(g, a->dest, 0, lo, child);
}

static int dcoll_fcollect_run(shmemd_team_t team, void *dest, const void *source, size_t nbytes,
                              bool block, const char *routine)
{
    struct group g = group_of(team, block, routine);
    int n = g.set->size, rel = g.set->my_index;
    size_t total = dcoll_bytes(nbytes, (size_t)n, routine);
    check_sym(&g, dest, total);
    check_sym(&g, source, nbytes);
    local_copy(&g, (char *)dest + (size_t)rel * nbytes, source, nbytes);
    group_sync(&g);
    struct fcollect_arg a = {.dest = dest, .nbytes = nbytes, .total = total};
    tree_pass(&g, &(struct tree_edges){.gather = fcollect_gather, .scatter = fcollect_scatter,
                                       .arg = &a});
    return 0;
}

int dcoll_fcollect(shmemd_team_t team, void *dest, const void *source, size_t nbytes, bool block,
                   const char *routine)
{
    int r;
    OSHM_PROFILED_LOCAL(OSHM_PROF_device_fcollect, routine, nbytes,
                        r = dcoll_fcollect_run(team, dest, source, nbytes, block, routine));
    return r;
}

/* Every PE of the team has entered: up the tree to index 0, and down. */
static void tree_sync(const struct group *g)
{
    int n = g->set->size, rel = g->set->my_index;
    if (g->rank == 0) {
        for (unsigned k = 0; k < lowbit_of(rel, n); k++)
            if (child_of(rel, k, n) >= 0)
                consume(g, &g->words->tree[k], 1);
    }
    up_then_down(g, rel);
    if (g->rank == 0) {
        for (unsigned k = 0; k < lowbit_of(rel, n); k++) {
            int child = child_of(rel, k, n);
            if (child >= 0)
                signal_index(g, &g->words->down, child);
        }
    }
}

static int dcoll_alltoall_run(shmemd_team_t team, void *dest, const void *source, size_t nbytes,
                              bool block, const char *routine)
{
    struct group g = group_of(team, block, routine);
    int n = g.set->size, me = g.set->my_index;
    size_t total = dcoll_bytes(nbytes, (size_t)n, routine);
    check_sym(&g, dest, total);
    check_sym(&g, source, total);
    local_copy(&g, (char *)dest + (size_t)me * nbytes, (const char *)source + (size_t)me * nbytes,
               nbytes);
    if (n > 1) {
        /* No PE writes another's DEST before that PE has entered. */
        tree_sync(&g);
        group_sync(&g);
        /* PE me sends to me+1, me+2, ...: every PE has one sender per step. */
        size_t from, to;
        share(&g, (size_t)n - 1, &from, &to);
        for (size_t s = from + 1; s < to + 1; s++) {
            int peer = (int)(((size_t)me + s) % (size_t)n);
            dsync_post(g.t, (struct engine_desc){
                                .op = ENGINE_PUT_SIGNAL, .pe = world_pe(&g, peer),
                                .dst = (char *)dest + (size_t)me * nbytes,
                                .src = (const char *)source + (size_t)peer * nbytes, .len = nbytes,
                                .sig = (uint64_t *)&g.words->data, .sig_value = 1,
                                .sig_op = BACKEND_SIGNAL_ADD, .routine = routine});
        }
        dsync_wait(g.t);
        if (g.rank == 0)
            consume(&g, &g.words->data, n - 1);
    }
    finish(&g);
    return 0;
}

int dcoll_alltoall(shmemd_team_t team, void *dest, const void *source, size_t nbytes, bool block,
                   const char *routine)
{
    int r;
    OSHM_PROFILED_LOCAL(OSHM_PROF_device_alltoall, routine, nbytes,
                        r = dcoll_alltoall_run(team, dest, source, nbytes, block, routine));
    return r;
}

struct reduce_arg {
    char *dest;
    size_t nbytes, size, from, to; /* this thread's share: elements [from, to) */
    void *tmp;
    coll_combine_fn combine;
};

/* Up: a parent pulls each child's partial result from the child's DEST
 * (the child signalled it complete) and combines it into its own. */
static void reduce_gather(const struct group *g, int child, unsigned k, void *arg)
{
    (void)k;
    const struct reduce_arg *a = arg;
    if (a->to == a->from)
        return;
    size_t off = a->from * a->size, len = (a->to - a->from) * a->size;
    dsync_post(g->t, (struct engine_desc){.op = ENGINE_GET, .pe = world_pe(g, child),
                                          .dst = a->tmp, .src = a->dest + off, .len = len,
                                          .routine = g->routine});
    dsync_wait(g->t);
    a->combine(a->dest + off, a->tmp, a->to - a->from);
}

static void reduce_scatter(const struct group *g, int child, unsigned k, void *arg)
{
    (void)k;
    const struct reduce_arg *a = arg;
    push_down(g, a->dest, 0, a->nbytes, child);
}

static int dcoll_reduce_run(shmemd_team_t team, void *dest, const void *source, size_t nreduce,
                            size_t size, coll_combine_fn combine, bool block, const char *routine)
{
    struct group g = group_of(team, block, routine);
    size_t nbytes = dcoll_bytes(nreduce, size, routine);
    check_sym(&g, dest, nbytes);
    check_sym(&g, source, nbytes);
    size_t from, to;
    share(&g, nreduce, &from, &to);
    void *tmp = to > from ? malloc((to - from) * size) : NULL;
    if (to > from && !tmp)
        oshm_fatal("%s: out of memory for %zu bytes", routine, (to - from) * size);
    local_copy(&g, dest, source, nbytes);
    group_sync(&g);
    struct reduce_arg a = {.dest = dest, .nbytes = nbytes, .size = size, .from = from, .to = to,
                           .tmp = tmp, .combine = combine};
    tree_pass(&g, &(struct tree_edges){.gather = reduce_gather, .scatter = reduce_scatter,
                                       .arg = &a});
    free(tmp);
    return 0;
}

int dcoll_reduce(shmemd_team_t team, void *dest, const void *source, size_t nreduce, size_t size,
                 coll_combine_fn combine, bool block, const char *routine)
{
    int r;
    OSHM_PROFILED_LOCAL(
        OSHM_PROF_device_reduce, routine, nreduce * size,
        r = dcoll_reduce_run(team, dest, source, nreduce, size, combine, block, routine));
    return r;
}

#define DEFINE_COLL_MEM(SUFFIX, BLOCK)                                                         \
    int shmemd_broadcastmem##SUFFIX(shmemd_team_t team, void *dest, const void *source,         \
                                    size_t nbytes, int pe_root)                                \
    {                                                                                          \
        return dcoll_broadcast(team, dest, source, nbytes, pe_root, BLOCK,                     \
                               "shmemd_broadcastmem" #SUFFIX);                                 \
    }                                                                                          \
    int shmemd_fcollectmem##SUFFIX(shmemd_team_t team, void *dest, const void *source,          \
                                   size_t nbytes)                                              \
    {                                                                                          \
        return dcoll_fcollect(team, dest, source, nbytes, BLOCK, "shmemd_fcollectmem" #SUFFIX); \
    }                                                                                          \
    int shmemd_alltoallmem##SUFFIX(shmemd_team_t team, void *dest, const void *source,          \
                                   size_t nbytes)                                              \
    {                                                                                          \
        return dcoll_alltoall(team, dest, source, nbytes, BLOCK, "shmemd_alltoallmem" #SUFFIX); \
    }
DEFINE_COLL_MEM(, false)
DEFINE_COLL_MEM(_block, true)
