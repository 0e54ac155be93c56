/*
 * Deferred acknowledgements: a collective that lends this PE's memory to
 * its peers (a broadcast root's signals into their pSync, a small
 * reduction's or a collect's staged source) need not wait for them to be
 * done with it before it returns. Each peer, when done, adds one to this
 * PE's ack word, a library word that only counts up; this PE counts how
 * many it was promised, and every collective that would lend the memory
 * again, and every barrier, starts by waiting until all have come
 * (oshm_coll_settle).
 *
 * Why it pays: on a shared core the wait for the peers, in the call, was
 * most of a small call's cost; in the barrier or collective that follows
 * it costs nothing more, and the PE that waited last arrives there last,
 * so the barrier lets it go first and its next data is there before the
 * others look for it (docs/performance.md, "Collective algorithms").
 *
 * Not when any PE runs under SHMEM_THREAD_MULTIPLE: one thread's wait would
 * then wait for peers of another thread's collective, which may be stuck
 * behind this thread's next one, and two threads' reductions would share
 * one staging area. Collectives wait in the call there, as before. All PEs
 * must choose alike (a staged reduction meets no barrier of the other
 * kind), so the choice comes from the start-up exchange, where every PE
 * said how its default context is used (oshm_coll_deferred_start). An
 * agreement over the network there, a count on PE 0 read after a barrier,
 * made every PE's shmem_init wait for PE 0's progress thread when PE 0
 * went straight to computing (up to 8 ms per job on 2 cores).
 */
#include <stdatomic.h>
#include <string.h>

#include "hcomm/hcomm.h"
#include "team/coll.h"
#include "team/team.h"

static struct oshm_coll_deferred_words *words; /* symmetric */
static int64_t acks_expected; /* acks this PE has been promised */
static bool defer;
static int64_t pushed[OSHM_REDUCE_STAGE_MAX_PES], taken[OSHM_REDUCE_STAGE_MAX_PES];

void oshm_coll_deferred_init(struct oshm_coll_deferred_words *w)
{
    words = w;
    acks_expected = 0;
    memset(pushed, 0, sizeof pushed);
    memset(taken, 0, sizeof taken);
    defer = false;
}

void oshm_coll_deferred_start(void) { defer = !hcomm.shared_somewhere; }

bool oshm_coll_defer(void) { return defer; }

bool oshm_coll_stageable(const struct oshm_pe_set *s)
{
    return s->size <= OSHM_REDUCE_STAGE_MAX_PES && defer && oshm_coll_all_load_store(s);
}

bool oshm_coll_all_load_store(const struct oshm_pe_set *s)
{
    for (int i = 0; i < s->size; i++)
        if (!hcomm_load_store(oshm_set_pe(s, i)))
            return false;
    return true;
}

void oshm_coll_expect(int64_t acks) { acks_expected += acks; }

int64_t *oshm_coll_ack_word(void) { return &words->acks; }

void *oshm_coll_stage(void) { return words->stage; }

int64_t *oshm_coll_lent_word(void) { return &words->lent; }

struct oshm_coll_line *oshm_coll_slot(int pe) { return words->slot[pe]; }

int64_t oshm_coll_push_begin(int pe)
{
    oshm_wait_i64_ge(&words->taken[pe].count, pushed[pe]);
    return ++pushed[pe];
}

int64_t oshm_coll_take_seq(int pe) { return ++taken[pe]; }

void oshm_coll_take_done(int pe, int64_t seq)
{
    int64_t *word = &words->taken[hcomm.my_pe].count;
    if (pe != hcomm.my_pe)
        word = hcomm_ptr(word, pe, "reduce");
    atomic_store_explicit((_Atomic int64_t *)word, seq, memory_order_release);
}

void oshm_coll_staged_round(const struct oshm_pe_set *s, const char *routine)
{
    struct hcomm_channel *ch = &hcomm.default_channel;
    int64_t *staged = &s->sync[OSHM_SYNC_STAGED_WORD];
    int n = s->size;
    oshm_coll_expect(n - 1);
    for (int k = 1; k < n; k++)
        hcomm_signal(ch, (uint64_t *)staged, 1, HCOMM_SIGNAL_ADD,
                     oshm_set_pe(s, (s->my_index + k) % n), routine);
    oshm_wait_i64_ge(staged, s->idle + n - 1);
    hcomm_amo(ch, staged, sizeof *staged, HCOMM_AMO_ADD, (uint64_t)-(int64_t)(n - 1), 0,
              hcomm.my_pe, routine);
}

void oshm_coll_staged_done(const struct oshm_pe_set *s, const char *routine)
{
    for (int k = 1; k < s->size; k++)
        hcomm_signal(&hcomm.default_channel, (uint64_t *)&words->acks, 1, HCOMM_SIGNAL_ADD,
                     oshm_set_pe(s, (s->my_index + k) % s->size), routine);
}

void oshm_coll_settle(void)
{
    if (acks_expected)
        oshm_wait_i64_ge(&words->acks, acks_expected);
}
