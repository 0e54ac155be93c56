/*
 * Which pool slots a new team gets, agreed on by its parent's PEs, also when
 * several threads of a PE create teams at once (SHMEM_THREAD_MULTIPLE).
 *
 * A slot is agreed on by a vote: every PE of the parent offers the slots
 * free here, and the lowest slot free on all of them is taken. With
 * threads, two votes over different parents may be in flight on one PE at
 * once; if both took what they saw free, both could take the same slot, and
 * the two teams would share sync words: each consumes the other's barrier
 * signals (a hang) or data (wrong results). A lock held across the vote is
 * no cure: the vote waits for the parent's other PEs, so thread A could hold
 * the lock on one PE waiting for thread A of another PE, which waits for
 * the lock that thread B holds there while B waits for this PE's thread B.
 * Nor may a vote keep this PE's slots from other threads while it waits: a
 * thread blocked in a team split (its partners are late) must not block
 * other threads' splits over other parents.
 *
 * So a slot is taken in two rounds. Round 1 finds the slots free on every
 * PE of the parent, and holds nothing (it is the one that may wait long for
 * late partners). Round 2 claims the chosen slots on each PE, under the
 * lock, unless another vote took or claimed one meanwhile, and takes them
 * only if every PE could claim them; the claims are then either taken or
 * dropped, on every PE alike. Round 2 waits only for PEs already in the
 * vote, so claims are held briefly. When two votes claim the same slot on
 * different PEs both fail and try again, after a random pause and with the
 * choice among the free slots turned by the parent's slot and the attempt,
 * so that they soon go different ways.
 *
 * Bit 0 of a vote stands for world's slot, never free, and carries a flag
 * instead: in round 1 that no claim of another vote was in flight on the PE
 * (if so on every PE and too few slots are free, there are too few), in
 * round 2 that the PE could claim the chosen slots.
 */
#include <pthread.h>
#include <sched.h>
#include <stdint.h>

#include "hcomm/hcomm.h"
#include "team/team.h"

#define FLAG 1ull

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t used;    /* slots of the teams this PE is in */
static uint64_t claimed; /* slots claimed by a vote in round 2 */

void oshm_team_slots_init(uint64_t taken)
{
    used = taken;
    claimed = 0;
}

void oshm_team_slot_release(int slot)
{
    pthread_mutex_lock(&lock);
    used &= ~(1ull << slot);
    pthread_mutex_unlock(&lock);
}

/* Collective over PARENT: the AND of every PE's VOTE. */
static uint64_t vote_and(const struct oshm_pe_set *parent, uint64_t vote)
{
    struct hcomm_channel *ch = &hcomm.default_channel;
    int64_t *word = &parent->sync[OSHM_SYNC_VOTE_WORD];
    *word = (int64_t)vote;
    oshm_barrier_sync(parent);
    uint64_t all = vote;
    for (int i = 0; i < parent->size; i++) {
        int64_t theirs;
        hcomm_get(ch, &theirs, word, sizeof theirs, oshm_set_pe(parent, i), false, "team split");
        all &= (uint64_t)theirs;
    }
    /* Nobody overwrites its vote before everybody has read it. */
    oshm_barrier_sync(parent);
    *word = 0;
    return all;
}

/* N of the slots in FREE (at least N), the same on every PE of the parent:
 * the lowest on a first attempt, as without threads; later ones start at a
 * place that depends on the parent and the attempt. */
static uint64_t choose(uint64_t free, int n, int parent_slot, unsigned attempt)
{
    unsigned skip = 0;
    if (attempt) {
        uint32_t h = ((uint32_t)parent_slot * 0x9e3779b1u) ^ (attempt * 0x85ebca6bu);
        h ^= h >> 15;
        skip = h % (unsigned)__builtin_popcountll(free);
    }
    uint64_t rest = free, chosen = 0;
    for (unsigned i = 0; i < skip; i++)
        rest &= rest - 1;
    for (int i = 0; i < n; i++) {
        if (!rest)
            rest = free & ~chosen; /* wrap round to the lowest */
        uint64_t low = rest & -rest;
        chosen |= low;
        rest &= ~low;
    }
    return chosen;
}

/* A pause of random length, longer as attempts fail, so that two votes
 * that collide do not collide again in step. */
static void back_off(unsigned attempt)
{
    static _Thread_local uint32_t x;
    if (!x)
        x = (uint32_t)(uintptr_t)&x ^ ((uint32_t)hcomm.my_pe * 0x9e3779b1u) ^ attempt ^ 1u;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    for (uint32_t i = x % (1u << (attempt < 6 ? attempt + 1 : 7)); i > 0; i--)
        sched_yield();
}

int oshm_team_agree_slots(shmem_team_t parent, int n, int *slots)
{
    const struct oshm_pe_set *set = &parent->set;
    for (unsigned attempt = 0;; attempt++) {
        pthread_mutex_lock(&lock);
        uint64_t offer = ~(used | claimed) | (claimed ? 0 : FLAG);
        pthread_mutex_unlock(&lock);
        uint64_t free = vote_and(set, offer);
        bool quiet = free & FLAG;
        free &= ~FLAG;
        if (__builtin_popcountll(free) < n) {
            if (quiet)
                return -1; /* nothing in flight anywhere hid a slot */
            back_off(attempt);
            continue;
        }
        uint64_t want = choose(free, n, parent->slot, attempt);

        pthread_mutex_lock(&lock);
        bool mine = !(want & (used | claimed));
        if (mine)
            claimed |= want;
        pthread_mutex_unlock(&lock);
        bool everywhere = vote_and(set, mine ? FLAG : 0) & FLAG;
        pthread_mutex_lock(&lock);
        if (mine) {
            claimed &= ~want;
            if (everywhere)
                used |= want;
        }
        pthread_mutex_unlock(&lock);
        if (everywhere) {
            for (int i = 0; i < n; i++) {
                slots[i] = __builtin_ctzll(want);
                want &= want - 1;
            }
            return 0;
        }
        back_off(attempt);
    }
}
