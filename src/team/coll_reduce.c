#include "team/coll.h"

#include <stdatomic.h>
#include <string.h>

#include "hcomm/hcomm.h"
#include "team/coll_hier.h"
#include "team/coll_net.h"
#include "team/coll_nodes.h"
#include "util/spin.h"

#define CH (&hcomm.default_channel)

/* PE index I's copy of symmetric ADDR as a pointer this PE can load from,
 * or NULL when only gets reach it (another node, or UCX forced). */
static const void *mapped(const struct oshm_pe_set *s, int i, const void *addr)
{
    int pe = oshm_set_pe(s, i);
    if (pe == hcomm.my_pe)
        return addr;
    if (!hcomm_load_store(pe))
        return NULL;
    return hcomm_ptr(addr, pe, "reduce");
}

/* PE index I's BYTES at symmetric ADDR, read in place where mapped, else
 * fetched into IN. */
static const void *peer_data(const struct oshm_pe_set *s, int i, const void *addr, size_t bytes,
                             void *in)
{
    const void *p = mapped(s, i, addr);
    if (p)
        return p;
    hcomm_get(CH, in, addr, bytes, oshm_set_pe(s, i), false, "reduce");
    return in;
}

/* Small: every PE combines the whole vector itself, in PE order (so every PE
 * gets the same bits for floating point), into scratch (unmapped peers'
 * vectors fetched first, all gets in flight together); dest is written only
 * after the second barrier, when nobody reads sources any more (dest may be
 * source). Two barriers and n reads of a few cache lines; no puts. */
static void reduce_whole(const struct oshm_pe_set *s, void *dest, const void *source,
                         size_t nreduce, size_t elem, oshm_combine_fn combine)
{
    size_t bytes = nreduce * elem;
    /* Peers that only gets reach: all their gets at once (one round trip in
     * all, not one per peer), each into its own slot after the
     * accumulator. */
    int unmapped = 0;
    for (int i = 0; i < s->size; i++)
        unmapped += !mapped(s, i, source);
    char *acc = oshm_coll_scratch((size_t)(1 + (unmapped ? s->size : 0)) * bytes, "reduce");
    oshm_barrier_sync(s);
    if (unmapped) {
        for (int i = 0; i < s->size; i++)
            if (!mapped(s, i, source))
                hcomm_get(CH, acc + (size_t)(1 + i) * bytes, source, bytes, oshm_set_pe(s, i),
                          true, "reduce");
        hcomm_quiet(CH);
    }
    for (int i = 0; i < s->size; i++) {
        const void *in = mapped(s, i, source);
        if (!in)
            in = acc + (size_t)(1 + i) * bytes;
        if (i == 0)
            memcpy(acc, in, bytes);
        else
            combine(acc, in, nreduce);
    }
    oshm_barrier_sync(s);
    memcpy(dest, acc, bytes);
}

/* Small, more than OSHM_REDUCE_GROUPED_MIN_PES PEs, every peer mapped: as
 * reduce_whole, but in groups of about sqrt(n) PEs, so that a PE reads
 * about 2 sqrt(n) peers instead of n. Each peer a PE reads is a segment it
 * maps (an open, an mmap, a page-table page and a fault the first time;
 * 100 us and more each on a VM), so reading every peer cost the job n^2 of
 * them: at 512 PEs on one node 261,000 mappings, most of the time of a
 * program that starts, reduces once and ends. Here the leader of each group
 * (its first PE) combines its group's sources in PE order and leaves the
 * sum in its dest; then every PE combines the leaders' sums in group order,
 * so every PE gets the same bits. Three barriers: sources ready; the
 * leaders' sums ready; nobody reads a source or a leader's dest any more
 * (then every dest is written; dest may be source: only the leader reads a
 * member's source, and a leader's own is read by itself before it writes
 * its dest). */
static void reduce_grouped(const struct oshm_pe_set *s, void *dest, const void *source,
                           size_t nreduce, size_t elem, oshm_combine_fn combine)
{
    size_t bytes = nreduce * elem;
    int n = s->size, g = 1;
    while (g * g < n)
        g++;
    char *acc = oshm_coll_scratch(bytes, "reduce");
    oshm_barrier_sync(s);
    if (s->my_index % g == 0) {
        int end = s->my_index + g < n ? s->my_index + g : n;
        memcpy(acc, source, bytes);
        for (int i = s->my_index + 1; i < end; i++)
            combine(acc, mapped(s, i, source), nreduce);
        memcpy(dest, acc, bytes);
    }
    oshm_barrier_sync(s);
    for (int i = 0; i < n; i += g) {
        const void *sum = mapped(s, i, dest);
        if (i == 0)
            memcpy(acc, sum, bytes);
        else
            combine(acc, sum, nreduce);
    }
    oshm_barrier_sync(s);
    memcpy(dest, acc, bytes);
}

/* Small, every peer mapped, up to OSHM_REDUCE_STAGE_MAX_PES PEs: each PE
 * copies its source into its staging area (coll_deferred.c) and tells
 * every peer; once all have told it, it combines the staged vectors in PE
 * order straight into its dest (which may be its source: nobody reads that)
 * and tells each peer that it is done with theirs. One wait where
 * reduce_whole has two barriers; the wait for the peers to be done with the
 * staging area comes when this PE next enters a collective that would
 * overwrite it (or a barrier). The signals count, so a fast PE's signal
 * for the next call may arrive early: it cannot arrive before this PE has
 * taken this call's, since that PE first waits for this one's ack. */
static void reduce_staged(const struct oshm_pe_set *s, void *dest, const void *source,
                          size_t nreduce, size_t elem, oshm_combine_fn combine)
{
    size_t bytes = nreduce * elem;
    char *stage = oshm_coll_stage();
    oshm_coll_settle();
    memcpy(stage, source, bytes);
    oshm_coll_staged_round(s, "reduce");
    /* From PE 0's copy in dest; then every other's, in PE order. */
    for (int i = 0; i < s->size; i++) {
        const void *in = mapped(s, i, stage);
        if (i == 0)
            memmove(dest, in, bytes);
        else
            combine(dest, in, nreduce);
    }
    oshm_coll_staged_done(s, "reduce");
}

/* Up to OSHM_REDUCE_PUSH_MAX_BYTES, every peer mapped, a job of up to
 * OSHM_REDUCE_STAGE_MAX_PES PEs: each PE pushes its source into every PE's
 * slot for it (the slot of its own PE number, which no other PE writes)
 * and then, in the slot's last cache line, the sequence number of the push;
 * each PE waits for that word in each slot in PE order (the data is there
 * once it is), combines straight into dest and tells the slot's writer
 * with a plain store, which the writer checks before its next push there.
 * Against reduce_staged, the receiver's one wait brings the data with it
 * (there: told, then fetch) and no locked instruction on a peer's line
 * stalls either side: at 2 PEs, 8-128 B, 0.33-0.53 us against 0.59-0.75
 * staged and 0.59-0.84 for OSHMEM, on a machine where a cache line took
 * some 450 ns to cross between the cores. Larger vectors stage: n pushed
 * copies cost more than they save (2 KiB: 1.9 against 1.3 us). */
static void reduce_pushed(const struct oshm_pe_set *s, void *dest, const void *source,
                          size_t nreduce, size_t elem, oshm_combine_fn combine)
{
    size_t bytes = nreduce * elem;
    size_t lines = (bytes + OSHM_REDUCE_LINE_DATA - 1) / OSHM_REDUCE_LINE_DATA;
    int n = s->size, me = hcomm.my_pe;
    for (int k = 1; k <= n; k++) {
        int pe = oshm_set_pe(s, (s->my_index + k) % n);
        struct oshm_coll_line *slot = oshm_coll_slot(me);
        if (pe != me)
            slot = hcomm_ptr(slot, pe, "reduce");
        int64_t seq = oshm_coll_push_begin(pe);
        for (size_t l = 0, at = 0; l < lines; l++, at += OSHM_REDUCE_LINE_DATA) {
            size_t len = bytes - at < OSHM_REDUCE_LINE_DATA ? bytes - at : OSHM_REDUCE_LINE_DATA;
            memcpy(slot[l].data, (const char *)source + at, len);
        }
        atomic_store_explicit((_Atomic int64_t *)&slot[lines - 1].seq, seq, memory_order_release);
    }
    /* One wait for all the slots: where PEs share cores each wait that
     * finds nothing may cost a trip through the scheduler. */
    int64_t want[OSHM_REDUCE_STAGE_MAX_PES];
    for (int i = 0; i < n; i++)
        want[i] = oshm_coll_take_seq(oshm_set_pe(s, i));
    uint32_t spins = 0;
    for (int i = 0; i < n;) {
        const _Atomic int64_t *seq =
            (const _Atomic int64_t *)&oshm_coll_slot(oshm_set_pe(s, i))[lines - 1].seq;
        if (atomic_load_explicit(seq, memory_order_acquire) >= want[i]) {
            i++;
            spins = 0;
        } else {
            oshm_spin_step(&spins);
        }
    }
    _Alignas(64) unsigned char in[OSHM_REDUCE_PUSH_MAX_BYTES];
    for (int i = 0; i < n; i++) {
        int pe = oshm_set_pe(s, i);
        struct oshm_coll_line *slot = oshm_coll_slot(pe);
        int64_t seq = want[i];
        for (size_t l = 0, at = 0; l < lines; l++, at += OSHM_REDUCE_LINE_DATA) {
            size_t len = bytes - at < OSHM_REDUCE_LINE_DATA ? bytes - at : OSHM_REDUCE_LINE_DATA;
            memcpy(in + at, slot[l].data, len);
        }
        oshm_coll_take_done(pe, seq);
        if (i == 0)
            memcpy(dest, in, bytes);
        else
            combine(dest, in, nreduce);
    }
}

static bool stageable(const struct oshm_pe_set *s, size_t bytes)
{
    return bytes <= OSHM_REDUCE_STAGE_BYTES && oshm_coll_stageable(s);
}

/* Large: reduce-scatter then allgather. PE c combines chunk c of every PE's
 * source straight from the mapped memory into its own dest, one cache-sized
 * block at a time, and puts each finished block into every other PE's dest
 * while it is still in cache. Only PE c touches chunk c anywhere, so dest
 * may be source. */
static void reduce_scatter_allgather(const struct oshm_pe_set *s, void *dest, const void *source,
                                     size_t nreduce, size_t elem, oshm_combine_fn combine)
{
    size_t n = (size_t)s->size, c = (size_t)s->my_index;
    size_t lo = nreduce * c / n, hi = nreduce * (c + 1) / n;
    /* A peer that only gets reach costs a round trip per block: larger
     * blocks then. */
    bool all_mapped = true;
    for (int k = 1; k < s->size; k++)
        all_mapped = all_mapped && mapped(s, (s->my_index + k) % s->size, source);
    size_t block_bytes = all_mapped ? OSHM_REDUCE_BLOCK_BYTES : OSHM_REDUCE_GET_BLOCK_BYTES;
    size_t block = block_bytes / elem ? block_bytes / elem : 1;
    char *in = all_mapped ? NULL : oshm_coll_scratch(block * elem, "reduce");
    oshm_barrier_sync(s);
    for (size_t at = lo; at < hi; at += block) {
        size_t count = hi - at < block ? hi - at : block, off = at * elem, bytes = count * elem;
        char *acc = (char *)dest + off;
        const char *mine = (const char *)source + off;
        if (acc != mine)
            memmove(acc, mine, bytes);
        for (int k = 1; k < s->size; k++)
            combine(acc, peer_data(s, (s->my_index + k) % s->size, mine, bytes, in), count);
        for (int k = 1; k < s->size; k++)
            hcomm_put(CH, acc, acc, bytes, oshm_set_pe(s, (s->my_index + k) % s->size), true,
                      "reduce");
    }
    hcomm_quiet(CH);
    oshm_barrier_sync(s);
}

/* Over a network (coll_net.h, coll_hier.h), where the set has receive
 * space of its own (a team's, an active set's pWrk) big enough for the
 * steps' words: true when done. */
static bool reduce_net(const struct oshm_pe_set *s, void *dest, const void *source,
                       size_t nreduce, size_t elem, oshm_combine_fn combine)
{
    struct oshm_set_nodes nodes;
    bool pays = oshm_set_nodes(s, &nodes);
    if (nodes.all_mapped ||
        !oshm_net_allreduce_fits(s, pays ? nodes.n_leaders : s->size, nreduce, elem))
        return false;
    if (pays) {
        oshm_hier_allreduce(s, &nodes, dest, source, nreduce, elem, combine);
        return true;
    }
    struct oshm_net_group g = {.index = NULL, .n = s->size, .me = s->my_index};
    oshm_net_allreduce(s, &g, dest, source, nreduce, elem, combine);
    return true;
}

void oshm_reduce(const struct oshm_pe_set *s, void *dest, const void *source, size_t nreduce,
                 size_t elem, oshm_combine_fn combine)
{
    if (nreduce == 0)
        return;
    if (s->size == 1) {
        if (dest != source)
            memmove(dest, source, nreduce * elem);
        return;
    }
    if (reduce_net(s, dest, source, nreduce, elem, combine))
        return;
    bool small = nreduce * elem <= OSHM_REDUCE_WHOLE_MAX_BYTES;
    bool staged = stageable(s, nreduce * elem);
    if (small &&
        (s->size > OSHM_REDUCE_GROUPED_MIN_PES || oshm_env.coll_reduce == OSHM_REDUCE_GROUPED) &&
        oshm_coll_all_load_store(s))
        reduce_grouped(s, dest, source, nreduce, elem, combine);
    else if (staged && nreduce * elem <= OSHM_REDUCE_PUSH_MAX_BYTES &&
        hcomm.n_pes <= OSHM_REDUCE_STAGE_MAX_PES)
        reduce_pushed(s, dest, source, nreduce, elem, combine);
    else if (staged)
        reduce_staged(s, dest, source, nreduce, elem, combine);
    else if (small || nreduce < (size_t)s->size)
        reduce_whole(s, dest, source, nreduce, elem, combine);
    else
        reduce_scatter_allgather(s, dest, source, nreduce, elem, combine);
}
