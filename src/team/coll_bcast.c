#include "team/coll.h"

#include <string.h>

#include "hcomm/hcomm.h"

#define CH (&hcomm.default_channel)

/* Adds one to WORD on world PE PE; waits for and takes units on a local word. */
static void post(int64_t *word, int pe)
{
    hcomm_signal(CH, (uint64_t *)word, 1, HCOMM_SIGNAL_ADD, pe, "broadcast");
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
                    int index)
{
    int pe = oshm_set_pe(s, index);
    hcomm_put(CH, dest, from, bytes, pe, false, "broadcast");
    post(&s->sync[OSHM_SYNC_RELEASE_WORD], pe);
}

/* Active sets, up to OSHM_BCAST_PUSH_MAX_BYTES: the root puts the data
 * into each child's dest and signals it at once, flat up to
 * OSHM_BCAST_FLAT_MAX_PES PEs, else down a binomial tree (a PE forwards
 * from its dest); every receiver then tells the root and leaves, and the
 * root leaves once all have. No PE waits for the others to enter: the
 * specification makes every dest ready before anyone calls, and lets a
 * program reuse a pSync array only once every collective that used it has
 * completed on every PE (after a barrier, say). The root's wait means that
 * every receiver's pSync words are at rest again before the root can start
 * another broadcast. Sandia OpenSHMEM's linear
 * broadcast is the same protocol; waiting for every PE to enter first (the
 * previous design) cost 4 times as long at 4 PEs (docs/performance.md). */
static void bcast_push(const struct oshm_pe_set *s, void *dest, const void *source, size_t bytes,
                       int root)
{
    int64_t *ready = &s->sync[OSHM_SYNC_RELEASE_WORD];
    int64_t *done = &s->sync[OSHM_SYNC_DONE_WORD];
    int n = s->size, r = (s->my_index - root + n) % n;
    const void *from = r == 0 ? source : dest;
    if (r)
        take(ready, s->idle, 1);
    if (n <= OSHM_BCAST_FLAT_MAX_PES) {
        for (int c = r ? n : 1; c < n; c++)
            push_to(s, dest, from, bytes, (root + c) % n);
    } else {
        /* Binomial: the children of r are r + m for each power of two m
         * below r's lowest set bit, the farthest (the largest subtree)
         * first. */
        int low = 1;
        while (low < n && !(r & low))
            low <<= 1;
        for (int m = low >> 1; m >= 1; m >>= 1)
            if (r + m < n)
                push_to(s, dest, from, bytes, (root + r + m) % n);
    }
    if (r)
        post(done, oshm_set_pe(s, root));
    else
        take(done, s->idle, n - 1);
}

void oshm_broadcast(const struct oshm_pe_set *s, void *dest, const void *source, size_t bytes,
                    int root, enum oshm_coll_form form)
{
    if (s->size > 1) {
        if (form == OSHM_COLL_ACTIVE_SET && bytes <= OSHM_BCAST_PUSH_MAX_BYTES)
            bcast_push(s, dest, source, bytes, root);
        else
            bcast_pull(s, dest, source, bytes, root);
    }
    /* The root's own copy last: its source is read by the others meanwhile
     * (dest may be source). */
    if (form == OSHM_COLL_TEAM && s->my_index == root && dest != source)
        memmove(dest, source, bytes);
}
