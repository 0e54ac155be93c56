#include "team/barrier.h"

#include <stdatomic.h>

#include "hcomm/hcomm.h"
#include "team/coll.h"
#include "team/coll_nodes.h"
#include "util/log.h"
#include "util/spin.h"

void oshm_wait_i64_ge(const int64_t *word, int64_t value)
{
    const _Atomic int64_t *w = (const _Atomic int64_t *)word;
    uint32_t spins = 0;
    while (atomic_load_explicit(w, memory_order_acquire) < value)
        oshm_spin_step(&spins);
}

int64_t oshm_wait_i64_ne(const int64_t *word, int64_t value)
{
    const _Atomic int64_t *w = (const _Atomic int64_t *)word;
    uint32_t spins = 0;
    int64_t v;
    while ((v = atomic_load_explicit(w, memory_order_acquire)) == value)
        oshm_spin_step(&spins);
    return v;
}

#define CH (&hcomm.default_channel)

/* Adds one to WORD on world PE PE: one message over a network, no fence (a
 * barrier orders nothing; shmem_barrier has quieted first). */
static void post(int64_t *word, int pe)
{
    hcomm_notify(CH, NULL, NULL, 0, (uint64_t *)word, pe, "barrier");
}

void oshm_take_i64(int64_t *word, int64_t idle, int64_t units)
{
    oshm_wait_i64_ge(word, idle + units);
    hcomm_amo(CH, word, sizeof *word, HCOMM_AMO_ADD, (uint64_t)-units, 0, hcomm.my_pe,
              "collective");
}

/* Central: see barrier.h. The arrival word returns to idle before anyone
 * is released, so the next barrier finds it ready. Up to
 * OSHM_BARRIER_FLAT_RELEASE + 1 PEs, the last arrival releases every other
 * PE itself; beyond, the first PE waits for the others' arrivals and the
 * releases fan out as a tree of that many children a PE (set index i
 * releases i * fanout + 1 and on), so that no PE signals, and maps, more
 * than that many peers: the last arrival of 1,024 PEs mapped all 1,023,
 * 100-150 us each on first contact, and held their pages in its RSS. */
static void barrier_central(const struct oshm_pe_set *set)
{
    int64_t *arrive = &set->sync[OSHM_SYNC_ARRIVE_WORD];
    int64_t *release = &set->sync[OSHM_SYNC_RELEASE_WORD];
    int root = oshm_set_pe(set, 0), n = set->size, me = set->my_index;
    if (n > OSHM_BARRIER_FLAT_RELEASE + 1) {
        if (me == 0) {
            oshm_take_i64(arrive, set->idle, n - 1);
        } else {
            post(arrive, root);
            oshm_take_i64(release, set->idle, 1);
        }
        long first = (long)me * OSHM_BARRIER_FLAT_RELEASE + 1;
        for (long c = first; c < first + OSHM_BARRIER_FLAT_RELEASE && c < n; c++)
            post(release, oshm_set_pe(set, (int)c));
        return;
    }
    int64_t before = (int64_t)hcomm_amo(CH, arrive, sizeof *arrive, HCOMM_AMO_FETCH_ADD, 1, 0,
                                        root, "barrier");
    if (before == set->idle + n - 1) {
        hcomm_amo(CH, arrive, sizeof *arrive, HCOMM_AMO_ADD, (uint64_t)-(int64_t)n, 0, root,
                  "barrier");
        for (int i = 0; i < n; i++)
            if (i != me)
                post(release, oshm_set_pe(set, i));
    } else {
        oshm_take_i64(release, set->idle, 1);
    }
}

/* Dissemination over the N PEs that INDEX (set indices) lists, this PE being
 * number ME among them: in round k each signals the one 2^k places ahead
 * and waits for the one 2^k behind, on word k of the barrier words. */
static void dissemination(const struct oshm_pe_set *set, const int *index, int n, int me)
{
    for (int k = 0, dist = 1; dist < n; k++, dist <<= 1) {
        int to = (me + dist) % n;
        int64_t *word = &set->sync[k];
        post(word, oshm_set_pe(set, index ? index[to] : to));
        oshm_take_i64(word, set->idle, 1);
    }
}

/* Over a network, up to OSHM_BARRIER_GATHER_MAX PEs (barrier.h): the
 * first PE takes one arrival from each, then releases each, the farthest
 * first, and leaves first. */
static void gather_release(const struct oshm_pe_set *set)
{
    int64_t *arrive = &set->sync[OSHM_SYNC_ARRIVE_WORD];
    int64_t *release = &set->sync[OSHM_SYNC_RELEASE_WORD];
    int n = set->size;
    if (set->my_index == 0) {
        oshm_take_i64(arrive, set->idle, n - 1);
        for (int i = n - 1; i > 0; i--)
            post(release, oshm_set_pe(set, i));
    } else {
        post(arrive, oshm_set_pe(set, 0));
        oshm_take_i64(release, set->idle, 1);
    }
}

/* Node-aware: the PEs of each node arrive at their leader (one add each on
 * its arrival word, one wait), the leaders run a dissemination among
 * themselves over the network, and each leader releases its node's PEs
 * (an add on each one's release word). Only leaders touch the dissemination
 * words, only a node's PEs its arrival and release words. */
static void barrier_nodes(const struct oshm_pe_set *set, const struct oshm_set_nodes *n)
{
    int64_t *arrive = &set->sync[OSHM_SYNC_ARRIVE_WORD];
    int64_t *release = &set->sync[OSHM_SYNC_RELEASE_WORD];
    if (n->local_rank > 0) {
        post(arrive, oshm_set_pe(set, n->local[0]));
        oshm_take_i64(release, set->idle, 1);
        return;
    }
    if (n->n_local > 1)
        oshm_take_i64(arrive, set->idle, n->n_local - 1);
    dissemination(set, n->leader, n->n_leaders, n->leader_rank);
    for (int i = 1; i < n->n_local; i++)
        post(release, oshm_set_pe(set, n->local[i]));
}

void oshm_barrier_sync(const struct oshm_pe_set *set)
{
    oshm_coll_settle();
    if (set->size <= 1)
        return;
    struct oshm_set_nodes nodes;
    if (oshm_set_nodes(set, &nodes)) {
        barrier_nodes(set, &nodes);
        return;
    }
    /* Where PEs share cores, one wait per PE beats log2(n) of them; over a
     * network the dissemination's log2(n) one-way messages beat a round trip
     * to the root and its n - 1 releases. */
    if ((oshm_oversubscribed && nodes.all_mapped) || set->size > 1 << OSHM_BARRIER_MAX_ROUNDS) {
        barrier_central(set);
        return;
    }
    if (!nodes.all_mapped && set->size >= 3 && set->size <= OSHM_BARRIER_GATHER_MAX) {
        OSHM_DEBUG_ONCE("barrier over a network, %d PEs: gathered at the set's first PE, "
                        "which releases the others and leaves first", set->size);
        gather_release(set);
        return;
    }
    dissemination(set, NULL, set->size, set->my_index);
}
