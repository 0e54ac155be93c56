#include "team/coll_net.h"

#include <string.h>

#include "hcomm/hcomm.h"
#include "team/coll_nodes.h"

#define CH (&hcomm.default_channel)

bool oshm_net_set(const struct oshm_pe_set *s)
{
    struct oshm_set_nodes nodes;
    (void)oshm_set_nodes(s, &nodes);
    return !nodes.all_mapped;
}

/* BYTES of FROM to rank R's AT (the same symmetric address), announced on
 * its WORD. */
static void send_to(const struct oshm_pe_set *s, const struct oshm_net_group *g, int r, void *at,
                    const void *from, size_t bytes, int64_t *word, const char *routine)
{
    hcomm_notify(CH, at, from, bytes, (uint64_t *)word, oshm_net_pe(s, g, r), routine);
}

static void await(const struct oshm_pe_set *s, int64_t *word, size_t bytes)
{
    oshm_take_i64(word, s->idle, hcomm_notify_units(bytes));
}

/* ---- broadcast ---- */

/* The binomial tree of relative ranks: the children of REL are REL + m for
 * each power of two m below REL's lowest set bit (every power below n for
 * the root), the farthest first (the largest subtree starts soonest). */
static int lowest_bit_above(int rel, int n)
{
    int low = 1;
    while (low < n && !(rel & low))
        low <<= 1;
    return low;
}

void oshm_net_ack(const struct oshm_pe_set *s, int parent)
{
    int64_t *word = oshm_coll_defer() ? oshm_coll_ack_word() : &s->sync[OSHM_SYNC_DONE_WORD];
    hcomm_notify(CH, NULL, NULL, 0, (uint64_t *)word, oshm_set_pe(s, parent), "broadcast");
}

void oshm_net_expect_acks(const struct oshm_pe_set *s, int children)
{
    if (!children)
        return;
    if (oshm_coll_defer())
        oshm_coll_expect(children);
    else
        oshm_take_i64(&s->sync[OSHM_SYNC_DONE_WORD], s->idle, children);
}

static void bcast_tree(const struct oshm_pe_set *s, const struct oshm_net_group *g, int root,
                       void *dest, const void *source, size_t bytes, int64_t *word, bool ack)
{
    int n = g->n, rel = (g->me - root + n) % n, children = 0;
    if (rel)
        await(s, word, bytes);
    const void *from = rel ? dest : source;
    int low = lowest_bit_above(rel, n);
    /* Promised before any child can answer. */
    for (int m = low >> 1; m >= 1; m >>= 1)
        children += rel + m < n;
    if (ack && oshm_coll_defer())
        oshm_coll_expect(children);
    for (int m = low >> 1; m >= 1; m >>= 1)
        if (rel + m < n)
            send_to(s, g, (root + rel + m) % n, dest, from, bytes, word, "broadcast");
    if (!ack)
        return;
    if (rel)
        oshm_net_ack(s, g->index ? g->index[(root + rel - (rel & -rel)) % n]
                                 : (root + rel - (rel & -rel)) % n);
    if (!oshm_coll_defer())
        oshm_net_expect_acks(s, children);
}

/* Where relative rank I's piece of BYTES starts. */
static size_t piece_at(size_t bytes, int i, int n) { return bytes * (size_t)i / (size_t)n; }

/* Large: the root scatters pieces down the binomial tree (a subtree's pieces
 * are one contiguous run, sent as one), then a ring passes every piece
 * round: each PE sends about the message twice, the root no more than the
 * others. Pieces sit in dest at their final place all along. */
static void bcast_scatter_ring(const struct oshm_pe_set *s, const struct oshm_net_group *g,
                               int root, void *dest, const void *source, size_t bytes,
                               int64_t *word)
{
    int n = g->n, rel = (g->me - root + n) % n;
    char *d = dest;
    const char *src = source;
    int low = lowest_bit_above(rel, n);
    int span = low < n - rel ? low : n - rel; /* this PE's subtree: ranks rel .. rel+span-1 */
    size_t mine = piece_at(bytes, rel, n), end = piece_at(bytes, rel + span, n);
    if (rel) {
        await(s, word, end - mine);
    } else if (d != src) {
        memmove(d, src, bytes); /* the root's own copy, then it sends from dest */
    }
    for (int m = low >> 1; m >= 1; m >>= 1) {
        if (rel + m >= n)
            continue;
        int last = rel + 2 * m < n ? rel + 2 * m : n;
        size_t lo = piece_at(bytes, rel + m, n), hi = piece_at(bytes, last, n);
        send_to(s, g, (root + rel + m) % n, d + lo, d + lo, hi - lo, word, "broadcast");
    }
    /* Ring: in step t a PE passes piece rel - t on to rel + 1. */
    int64_t *ring = &s->sync[OSHM_SYNC_DONE_WORD];
    size_t got = 0;
    for (int t = 0; t < n - 1; t++) {
        int p = (rel - t + n) % n;
        size_t lo = piece_at(bytes, p, n), hi = piece_at(bytes, p + 1, n);
        send_to(s, g, (root + rel + 1) % n, d + lo, d + lo, hi - lo, ring, "broadcast");
        int q = (rel - t - 1 + n) % n;
        got += (size_t)hcomm_notify_units(piece_at(bytes, q + 1, n) - piece_at(bytes, q, n));
        oshm_wait_i64_ge(ring, s->idle + (int64_t)got);
    }
    if (got)
        oshm_take_i64(ring, s->idle, (int64_t)got);
}

void oshm_net_bcast(const struct oshm_pe_set *s, const struct oshm_net_group *g, int root,
                    void *dest, const void *source, size_t bytes, int64_t *word,
                    enum oshm_coll_form form)
{
    if (g->n < 2)
        return;
    /* The scatter and ring pass pieces through the root's dest; a team's
     * broadcast started with a barrier, so nobody acknowledges. */
    if (form == OSHM_COLL_TEAM && bytes > OSHM_NET_BCAST_TREE_MAX && g->n >= 3 &&
        bytes >= (size_t)g->n)
        bcast_scatter_ring(s, g, root, dest, source, bytes, word);
    else
        bcast_tree(s, g, root, dest, source, bytes, word, form == OSHM_COLL_ACTIVE_SET);
}

/* ---- allreduce ---- */

/* The fold that leaves a power of two of PEs: of the first 2r ranks
 * (r = n - p2), the even ones hand their vector to the odd one after them
 * and wait for the result; the rest renumber 0 .. p2 - 1. */
struct fold {
    int p2, r;
    int nr;     /* this PE's rank among the p2, or -1 (it handed over) */
    int steps;  /* log2 p2 */
};

static struct fold fold_of(const struct oshm_net_group *g)
{
    struct fold f = {.p2 = 1};
    while (f.p2 * 2 <= g->n) {
        f.p2 *= 2;
        f.steps++;
    }
    f.r = g->n - f.p2;
    int me = g->me;
    f.nr = me < 2 * f.r ? (me % 2 ? me / 2 : -1) : me - f.r;
    return f;
}

/* Group rank of the PE of new rank NR. */
static int rank_of(const struct fold *f, int nr) { return nr < f->r ? 2 * nr + 1 : nr + f->r; }

static int64_t *rstep_word(const struct oshm_pe_set *s, int k)
{
    return &s->sync[OSHM_SYNC_RSTEP_WORD + k];
}

/* ACC (N elements) := LOWER op UPPER, where this PE's own partial is ACC and
 * the partner's is IN: the same operands in the same order on both
 * partners, so that both get the same bits for floating point. */
static void combine_ordered(char *acc, char *in, size_t n, size_t elem, bool mine_lower,
                            oshm_combine_fn combine)
{
    if (mine_lower) {
        combine(acc, in, n);
    } else {
        combine(in, acc, n);
        memcpy(acc, in, n * elem);
    }
}

/* Recursive doubling over the p2 ranks on one chunk in ACC: in step k the
 * partners nr and nr ^ 2^k swap whole partials; step k's arrives in slot k
 * (after the fold's). */
static void rdbl_chunk(const struct oshm_pe_set *s, const struct oshm_net_group *g,
                       const struct fold *f, char *acc, size_t count, size_t elem,
                       oshm_combine_fn combine, char *scratch)
{
    size_t bytes = count * elem;
    for (int k = 0; k < f->steps; k++) {
        int partner = f->nr ^ (1 << k);
        char *slot = scratch + (size_t)(1 + k) * bytes;
        send_to(s, g, rank_of(f, partner), slot, acc, bytes, rstep_word(s, k), "reduce");
        await(s, rstep_word(s, k), bytes);
        combine_ordered(acc, slot, count, elem, f->nr < partner, combine);
    }
}

/* Rabenseifner over the p2 ranks on one chunk: reduce-scatter by recursive
 * halving (the partners of distance m split their common range, each
 * sending the other's half and combining the half it keeps; the slot of
 * each step follows the last), so that rank nr ends with block nr; then
 * allgather by recursive doubling, each block written straight into the
 * peers' dest (the ranges written there are ones their owner has sent
 * away and no longer reads). ACC is this chunk in dest; DEST_AT is the
 * same place in every PE's dest. */
static void rabenseifner_chunk(const struct oshm_pe_set *s, const struct oshm_net_group *g,
                               const struct fold *f, char *acc, size_t count, size_t elem,
                               oshm_combine_fn combine, char *scratch)
{
    size_t lo = 0, hi = count, slot_at = count * elem; /* after the fold's slot */
    size_t los[OSHM_COLL_MAX_STEPS], his[OSHM_COLL_MAX_STEPS];
    for (int k = f->steps - 1; k >= 0; k--) {
        int m = 1 << k, partner = f->nr ^ m;
        bool lower = !(f->nr & m);
        size_t mid = lo + (hi - lo) / 2;
        size_t keep_lo = lower ? lo : mid, keep_hi = lower ? mid : hi;
        size_t give_lo = lower ? mid : lo, give_hi = lower ? hi : mid;
        los[k] = lo;
        his[k] = hi;
        char *slot = scratch + slot_at;
        /* The partner's slot for this step is at the same place, sized for
         * its kept half, which is the half this PE gives. */
        send_to(s, g, rank_of(f, partner), slot, acc + give_lo * elem, (give_hi - give_lo) * elem,
                rstep_word(s, k), "reduce");
        await(s, rstep_word(s, k), (keep_hi - keep_lo) * elem);
        combine_ordered(acc + keep_lo * elem, slot, keep_hi - keep_lo, elem, lower, combine);
        slot_at += ((hi - lo + 1) / 2) * elem; /* room for the larger half */
        lo = keep_lo;
        hi = keep_hi;
    }
    for (int k = 0; k < f->steps; k++) {
        int partner = f->nr ^ (1 << k);
        /* This PE holds [lo, hi) of the range [los[k], his[k]) it split in
         * step k; the partner holds the rest. */
        size_t plo = lo == los[k] ? hi : los[k], phi = lo == los[k] ? his[k] : lo;
        send_to(s, g, rank_of(f, partner), acc + lo * elem, acc + lo * elem, (hi - lo) * elem,
                rstep_word(s, k), "reduce");
        await(s, rstep_word(s, k), (phi - plo) * elem);
        lo = los[k];
        hi = his[k];
    }
}

/* Receive space that rabenseifner_in_dest needs in the scratch: the kept
 * halves of every step after the first. */
static size_t later_slots(const struct fold *f, size_t count)
{
    size_t need = 0, n = count;
    for (int k = f->steps - 1; k >= 0; k--) {
        if (k < f->steps - 1)
            need += (n + 1) / 2;
        n = (n + 1) / 2;
    }
    return need;
}

/* The block [*LO, *HI) of COUNT that new rank R ends the recursive halving
 * with. */
static void block_of(const struct fold *f, size_t count, int r, size_t *lo, size_t *hi)
{
    *lo = 0;
    *hi = count;
    for (int k = f->steps - 1; k >= 0; k--) {
        size_t mid = *lo + (*hi - *lo) / 2;
        if (r & (1 << k))
            *lo = mid;
        else
            *hi = mid;
    }
}

/* Rabenseifner on the whole vector at once, at a power of two of PEs: the
 * first step, half the vector, lands straight in the partner's dest at the
 * range the partner keeps (this PE sends from PART, its own partial, and
 * never reads its dest there before the data has come); the smaller later
 * steps land in the scratch, each in its own place. Where the scratch held
 * only a few of the first step's elements, a vector went in chunks, each
 * paying every step's latency (64 KiB at 4 PEs: 8 chunks of 4 dependent
 * messages, 2.3 ms against OSHMEM's 0.44 over tcp; 0.41 now).
 * A partner writes this PE's dest only once this PE has said it is in the
 * call (one small message, sent as the call starts, in the shadow of the
 * partner's own start): a program may still be reading the dest of its
 * last call, or hold its source there, until it makes this one. No later
 * write needs that: every other message to this PE carries data that this
 * PE's own sends in this call went into, or comes after them in its
 * sender's steps. Each range is combined by one PE only, so the order of
 * the operands cannot make PEs disagree. */
static void rabenseifner_in_dest(const struct oshm_pe_set *s, const struct oshm_net_group *g,
                                 const struct fold *f, char *dest, const char *part, size_t count,
                                 size_t elem, oshm_combine_fn combine, char *scratch)
{
    size_t lo = 0, hi = count, slot_at = 0;
    size_t los[OSHM_COLL_MAX_STEPS], his[OSHM_COLL_MAX_STEPS];
    int64_t *entered = &s->sync[OSHM_SYNC_STEP_WORD]; /* fcollect's; not in use here */
    send_to(s, g, rank_of(f, f->nr ^ (1 << (f->steps - 1))), NULL, NULL, 0, entered, "reduce");
    oshm_take_i64(entered, s->idle, 1);
    for (int k = f->steps - 1; k >= 0; k--) {
        int m = 1 << k, partner = f->nr ^ m;
        bool lower = !(f->nr & m), first = k == f->steps - 1;
        size_t mid = lo + (hi - lo) / 2;
        size_t keep_lo = lower ? lo : mid, keep_hi = lower ? mid : hi;
        size_t give_lo = lower ? mid : lo, give_hi = lower ? hi : mid;
        los[k] = lo;
        his[k] = hi;
        char *slot = first ? dest + give_lo * elem : scratch + slot_at;
        const char *from = first ? part : dest;
        send_to(s, g, rank_of(f, partner), slot, from + give_lo * elem,
                (give_hi - give_lo) * elem, rstep_word(s, k), "reduce");
        await(s, rstep_word(s, k), (keep_hi - keep_lo) * elem);
        char *acc = dest + keep_lo * elem;
        if (first)
            combine(acc, part + keep_lo * elem, keep_hi - keep_lo); /* acc holds the partner's */
        else
            combine(acc, scratch + slot_at, keep_hi - keep_lo);
        if (!first)
            slot_at += ((hi - lo + 1) / 2) * elem;
        lo = keep_lo;
        hi = keep_hi;
    }
    if (f->p2 <= OSHM_NET_ALLGATHER_DIRECT_MAX) {
        /* Each block straight to every PE: one step where recursive
         * doubling takes log2 n, the same bytes. A peer's range of this
         * block is one it has already sent away in full (this block could
         * not be final before), and nothing of it is read there again. */
        int64_t *word = &s->sync[OSHM_SYNC_FOLD_WORD]; /* no fold at a power of two */
        int64_t want = 0;
        for (int r = 0; r < f->p2; r++) {
            if (r == f->nr)
                continue;
            size_t rlo, rhi;
            block_of(f, count, r, &rlo, &rhi);
            want += hcomm_notify_units((rhi - rlo) * elem);
            send_to(s, g, rank_of(f, r), dest + lo * elem, dest + lo * elem, (hi - lo) * elem,
                    word, "reduce");
        }
        oshm_take_i64(word, s->idle, want);
        return;
    }
    for (int k = 0; k < f->steps; k++) {
        int partner = f->nr ^ (1 << k);
        size_t plo = lo == los[k] ? hi : los[k], phi = lo == los[k] ? his[k] : lo;
        send_to(s, g, rank_of(f, partner), dest + lo * elem, dest + lo * elem, (hi - lo) * elem,
                rstep_word(s, k), "reduce");
        await(s, rstep_word(s, k), (phi - plo) * elem);
        lo = los[k];
        hi = his[k];
    }
}

void oshm_net_allreduce(const struct oshm_pe_set *s, const struct oshm_net_group *g,
                        void *dest, const void *source, size_t count, size_t elem,
                        oshm_combine_fn combine)
{
    char *d = dest;
    const char *src = source;
    /* Two halves, the second as aligned as the first: a pWrk of an odd
     * number of ints would start it mid-long. */
    size_t scratch_bytes = s->scratch_bytes / 2 / elem * elem;
    uint32_t turn = s->calls ? *s->calls : 0; /* which half the next chunk takes */
    struct fold f = fold_of(g);
    bool rdbl = count * elem <= OSHM_NET_REDUCE_RDBL_MAX || count < (size_t)f.p2;
    /* A team's calls follow each other with no barrier: they take the
     * halves of its scratch in turn; an active set's program hands over a
     * pWrk that nobody uses any more. */
    size_t whole_room = s->calls ? scratch_bytes : s->scratch_bytes;
    if (!rdbl && f.r == 0 && later_slots(&f, count) * elem <= whole_room) {
        const char *part = src;
        if (d == src) { /* the first step receives in dest: this PE's partial elsewhere */
            char *own = oshm_coll_scratch(count * elem, "reduce");
            memcpy(own, src, count * elem);
            part = own;
        }
        char *sc = (char *)s->scratch + (s->calls ? (turn % 2) * scratch_bytes : 0);
        rabenseifner_in_dest(s, g, &f, d, part, count, elem, combine, sc);
        if (s->calls)
            *s->calls = turn + 1;
        return;
    }
    /* Per chunk: recursive doubling, the fold's slot and one per step;
     * Rabenseifner, the fold's slot and the halves, less than two chunks
     * (plus an element a step for uneven halves). */
    size_t per_chunk = rdbl ? (size_t)(1 + f.steps) : 2;
    size_t room = scratch_bytes > (size_t)f.steps * elem ? scratch_bytes - (size_t)f.steps * elem
                                                          : 0;
    size_t chunk = room / per_chunk / elem;
    if (chunk == 0)
        chunk = 1; /* the caller's scratch holds at least a few elements */
    int64_t *fold_word = &s->sync[OSHM_SYNC_FOLD_WORD];
    for (size_t at = 0; at < count; at += chunk, turn++) {
        size_t n = count - at < chunk ? count - at : chunk, bytes = n * elem;
        char *sc = (char *)s->scratch + (turn % 2) * scratch_bytes;
        char *acc = d + at * elem;
        const char *mine = src + at * elem;
        if (f.nr < 0) { /* hand over, wait for the result */
            send_to(s, g, g->me + 1, sc, mine, bytes, fold_word, "reduce");
            await(s, fold_word, bytes);
            continue;
        }
        if (acc != mine)
            memmove(acc, mine, bytes);
        if (g->me < 2 * f.r) { /* the even rank before this one handed over */
            await(s, fold_word, bytes);
            combine_ordered(acc, sc, n, elem, false, combine);
        }
        if (rdbl)
            rdbl_chunk(s, g, &f, acc, n, elem, combine, sc);
        else
            rabenseifner_chunk(s, g, &f, acc, n, elem, combine, sc);
        if (g->me < 2 * f.r)
            send_to(s, g, g->me - 1, acc, acc, bytes, fold_word, "reduce");
    }
    if (s->calls)
        *s->calls = turn;
}

/* ---- alltoall and collect ---- */

void oshm_net_alltoall(const struct oshm_pe_set *s, void *dest, const void *source,
                       size_t bytes, enum oshm_coll_form form)
{
    /* A team's next call may reuse the words at once: every PE in this call
     * first (a fast PE's blocks for the next call must not meet this one). */
    if (form == OSHM_COLL_TEAM)
        oshm_barrier_sync(s);
    int n = s->size, me = s->my_index;
    int64_t *done = &s->sync[OSHM_SYNC_DONE_WORD];
    char *at = (char *)dest + (size_t)me * bytes;
    const char *src = source;
    memmove(at, src + (size_t)me * bytes, bytes);
    for (int k = 1; k < n; k++) {
        int j = (me + k) % n;
        hcomm_notify(CH, at, src + (size_t)j * bytes, bytes, (uint64_t *)done, oshm_set_pe(s, j),
                     "alltoall");
    }
    if (n > 1)
        oshm_take_i64(done, s->idle, (int64_t)(n - 1) * hcomm_notify_units(bytes));
}

void oshm_net_collect(const struct oshm_pe_set *s, void *dest, const void *source,
                      size_t bytes, int64_t *sizes, enum oshm_coll_form form)
{
    if (form == OSHM_COLL_TEAM)
        oshm_barrier_sync(s);
    int n = s->size, me = s->my_index;
    int64_t *offset_word = &s->sync[OSHM_SYNC_OFFSET_WORD];
    int64_t *done = &s->sync[OSHM_SYNC_DONE_WORD];
    /* Every PE's size at every PE, all at once. */
    sizes[me] = (int64_t)bytes;
    for (int k = 1; k < n; k++) {
        int j = (me + k) % n;
        hcomm_notify(CH, &sizes[me], &sizes[me], sizeof *sizes, (uint64_t *)offset_word,
                     oshm_set_pe(s, j), "collect");
    }
    oshm_take_i64(offset_word, s->idle, (int64_t)(n - 1) * hcomm_notify_units(sizeof *sizes));
    size_t offset = 0, total = 0;
    for (int i = 0; i < n; i++) {
        if (i < me)
            offset += (size_t)sizes[i];
        total += (size_t)sizes[i];
    }
    char *at = (char *)dest + offset;
    memmove(at, source, bytes);
    for (int k = 1; k < n; k++) {
        int j = (me + k) % n;
        hcomm_notify(CH, at, source, bytes, (uint64_t *)done, oshm_set_pe(s, j), "collect");
    }
    /* The others' blocks, each announced by its byte count (an empty one by
     * one). */
    int64_t want = 0;
    for (int i = 0; i < n; i++)
        if (i != me)
            want += hcomm_notify_units((size_t)sizes[i]);
    oshm_take_i64(done, s->idle, want);
    (void)total;
}
