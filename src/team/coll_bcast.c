#include "team/coll.h"

#include <string.h>

#include "hcomm/hcomm.h"
#include "team/coll_hier.h"
#include "team/coll_net.h"
#include "team/coll_nodes.h"

#define CH (&hcomm.default_channel)

/* Adds UNITS to WORD on world PE PE. */
static void post_units(int64_t *word, int64_t units, int pe)
{
    hcomm_signal(CH, (uint64_t *)word, (uint64_t)units, HCOMM_SIGNAL_ADD, pe, "broadcast");
}

static void post(int64_t *word, int pe) { post_units(word, 1, pe); }

/* The root's signal says how receivers acknowledge: RELEASE_DEFERRED
 * units for the root's ack word (coll_deferred.c; the root waits when it
 * next enters a collective), one for the root's pSync, where it waits in
 * the call (SHMEM_THREAD_MULTIPLE). Telling them apart by the units also
 * works when a program broke the pSync rules and two signals wait in one
 * word. */
#define RELEASE_DEFERRED (INT64_C(1) << 20)

/* Waits for a root's signal on a local word and takes it: the units it
 * added (1 or RELEASE_DEFERRED). */
static int64_t take_release(int64_t *word, int64_t idle)
{
    oshm_wait_i64_ge(word, idle + 1);
    int64_t held = __atomic_load_n(word, __ATOMIC_ACQUIRE) - idle;
    int64_t units = held % RELEASE_DEFERRED ? 1 : RELEASE_DEFERRED;
    hcomm_amo(CH, word, sizeof *word, HCOMM_AMO_ADD, (uint64_t)-units, 0, hcomm.my_pe,
              "broadcast");
    return units;
}

static void take(int64_t *word, int64_t idle, int64_t units)
{
    oshm_wait_i64_ge(word, idle + units);
    hcomm_amo(CH, word, sizeof *word, HCOMM_AMO_ADD, (uint64_t)-units, 0, hcomm.my_pe,
              "broadcast");
}

/* Pull: the root tells each PE that its source is ready, each PE copies it
 * (all at once, each on its own core) and tells the root, and only the root
 * waits, for everyone: it may not change its source before all have read
 * it. No PE ever writes another's dest. */
static void bcast_pull(const struct oshm_pe_set *s, void *dest, const void *source, size_t bytes,
                       int root)
{
    int64_t *ready = &s->sync[OSHM_SYNC_RELEASE_WORD];
    int64_t *done = &s->sync[OSHM_SYNC_DONE_WORD];
    if (s->my_index == root) {
        for (int k = 1; k < s->size; k++)
            post(ready, oshm_set_pe(s, (root + k) % s->size));
        take(done, s->idle, s->size - 1);
    } else {
        take(ready, s->idle, 1);
        hcomm_get(CH, dest, source, bytes, oshm_set_pe(s, root), false, "broadcast");
        post(done, oshm_set_pe(s, root));
    }
}

static void push_to(const struct oshm_pe_set *s, void *dest, const void *from, size_t bytes,
                    int index, int64_t units)
{
    int pe = oshm_set_pe(s, index);
    hcomm_put(CH, dest, from, bytes, pe, false, "broadcast");
    post_units(&s->sync[OSHM_SYNC_RELEASE_WORD], units, pe);
}

/* Active sets, up to OSHM_BCAST_PUSH_MAX_BYTES: the root puts the data
 * into each child's dest and signals it at once, flat up to
 * OSHM_BCAST_FLAT_MAX_PES PEs, else down a binomial tree (a PE forwards
 * from its dest, and the root's signal); every receiver then tells the
 * root and leaves, and the root leaves, or (deferred, above) leaves at
 * once. No PE waits for the others to enter: the specification makes
 * every dest ready before anyone calls, and lets a program reuse a pSync
 * array only once every collective that used it has completed on every PE
 * (after a barrier, say). The root's wait means that every receiver's
 * pSync words are at rest again before the root can start another
 * broadcast. Sandia OpenSHMEM's linear broadcast is the same protocol;
 * waiting for every PE to enter first (the previous design) cost 4 times
 * as long at 4 PEs (docs/performance.md). */
static void bcast_push(const struct oshm_pe_set *s, void *dest, const void *source, size_t bytes,
                       int root)
{
    int64_t *ready = &s->sync[OSHM_SYNC_RELEASE_WORD];
    int64_t *done = &s->sync[OSHM_SYNC_DONE_WORD];
    int n = s->size, r = (s->my_index - root + n) % n;
    const void *from = r == 0 ? source : dest;
    int64_t units = r ? take_release(ready, s->idle)
                      : (oshm_coll_defer() ? RELEASE_DEFERRED : 1);
    if (r == 0 && units == RELEASE_DEFERRED)
        oshm_coll_expect(n - 1); /* before any receiver can ack */
    if (n <= OSHM_BCAST_FLAT_MAX_PES) {
        for (int c = r ? n : 1; c < n; c++)
            push_to(s, dest, from, bytes, (root + c) % n, units);
    } else {
        /* Binomial: the children of r are r + m for each power of two m
         * below r's lowest set bit, the farthest (the largest subtree)
         * first. */
        int low = 1;
        while (low < n && !(r & low))
            low <<= 1;
        for (int m = low >> 1; m >= 1; m >>= 1)
            if (r + m < n)
                push_to(s, dest, from, bytes, (root + r + m) % n, units);
    }
    if (r)
        post(units == RELEASE_DEFERRED ? oshm_coll_ack_word() : done, oshm_set_pe(s, root));
    else if (units != RELEASE_DEFERRED)
        take(done, s->idle, n - 1);
}

/* Over a network (coll_net.h): a tree of notifies, or scatter and ring;
 * node-aware where nodes hold several PEs. A team's dests and words may
 * still be in use by its previous collective: a barrier first. */
static void bcast_net(const struct oshm_pe_set *s, const struct oshm_set_nodes *nodes, bool pays,
                      void *dest, const void *source, size_t bytes, int root,
                      enum oshm_coll_form form)
{
    if (form == OSHM_COLL_TEAM)
        oshm_barrier_sync(s);
    if (pays) {
        oshm_hier_bcast(s, nodes, root, dest, source, bytes, form);
        return;
    }
    struct oshm_net_group g = {.index = NULL, .n = s->size, .me = s->my_index};
    oshm_net_bcast(s, &g, root, dest, source, bytes, &s->sync[OSHM_SYNC_RELEASE_WORD], form);
}

void oshm_broadcast(const struct oshm_pe_set *s, void *dest, const void *source, size_t bytes,
                    int root, enum oshm_coll_form form)
{
    oshm_coll_settle();
    struct oshm_set_nodes nodes;
    bool pays = s->size > 1 && oshm_set_nodes(s, &nodes);
    if (s->size > 1) {
        if (!nodes.all_mapped)
            bcast_net(s, &nodes, pays, dest, source, bytes, root, form);
        else if (form == OSHM_COLL_ACTIVE_SET && bytes <= OSHM_BCAST_PUSH_MAX_BYTES)
            bcast_push(s, dest, source, bytes, root);
        else
            bcast_pull(s, dest, source, bytes, root);
    }
    /* The root's own copy last: its source is read by the others meanwhile
     * (dest may be source). */
    if (form == OSHM_COLL_TEAM && s->my_index == root && dest != source)
        memmove(dest, source, bytes);
}
