#include "team/coll_net.h"

#include <stdatomic.h>
#include <string.h>

#include "hcomm/hcomm.h"
#include "team/coll_nodes.h"
#include "team/coll_turns.h"
#include "util/log.h"

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

/* SHMEM_DEBUG: the algorithm a collective took, once per algorithm in a
 * process, with the first call's size. */
#define SAY_ONCE OSHM_DEBUG_ONCE

static void await(const struct oshm_pe_set *s, int64_t *word, size_t bytes)
{
    oshm_take_i64(word, s->idle, hcomm_notify_units(bytes));
}

/* ---- mail (hcomm_mail) ---- */

/* Messages that land in the receiver's own memory need no receive space
 * at the receiver and so no word from it that it is in the call: they are
 * tagged by what they are and by the count of the pair's exchanges of that
 * kind, which both PEs of a pair keep alike (coll_turns.h, on an array of
 * its own), so that a fast partner's next message never stands for this
 * call's. */
#define MAIL_SEG 255 /* a segment number no array has: the turns of mail */
#define MAIL_FOLD OSHM_COLL_MAX_STEPS
#define MAIL_UNFOLD (OSHM_COLL_MAX_STEPS + 1)
#define MAIL_BCAST (OSHM_COLL_MAX_STEPS + 2)

static uint64_t mail_tag(int k, uint32_t turn) { return (uint64_t)(uint32_t)k << 32 | turn; }

/* The tag of the next exchange of kind K with world PE PE. */
static uint64_t mail_next(int pe, int k) { return mail_tag(k, oshm_coll_turn(MAIL_SEG, 0, pe, k)); }

static bool mail_pair(const struct oshm_pe_set *s, const struct oshm_net_group *g, int a, int b)
{
    return hcomm_mail_between(oshm_net_pe(s, g, a), oshm_net_pe(s, g, b));
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

/* Children REL + m of relative rank REL: flat (up to
 * OSHM_NET_BCAST_FLAT_MAX PEs) every m below n for the root, none for the
 * others; a tree every power of two below REL's lowest set bit. The
 * farthest first either way: m from tree_first_child while m >= 1, then
 * tree_next_child (a child only where REL + m < n). */
static int tree_first_child(int rel, int n)
{
    return n <= OSHM_NET_BCAST_FLAT_MAX ? (rel ? 0 : n - 1) : lowest_bit_above(rel, n) >> 1;
}

static int tree_next_child(int m, int n) { return n <= OSHM_NET_BCAST_FLAT_MAX ? m - 1 : m >> 1; }

/* The parent of relative rank REL. */
static int tree_parent(int rel, int n)
{
    return n <= OSHM_NET_BCAST_FLAT_MAX ? 0 : rel - (rel & -rel);
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
    /* Promised before any child can answer. */
    for (int m = tree_first_child(rel, n); m >= 1; m = tree_next_child(m, n))
        children += rel + m < n;
    if (ack && oshm_coll_defer())
        oshm_coll_expect(children);
    for (int m = tree_first_child(rel, n); m >= 1; m = tree_next_child(m, n))
        if (rel + m < n)
            send_to(s, g, (root + rel + m) % n, dest, from, bytes, word, "broadcast");
    if (!ack)
        return;
    if (rel) {
        int parent = (root + tree_parent(rel, n)) % n;
        oshm_net_ack(s, g->index ? g->index[parent] : parent);
    }
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

/* Whether an active set's broadcast of BYTES goes by mail: every pair of
 * the tree takes it. Where PEs outnumber cores, OSU's figure (the call
 * alone, a barrier after it untimed) is worse in mail at 4 PEs on 2 cores
 * (35-60 us a call against 21-33 acknowledged): a root that leaves at once
 * is the first into the barrier, waits there yielding its core, and is the
 * last out, after the receivers have begun to wait for it. The loop that
 * figure comes from is faster in mail all the same, the time moving from
 * the call into the barrier and less of it in all: a broadcast and a
 * barrier, 137-163 us against 180-202 at 4 PEs, 457-464 against 579-853 at
 * 8, 288-309 against 291-385 at 8 as 4 nodes of 2; with no barrier
 * between calls, 20 against 100-130 at 4. */
static bool bcast_mail_serves(const struct oshm_pe_set *s, const struct oshm_net_group *g,
                              int root, size_t bytes)
{
    int n = g->n;
    if (!oshm_coll_defer() || bytes > OSHM_NET_BCAST_MAIL_MAX)
        return false;
    if (!hcomm.node_mapped)
        return mail_pair(s, g, 0, 1);
    if (n > OSHM_NET_MAIL_CHECK_MAX)
        return false;
    for (int rel = 1; rel < n; rel++)
        if (!mail_pair(s, g, (root + rel) % n, (root + tree_parent(rel, n)) % n))
            return false;
    return true;
}

/* bcast_tree in mail: a receiver takes its parent's message into dest
 * when it gets there and passes it on. The root writes nobody's dest, so
 * nobody acknowledges: a root may start its next broadcast, on either
 * pSync and with either dest, at once (2 and 4 PEs over tcp: the receivers'
 * acknowledgement was a message each inside their call). */
static void bcast_mail(const struct oshm_pe_set *s, const struct oshm_net_group *g, int root,
                       void *dest, const void *source, size_t bytes)
{
    int n = g->n, rel = (g->me - root + n) % n;
    if (rel) {
        int parent = oshm_net_pe(s, g, (root + tree_parent(rel, n)) % n);
        hcomm_mail_take(parent, mail_next(parent, MAIL_BCAST), dest, bytes);
    }
    const void *from = rel ? dest : source;
    for (int m = tree_first_child(rel, n); m >= 1; m = tree_next_child(m, n))
        if (rel + m < n) {
            int child = oshm_net_pe(s, g, (root + rel + m) % n);
            hcomm_mail(CH, child, mail_next(child, MAIL_BCAST), from, bytes, "broadcast");
        }
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
        bytes >= (size_t)g->n) {
        SAY_ONCE("broadcast over a network: scatter down a binomial tree, then a ring (%d PEs, "
                 "%zu bytes)", g->n, bytes);
        bcast_scatter_ring(s, g, root, dest, source, bytes, word);
    } else if (form == OSHM_COLL_ACTIVE_SET && bcast_mail_serves(s, g, root, bytes)) {
        SAY_ONCE("broadcast over a network: mail down a binomial tree (flat up to %d PEs), no "
                 "acknowledgements (%d PEs, %zu bytes)", OSHM_NET_BCAST_FLAT_MAX, g->n, bytes);
        bcast_mail(s, g, root, dest, source, bytes);
    } else {
        if (form == OSHM_COLL_ACTIVE_SET)
            SAY_ONCE("broadcast over a network: notifies down a binomial tree (flat up to %d "
                     "PEs), receivers acknowledge (%d PEs, %zu bytes)", OSHM_NET_BCAST_FLAT_MAX,
                     g->n, bytes);
        else
            SAY_ONCE("broadcast over a network: notifies down a binomial tree (flat up to %d "
                     "PEs) after a barrier (%d PEs, %zu bytes)", OSHM_NET_BCAST_FLAT_MAX, g->n,
                     bytes);
        bcast_tree(s, g, root, dest, source, bytes, word, form == OSHM_COLL_ACTIVE_SET);
    }
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

/* Rabenseifner's allgather by recursive doubling: this PE holds [LO, HI)
 * of BASE (the same place in every PE's dest) once the halving is done,
 * and in step k swaps with its partner of the halving's step k the rest of
 * the range [LOS[k], HIS[k]) split there, written straight into the
 * partner's dest (a range its owner has sent away and no longer reads). */
static void rab_allgather(const struct oshm_pe_set *s, const struct oshm_net_group *g,
                          const struct fold *f, char *base, size_t lo, size_t hi,
                          const size_t *los, const size_t *his, size_t elem)
{
    for (int k = 0; k < f->steps; k++) {
        int partner = f->nr ^ (1 << k);
        size_t plo = lo == los[k] ? hi : los[k], phi = lo == los[k] ? his[k] : lo;
        send_to(s, g, rank_of(f, partner), base + lo * elem, base + lo * elem, (hi - lo) * elem,
                rstep_word(s, k), "reduce");
        await(s, rstep_word(s, k), (phi - plo) * elem);
        lo = los[k];
        hi = his[k];
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
    rab_allgather(s, g, f, acc, lo, hi, los, his, elem);
}

/* Receive space that rabenseifner_whole needs in the scratch: the kept
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

/* Where the steps of rabenseifner_whole land at the receiver. */
struct rab_slots {
    char *first;       /* the first step's: NULL for the receiver's dest */
    char *later;       /* the later steps', one after another */
    bool later_tokens; /* later's space is shared: wait for the receiver's word */
};

/* Rabenseifner on the whole vector at once, at a power of two of PEs.
 * Where the receive space held only a few of the first step's elements, a
 * vector went in chunks, each paying every step's latency (64 KiB at 4 PEs:
 * 8 chunks of 4 dependent messages, 1.9-2.4 ms against OSHMEM's 0.41-0.58
 * over tcp; about 0.45 now). The first step (half the vector) lands either
 * in an active set's pWrk (the specification hands it over free, and sized
 * for just that), the later ones then in the library's shared space; or,
 * for a team, in the partner's dest at the range the partner keeps, the
 * later ones in the team's half of its scratch. The shared space and a
 * dest are written only once their PE has said it is in the call (a word
 * sent as the call starts; for the later steps it has arrived by the time
 * the first is done): a program may still read the dest of its last call,
 * or hold its source there, until it makes this one. The allgather's
 * writes into dest need no word: each carries data that the receiver's own
 * sends in this call went into. Each range is combined by one PE only, so
 * the order of the operands cannot make PEs disagree. */
static void rabenseifner_whole(const struct oshm_pe_set *s, const struct oshm_net_group *g,
                               const struct fold *f, char *dest, const char *part, size_t count,
                               size_t elem, oshm_combine_fn combine, const struct rab_slots *at)
{
    size_t lo = 0, hi = count, slot_at = 0;
    size_t los[OSHM_COLL_MAX_STEPS], his[OSHM_COLL_MAX_STEPS];
    /* A word to each partner whose step lands in shared space: step k's
     * on fcollect's word k (not in use here). */
    for (int k = f->steps - 1; k >= 0; k--)
        if (k == f->steps - 1 ? !at->first : at->later_tokens)
            send_to(s, g, rank_of(f, f->nr ^ (1 << k)), NULL, NULL, 0,
                    &s->sync[OSHM_SYNC_STEP_WORD + k], "reduce");
    for (int k = f->steps - 1; k >= 0; k--) {
        int m = 1 << k, partner = f->nr ^ m;
        bool lower = !(f->nr & m), first = k == f->steps - 1;
        size_t mid = lo + (hi - lo) / 2;
        size_t keep_lo = lower ? lo : mid, keep_hi = lower ? mid : hi;
        size_t give_lo = lower ? mid : lo, give_hi = lower ? hi : mid;
        los[k] = lo;
        his[k] = hi;
        char *slot = first ? (at->first ? at->first : dest + give_lo * elem) : at->later + slot_at;
        const char *from = first ? part : dest;
        if (first ? !at->first : at->later_tokens)
            oshm_take_i64(&s->sync[OSHM_SYNC_STEP_WORD + k], s->idle, 1);
        send_to(s, g, rank_of(f, partner), slot, from + give_lo * elem,
                (give_hi - give_lo) * elem, rstep_word(s, k), "reduce");
        await(s, rstep_word(s, k), (keep_hi - keep_lo) * elem);
        char *acc = dest + keep_lo * elem;
        size_t n = keep_hi - keep_lo;
        if (first && !at->first) {
            combine(acc, part + keep_lo * elem, n); /* acc holds the partner's */
        } else if (first) {
            if (part != dest)
                memcpy(acc, part + keep_lo * elem, n * elem);
            combine(acc, at->first, n);
        } else {
            combine(acc, at->later + slot_at, n);
            slot_at += ((hi - lo + 1) / 2) * elem;
        }
        lo = keep_lo;
        hi = keep_hi;
    }
    rab_allgather(s, g, f, dest, lo, hi, los, his, elem);
}

/* Recursive doubling of a whole small vector for an active set, received
 * in the library's own symmetric space (oshm_net_active_scratch) where the
 * pWrk the specification asks for (half the vector, at least
 * SHMEM_REDUCE_MIN_WRKDATA_SIZE elements) would split it into chunks that
 * each pay every step (255 longs at 4 PEs: 13 chunks, 1.4 ms against
 * OSHMEM's 0.11), or was too small for the steps at all (fewer than 72
 * elements took two barriers and a get from every PE: 550 us). A partner
 * writes that space only once this PE has said it is in the call (a word
 * to each partner as the call starts): so calls back to back stay right
 * even where a program reuses one pSync and one pWrk with no barrier
 * between, as programs do for small reductions. */
static void rdbl_tokens(const struct oshm_pe_set *s, const struct oshm_net_group *g,
                        const struct fold *f, char *dest, const char *src, size_t count,
                        size_t elem, oshm_combine_fn combine)
{
    size_t bytes = count * elem;
    char *own = oshm_net_active_scratch();
    int64_t *fold_word = &s->sync[OSHM_SYNC_FOLD_WORD];
    char *fold_slot = own + (size_t)f->steps * bytes;
    if (f->nr < 0) { /* hand over once the partner is in, wait for the result */
        oshm_take_i64(fold_word, s->idle, 1);
        send_to(s, g, g->me + 1, fold_slot, src, bytes, fold_word, "reduce");
        await(s, fold_word, bytes);
        return;
    }
    if (g->me < 2 * f->r)
        send_to(s, g, g->me - 1, NULL, NULL, 0, fold_word, "reduce");
    for (int k = 0; k < f->steps; k++)
        send_to(s, g, rank_of(f, f->nr ^ (1 << k)), NULL, NULL, 0,
                &s->sync[OSHM_SYNC_STEP_WORD + k], "reduce");
    if (dest != src)
        memmove(dest, src, bytes);
    if (g->me < 2 * f->r) {
        await(s, fold_word, bytes);
        combine_ordered(dest, fold_slot, count, elem, false, combine);
    }
    for (int k = 0; k < f->steps; k++) {
        int partner = f->nr ^ (1 << k);
        char *slot = own + (size_t)k * bytes;
        oshm_take_i64(&s->sync[OSHM_SYNC_STEP_WORD + k], s->idle, 1);
        send_to(s, g, rank_of(f, partner), slot, dest, bytes, rstep_word(s, k), "reduce");
        await(s, rstep_word(s, k), bytes);
        combine_ordered(dest, slot, count, elem, f->nr < partner, combine);
    }
    if (g->me < 2 * f->r)
        send_to(s, g, g->me - 1, dest, dest, bytes, fold_word, "reduce");
}

/* Recursive doubling of a small vector for an active set of a power of two
 * of PEs, with nothing ahead of the data: step k's partial lands in half T
 * of slot k of the pWrk, announced on signal word T of step k, T being the
 * pair's turn on the pWrk and on the pSync (coll_turns.h). A program that
 * reuses one pSync and one pWrk back to back with no barrier stays right:
 * a partner one call ahead takes the other halves. One one-way message a
 * step, where rdbl_tokens first waits for the partner's word that it is in
 * the call (2 PEs over tcp, 8 B: 35-45 us, two latencies). */
static bool turns_serve(const struct oshm_pe_set *s, const struct fold *f, size_t count,
                        size_t elem)
{
    return !s->calls && s->scratch && oshm_coll_defer() && f->r == 0 && f->steps > 0 &&
           (size_t)f->steps * 2 * count * elem <= s->scratch_bytes;
}

static void rdbl_turns(const struct oshm_pe_set *s, const struct oshm_net_group *g,
                       const struct fold *f, char *dest, const char *src, size_t count,
                       size_t elem, oshm_combine_fn combine)
{
    size_t bytes = count * elem;
    int wseg, sseg;
    size_t woff = hcomm_offset(s->scratch, s->scratch_bytes, &wseg, hcomm.my_pe, "reduce");
    size_t soff = hcomm_offset(s->sync, sizeof *s->sync, &sseg, hcomm.my_pe, "reduce");
    if (dest != src)
        memmove(dest, src, bytes);
    for (int k = 0; k < f->steps; k++) {
        int partner = f->nr ^ (1 << k), pe = oshm_net_pe(s, g, partner);
        uint32_t half = oshm_coll_turn(wseg, woff, pe, k) & 1;
        int64_t *word = oshm_coll_turn(sseg, soff, pe, k) & 1
                            ? &s->sync[OSHM_SYNC_STEP_WORD + k] : rstep_word(s, k);
        char *slot = (char *)s->scratch + ((size_t)k * 2 + half) * bytes;
        send_to(s, g, partner, slot, dest, bytes, word, "reduce");
        await(s, word, bytes);
        combine_ordered(dest, slot, count, elem, f->nr < partner, combine);
    }
}

/* Whether every pair of the group that rdbl_mail makes exchange takes
 * mail: the same answer on every PE of the group. */
static bool mail_serve(const struct oshm_pe_set *s, const struct oshm_net_group *g,
                       const struct fold *f, size_t count, size_t elem)
{
    if (s->calls || !oshm_coll_defer() || f->steps == 0 || count * elem > OSHM_NET_MAIL_MAX)
        return false;
    if (!hcomm.node_mapped) /* every pair over the one network backend */
        return mail_pair(s, g, 0, 1);
    if (g->n > OSHM_NET_MAIL_CHECK_MAX)
        return false;
    for (int i = 0; i < f->r; i++)
        if (!mail_pair(s, g, 2 * i, 2 * i + 1))
            return false;
    for (int nr = 0; nr < f->p2; nr++)
        for (int k = 0; k < f->steps; k++)
            if (nr < (nr ^ (1 << k)) && !mail_pair(s, g, rank_of(f, nr), rank_of(f, nr ^ (1 << k))))
                return false;
    return true;
}

/* Recursive doubling for an active set whose pairs all take mail: a
 * step's partial goes to the partner's own memory, so it waits for no word
 * of the partner's and takes no room in its pWrk or the library's space:
 * one one-way message a step for vectors the pWrk cannot hold twice a
 * step, where rdbl_tokens pays two (2 PEs over tcp, 512 B: 33-37 us
 * against OSHMEM's 15). A step's tag is its number; the fold's pair counts
 * its exchange as a kind of its own. */
static void rdbl_mail(const struct oshm_pe_set *s, const struct oshm_net_group *g,
                      const struct fold *f, char *dest, const char *src, size_t count,
                      size_t elem, oshm_combine_fn combine)
{
    size_t bytes = count * elem;
    if (f->nr < 0) { /* hand over, take the result */
        int pe = oshm_net_pe(s, g, g->me + 1);
        uint32_t t = oshm_coll_turn(MAIL_SEG, 0, pe, MAIL_FOLD);
        hcomm_mail(CH, pe, mail_tag(MAIL_FOLD, t), src, bytes, "reduce");
        hcomm_mail_take(pe, mail_tag(MAIL_UNFOLD, t), dest, bytes);
        return;
    }
    char *in = oshm_coll_scratch(bytes, "reduce");
    if (dest != src)
        memmove(dest, src, bytes);
    int folded = -1;
    uint32_t fold_turn = 0;
    if (g->me < 2 * f->r) {
        folded = oshm_net_pe(s, g, g->me - 1);
        fold_turn = oshm_coll_turn(MAIL_SEG, 0, folded, MAIL_FOLD);
        hcomm_mail_take(folded, mail_tag(MAIL_FOLD, fold_turn), in, bytes);
        combine_ordered(dest, in, count, elem, false, combine);
    }
    for (int k = 0; k < f->steps; k++) {
        int partner = f->nr ^ (1 << k), pe = oshm_net_pe(s, g, rank_of(f, partner));
        uint64_t tag = mail_next(pe, k);
        hcomm_mail(CH, pe, tag, dest, bytes, "reduce");
        hcomm_mail_take(pe, tag, in, bytes);
        combine_ordered(dest, in, count, elem, f->nr < partner, combine);
    }
    if (folded >= 0)
        hcomm_mail(CH, folded, mail_tag(MAIL_UNFOLD, fold_turn), dest, bytes, "reduce");
}

/* Direct: up to OSHM_NET_DIRECT_MAX PEs, any number of them. PE i owns
 * block i of the vector; every PE sends each owner its part of the
 * owner's block at once, the owner combines them, then sends the result
 * to every PE at once: two dependent steps where Rabenseifner takes
 * 2 log2 n (or log2 n + 1), the same bytes, n - 1 messages a step, and no
 * fold for odd counts. The owner receives the n - 1 parts in slots
 * indexed by the sender's distance: in A (a team's half of its scratch, an
 * active set's pWrk, which the specification hands over free) as far as
 * it holds them, the rest in B (the library's shared space), which a
 * sender writes only once the owner has said it is in the call. A result
 * lands in a peer's dest at a block the peer sent away already and does
 * not read again; in place, the source there has left before. */
struct direct_room {
    char *a;
    size_t a_bytes;
    char *b; /* NULL: all in A */
};

static size_t block_lo(size_t count, int i, int n) { return count * (size_t)i / (size_t)n; }

/* Bytes of a part's slot: the largest block. */
static size_t direct_slot(size_t count, int n, size_t elem)
{
    return (count + (size_t)n - 1) / (size_t)n * elem;
}

static bool direct_fits(const struct direct_room *r, int n, size_t count, size_t elem)
{
    size_t slot = direct_slot(count, n, elem);
    size_t in_a = r->a ? r->a_bytes / slot : 0;
    size_t rest = (size_t)(n - 1) > in_a ? (size_t)(n - 1) - in_a : 0;
    return count >= (size_t)n && (rest == 0 || (r->b && rest * slot <= OSHM_NET_ACTIVE_SCRATCH));
}

/* The slot of the part from distance D (the owner's index less the
 * sender's): the first IN_A in A, the rest in B. */
static char *part_slot(const struct direct_room *room, int in_a, size_t slot, int d)
{
    return d - 1 < in_a ? room->a + (size_t)(d - 1) * slot
                        : room->b + (size_t)(d - 1 - in_a) * slot;
}

static void allreduce_direct(const struct oshm_pe_set *s, const struct oshm_net_group *g,
                             char *dest, const char *src, size_t count, size_t elem,
                             oshm_combine_fn combine, const struct direct_room *room)
{
    int n = g->n, me = g->me;
    size_t slot = direct_slot(count, n, elem);
    int in_a = room->a ? (int)(room->a_bytes / slot) : 0;
    if (in_a > n - 1)
        in_a = n - 1;
    int64_t *token = &s->sync[OSHM_SYNC_STEP_WORD]; /* fcollect's; not in use here */
    int64_t *parts = rstep_word(s, 0), *results = rstep_word(s, 1);
    for (int d = in_a + 1; d < n; d++)
        send_to(s, g, (me - d + n) % n, NULL, NULL, 0, token, "reduce");
    for (int d = 1; d < n; d++) {
        if (d == in_a + 1)
            oshm_take_i64(token, s->idle, n - 1 - in_a);
        int r = (me + d) % n;
        size_t lo = block_lo(count, r, n), hi = block_lo(count, r + 1, n);
        send_to(s, g, r, part_slot(room, in_a, slot, d), src + lo * elem, (hi - lo) * elem, parts,
                "reduce");
    }
    size_t lo = block_lo(count, me, n), mine = block_lo(count, me + 1, n) - lo;
    char *acc = dest + lo * elem;
    if (acc != src + lo * elem)
        memcpy(acc, src + lo * elem, mine * elem);
    oshm_take_i64(parts, s->idle, (int64_t)(n - 1) * hcomm_notify_units(mine * elem));
    for (int d = 1; d < n; d++)
        combine(acc, part_slot(room, in_a, slot, d), mine);
    int64_t want = 0;
    for (int d = 1; d < n; d++) {
        int r = (me + d) % n;
        want += hcomm_notify_units((block_lo(count, r + 1, n) - block_lo(count, r, n)) * elem);
        send_to(s, g, r, acc, acc, mine * elem, results, "reduce");
    }
    oshm_take_i64(results, s->idle, want);
}

/* Whether rdbl_tokens serves a vector of COUNT x ELEM over F. */
static bool tokens_serve(const struct oshm_pe_set *s, const struct fold *f, size_t count,
                         size_t elem)
{
    return !s->calls && oshm_coll_defer() &&
           (size_t)(f->steps + 1) * count * elem <= OSHM_NET_ACTIVE_SCRATCH;
}

static bool is_rdbl(const struct fold *f, size_t count, size_t elem)
{
    return count * elem <= OSHM_NET_REDUCE_RDBL_MAX || count < (size_t)f->p2;
}

bool oshm_net_allreduce_fits(const struct oshm_pe_set *s, int n, size_t count, size_t elem)
{
    struct oshm_net_group g = {.n = n};
    struct fold f = fold_of(&g);
    if (is_rdbl(&f, count, elem) &&
        (turns_serve(s, &f, count, elem) || tokens_serve(s, &f, count, elem)))
        return true;
    return s->scratch && s->scratch_bytes >= (size_t)(4 * OSHM_COLL_MAX_STEPS + 4) * elem;
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
    bool rdbl = is_rdbl(&f, count, elem);
    if (rdbl && turns_serve(s, &f, count, elem)) {
        SAY_ONCE("reduction over a network: recursive doubling in the pWrk's halves by turns "
                 "(%d PEs, %zu bytes)", g->n, count * elem);
        rdbl_turns(s, g, &f, d, src, count, elem, combine);
        return;
    }
    if (mail_serve(s, g, &f, count, elem)) {
        SAY_ONCE("reduction over a network: recursive doubling in mail (%d PEs, %zu bytes)", g->n,
                 count * elem);
        rdbl_mail(s, g, &f, d, src, count, elem, combine);
        return;
    }
    if (rdbl && tokens_serve(s, &f, count, elem)) {
        SAY_ONCE("reduction over a network: recursive doubling in the library's space after "
                 "each partner's word (%d PEs, %zu bytes)", g->n, count * elem);
        rdbl_tokens(s, g, &f, d, src, count, elem, combine);
        return;
    }
    if (!rdbl && f.r != 0 && g->n <= OSHM_NET_DIRECT_MAX) {
        struct direct_room room;
        if (s->calls) /* a team's calls follow each other with no barrier: halves in turn */
            room = (struct direct_room){.a = (char *)s->scratch + (turn % 2) * scratch_bytes,
                                        .a_bytes = scratch_bytes};
        else
            room = (struct direct_room){
                .a = s->scratch, .a_bytes = s->scratch ? s->scratch_bytes : 0,
                .b = oshm_coll_defer() ? oshm_net_active_scratch() : NULL};
        if (direct_fits(&room, g->n, count, elem)) {
            SAY_ONCE("reduction over a network: direct, each block combined by its owner (%d PEs, "
                     "%zu bytes)", g->n, count * elem);
            allreduce_direct(s, g, d, src, count, elem, combine, &room);
            if (s->calls)
                *s->calls = turn + 1;
            return;
        }
    }
    /* A team's calls follow each other with no barrier: they take the
     * halves of its scratch in turn; an active set's program hands over a
     * pWrk that nobody uses any more. */
    size_t whole_room = s->calls ? scratch_bytes : s->scratch_bytes;
    size_t later = rdbl || f.r ? 0 : later_slots(&f, count) * elem;
    if (!rdbl && f.r == 0 && later <= whole_room) {
        char *sc = (char *)s->scratch + (s->calls ? (turn % 2) * scratch_bytes : 0);
        struct rab_slots at = {.first = NULL, .later = sc};
        /* An active set's first step fits its pWrk (half the vector and an
         * element), which needs no word: the later ones then go to the
         * library's space, whose words the first step hides. */
        size_t half = (count + 1) / 2 * elem;
        if (!s->calls && oshm_coll_defer() && half <= s->scratch_bytes &&
            later <= OSHM_NET_ACTIVE_SCRATCH)
            at = (struct rab_slots){.first = s->scratch, .later = oshm_net_active_scratch(),
                                    .later_tokens = true};
        const char *part = src;
        if (d == src && !at.first) { /* the first step lands in dest: this PE's partial elsewhere */
            char *own = oshm_coll_scratch(count * elem, "reduce");
            memcpy(own, src, count * elem);
            part = own;
        }
        SAY_ONCE("reduction over a network: Rabenseifner on the whole vector (%d PEs, %zu bytes)",
                 g->n, count * elem);
        rabenseifner_whole(s, g, &f, d, part, count, elem, combine, &at);
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
    if (rdbl)
        SAY_ONCE("reduction over a network: recursive doubling in chunks of %zu elements (%d PEs, "
                 "%zu bytes)", chunk, g->n, count * elem);
    else
        SAY_ONCE("reduction over a network: Rabenseifner in chunks of %zu elements (%d PEs, %zu "
                 "bytes)", chunk, g->n, count * elem);
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

/* Bytes of blocks LO..HI-1 (set order): SIZES[i] each, or UNIT each where
 * SIZES is NULL. */
static size_t span(const int64_t *sizes, size_t unit, int lo, int hi)
{
    if (!sizes)
        return (size_t)(hi - lo) * unit;
    size_t b = 0;
    for (int i = lo; i < hi; i++)
        b += (size_t)sizes[i];
    return b;
}

/* Recursive doubling over blocks laid out in set order from BASE (block i
 * of span(SIZES, UNIT, i, i + 1) bytes, this PE's already in place), a
 * power of two of PEs: in step k (m = 2^k) a PE sends the blocks of its
 * aligned group of m to partner me ^ m, at the same place, announced on
 * WORDS[k]; after log2 n steps every PE holds every block. The groups are
 * contiguous in set order, so each step is one message, however the
 * blocks' sizes differ. */
static void rdbl_blocks(const struct oshm_pe_set *s, char *base, const int64_t *sizes,
                        size_t unit, int64_t *words, const char *routine)
{
    int me = s->my_index;
    for (int m = 1, k = 0; m < s->size; m <<= 1, k++) {
        int mine = me & ~(m - 1), theirs = (me ^ m) & ~(m - 1);
        char *at = base + span(sizes, unit, 0, mine);
        hcomm_notify(CH, at, at, span(sizes, unit, mine, mine + m), (uint64_t *)&words[k],
                     oshm_set_pe(s, me ^ m), routine);
        await(s, &words[k], span(sizes, unit, theirs, theirs + m));
    }
}

/* Every PE's BYTES to every other PE, each announced on DONE. */
static void direct_blocks(const struct oshm_pe_set *s, void *at, const void *from, size_t bytes,
                          int64_t *done, int64_t want, const char *routine)
{
    for (int k = 1; k < s->size; k++)
        hcomm_notify(CH, at, from, bytes, (uint64_t *)done,
                     oshm_set_pe(s, (s->my_index + k) % s->size), routine);
    oshm_take_i64(done, s->idle, want);
}

void oshm_net_collect(const struct oshm_pe_set *s, void *dest, const void *source,
                      size_t bytes, int64_t *sizes, enum oshm_coll_form form)
{
    if (form == OSHM_COLL_TEAM)
        oshm_barrier_sync(s);
    int n = s->size, me = s->my_index;
    int64_t *offset_word = &s->sync[OSHM_SYNC_OFFSET_WORD];
    int64_t *done = &s->sync[OSHM_SYNC_DONE_WORD];
    /* A power of two of PEs: log2 n messages a PE for the sizes and as many
     * for the blocks, where sending each to every PE takes n - 1 of each
     * (8 PEs as 4 nodes of 2 over tcp: 12 network messages a PE against 4;
     * on 2 cores messages cost more than steps). Notifies are not ordered,
     * so a partner's blocks may arrive before its sizes: the two phases
     * count on words of their own, the barrier's round words, sizes on the
     * first log2 n, blocks on the next log2 n. A PE past this call may go
     * on to a barrier of the set, which posts to the first log2 n only
     * (and a PE past this call has this PE's blocks, so this PE is past
     * its sizes); every other collective keeps off them. */
    struct fold f = fold_of(&(struct oshm_net_group){.n = n, .me = me});
    bool rdbl = n > 2 && f.r == 0 && f.steps <= OSHM_BARRIER_MAX_ROUNDS / 2;
    sizes[me] = (int64_t)bytes;
    if (rdbl)
        rdbl_blocks(s, (char *)sizes, NULL, sizeof *sizes, &s->sync[0], "collect");
    else
        direct_blocks(s, &sizes[me], &sizes[me], sizeof *sizes, offset_word,
                      (int64_t)(n - 1) * hcomm_notify_units(sizeof *sizes), "collect");
    /* A team's sizes sit in its scratch, which a PE that is done here may
     * fill with its next reduction (no barrier between): a private copy. */
    int64_t *size_of = oshm_coll_scratch((size_t)n * sizeof *size_of, "collect");
    memcpy(size_of, sizes, (size_t)n * sizeof *size_of);
    size_t offset = span(size_of, 0, 0, me), total = span(size_of, 0, 0, n);
    memmove((char *)dest + offset, source, bytes);
    if (rdbl && total <= OSHM_NET_COLLECT_RDBL_MAX) {
        SAY_ONCE("collect over a network: recursive doubling of the sizes, then of the blocks "
                 "(%d PEs, %zu bytes in all)", n, total);
        rdbl_blocks(s, dest, size_of, 0, &s->sync[f.steps], "collect");
        return;
    }
    /* The others' blocks, each announced by its byte count (an empty one by
     * one). */
    int64_t want = 0;
    for (int i = 0; i < n; i++)
        if (i != me)
            want += hcomm_notify_units((size_t)size_of[i]);
    if (rdbl)
        SAY_ONCE("collect over a network: recursive doubling of the sizes, then every block to "
                 "every PE (%d PEs, %zu bytes in all)", n, total);
    else
        SAY_ONCE("collect over a network: every size to every PE, then every block to every PE "
                 "(%d PEs, %zu bytes in all)", n, total);
    direct_blocks(s, (char *)dest + offset, source, bytes, done, want, "collect");
}
