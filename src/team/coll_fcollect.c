#include "team/coll.h"

#include <string.h>

#include "hcomm/hcomm.h"
#include "util/env.h"

#define CH (&hcomm.default_channel)

/* Past this many bytes in all, a ring (each link carries every block once,
 * to a neighbour) beats recursive doubling's long-distance halves. */
#define RDBL_MAX_TOTAL_BYTES (1u << 20)

/* Where a set's PEs are mapped, each PE writing its block to every PE costs
 * n - 1 stores and no extra wait, which beats any multi-step algorithm; over
 * a network, messages cost more than bytes, and recursive doubling sends
 * log2 n of them, a ring n - 1 to one neighbour each. */
enum oshm_coll_fcollect_choice oshm_fcollect_algorithm(const struct oshm_pe_set *s, size_t bytes)
{
    int want = oshm_env.coll_fcollect;
    if (want == OSHM_FCOLLECT_DIRECT || s->size == 1)
        return OSHM_FCOLLECT_DIRECT;
    if (want == OSHM_FCOLLECT_AUTO && oshm_coll_all_load_store(s))
        return OSHM_FCOLLECT_DIRECT;
    if (want == OSHM_FCOLLECT_RING ||
        (want == OSHM_FCOLLECT_AUTO && bytes * (size_t)s->size > RDBL_MAX_TOTAL_BYTES))
        return OSHM_FCOLLECT_RING;
    bool power_of_two = (s->size & (s->size - 1)) == 0;
    if (s->size > 1 << OSHM_COLL_MAX_STEPS)
        return OSHM_FCOLLECT_RING;
    if (want == OSHM_FCOLLECT_BRUCK || !power_of_two)
        return OSHM_FCOLLECT_BRUCK;
    return OSHM_FCOLLECT_RDBL;
}

/* Waits until a local step word holds IDLE + UNITS. */
static void await(int64_t *word, int64_t idle, int64_t units) { oshm_wait_i64_ge(word, idle + units); }

/* Takes UNITS back from a local step word, leaving it idle. */
static void take_back(int64_t *word, int64_t units)
{
    hcomm_amo(CH, word, sizeof *word, HCOMM_AMO_ADD, (uint64_t)-units, 0, hcomm.my_pe, "fcollect");
}

/* BYTES at AT of index J's dest (the same offset), announced on J's WORD:
 * a notify, the data and its signal in one message over a network; the
 * word grows by units(BYTES) once the data is there. */
static void pass(const struct oshm_pe_set *s, void *at, const void *from, size_t bytes,
                 int64_t *word, int j)
{
    hcomm_notify(CH, at, from, bytes, (uint64_t *)word, oshm_set_pe(s, j), "fcollect");
}

static int64_t units(size_t bytes) { return hcomm_notify_units(bytes); }

/* Step k: the PEs of each aligned group of 2^(k+1) swap halves, so after
 * step k a PE holds the blocks of its group of 2^(k+1). One signal word per
 * step: a partner may be a step ahead, and its next half must not be taken
 * for this one. */
void oshm_fcollect_rdbl(const struct oshm_pe_set *s, void *dest, const void *source, size_t bytes)
{
    char *d = dest;
    int me = s->my_index;
    if (d + (size_t)me * bytes != source)
        memmove(d + (size_t)me * bytes, source, bytes);
    int steps = 0;
    for (int m = 1; m < s->size; m <<= 1, steps++) {
        char *half = d + (size_t)(me & ~(m - 1)) * bytes;
        int64_t *word = &s->sync[OSHM_SYNC_STEP_WORD + steps];
        pass(s, half, half, (size_t)m * bytes, word, me ^ m);
        await(word, s->idle, units((size_t)m * bytes));
    }
    hcomm_quiet(CH); /* the caller may change source (or dest) once this returns */
    for (int k = 0, m = 1; k < steps; k++, m <<= 1)
        take_back(&s->sync[OSHM_SYNC_STEP_WORD + k], units((size_t)m * bytes));
}

/* Bruck: any PE count in ceil(log2 n) steps. During the call, slot j of a
 * PE's dest holds the block of PE me + j; in step k (m = 2^k) a PE sends
 * its first min(m, n - m) slots to PE me - m, into that PE's slots from m
 * on, and receives as many from PE me + m. A last local rotation (through
 * private scratch, after quiet: the puts read dest) puts the blocks in PE
 * order. A source inside dest takes the ring instead (oshm_fcollect). */
void oshm_fcollect_bruck(const struct oshm_pe_set *s, void *dest, const void *source,
                         size_t bytes)
{
    char *d = dest;
    int n = s->size, me = s->my_index, steps = 0;
    if (d != source)
        memmove(d, source, bytes);
    for (int m = 1; m < n; m <<= 1, steps++) {
        int count = m < n - m ? m : n - m;
        int64_t *word = &s->sync[OSHM_SYNC_STEP_WORD + steps];
        pass(s, d + (size_t)m * bytes, d, (size_t)count * bytes, word, (me - m + n) % n);
        await(word, s->idle, units((size_t)count * bytes));
    }
    hcomm_quiet(CH);
    for (int k = 0, m = 1; k < steps; k++, m <<= 1)
        take_back(&s->sync[OSHM_SYNC_STEP_WORD + k],
                  units((size_t)(m < n - m ? m : n - m) * bytes));
    if (me == 0)
        return;
    size_t total = (size_t)n * bytes, head = (size_t)me * bytes;
    char *copy = oshm_coll_scratch(total, "fcollect");
    memcpy(copy, d, total);
    memcpy(d + head, copy, total - head); /* slots 0..n-me-1: PEs me..n-1 */
    memcpy(d, copy + total - head, head); /* the rest: PEs 0..me-1 */
}

/* Step t: a PE passes block me - t (its own first, from source) to the next
 * PE and waits for block me - t - 1 from the previous one; n - 1 steps, one
 * counter word (every signal comes from the same PE, in order). */
void oshm_fcollect_ring(const struct oshm_pe_set *s, void *dest, const void *source, size_t bytes)
{
    char *d = dest;
    int n = s->size, me = s->my_index, next = (me + 1) % n;
    int64_t *word = &s->sync[OSHM_SYNC_STEP_WORD];
    if (d + (size_t)me * bytes != source)
        memmove(d + (size_t)me * bytes, source, bytes);
    for (int t = 0; t < n - 1; t++) {
        char *block = d + (size_t)((me - t + n) % n) * bytes;
        pass(s, block, block, bytes, word, next);
        await(word, s->idle, (t + 1) * units(bytes));
    }
    hcomm_quiet(CH);
    take_back(word, (n - 1) * units(bytes));
}
