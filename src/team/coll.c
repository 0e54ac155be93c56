#include "team/coll.h"

#include <string.h>

#include "hcomm/hcomm.h"
#include "team/coll_net.h"

#define CH (&hcomm.default_channel)

/* The opening barrier: every destination is free. The 1.4 active-set rules
 * make it the caller's job (every dest ready and pSync unused before anyone
 * calls), so only teams pay for it. */
static void start(const struct oshm_pe_set *s, enum oshm_coll_form form)
{
    if (form == OSHM_COLL_TEAM)
        oshm_barrier_sync(s);
}

/* The end: every block has landed. Teams: quiet and a barrier. Active sets:
 * each PE signals every other PE after its puts (the signal lands after the
 * data), and a PE waits for the n - 1 signals and takes them back, leaving
 * pSync idle; one wait per PE instead of a barrier's. */
static void finish(const struct oshm_pe_set *s, enum oshm_coll_form form)
{
    if (form == OSHM_COLL_TEAM) {
        hcomm_quiet(CH);
        oshm_barrier_sync(s);
        return;
    }
    int64_t *arrived = &s->sync[OSHM_SYNC_DONE_WORD];
    for (int k = 1; k < s->size; k++)
        hcomm_signal(CH, (uint64_t *)arrived, 1, HCOMM_SIGNAL_ADD,
                     oshm_set_pe(s, (s->my_index + k) % s->size), "collective");
    hcomm_quiet(CH); /* the caller may change source once this returns */
    if (s->size > 1) {
        oshm_wait_i64_ge(arrived, s->idle + s->size - 1);
        hcomm_amo(CH, arrived, sizeof *arrived, HCOMM_AMO_ADD, (uint64_t)-(int64_t)(s->size - 1),
                  0, hcomm.my_pe, "collective");
    }
}

/* Puts BYTES at AT on every PE of the set; PE j's data is at source +
 * j * SOURCE_STEP. Starts with the next PE, so that not everybody writes to
 * the first PE first. */
static void put_to_all(const struct oshm_pe_set *s, void *at, const void *source,
                       size_t source_step, size_t bytes, const char *routine)
{
    for (int k = 0; k < s->size; k++) {
        int j = (s->my_index + 1 + k) % s->size;
        hcomm_put(CH, at, (const char *)source + (size_t)j * source_step, bytes,
                  oshm_set_pe(s, j), true, routine);
    }
}

void oshm_fcollect(const struct oshm_pe_set *s, void *dest, const void *source, size_t bytes,
                   enum oshm_coll_form form)
{
    start(s, form);
    switch (oshm_fcollect_algorithm(s, bytes)) {
    case OSHM_FCOLLECT_RDBL:
        oshm_fcollect_rdbl(s, dest, source, bytes);
        return; /* its last step implies every PE has entered */
    case OSHM_FCOLLECT_BRUCK:
        /* Bruck fills dest in a rotated order: a source inside dest could
         * be overwritten before it is read; the ring writes only the slots
         * of other PEs' blocks. */
        if ((const char *)source + bytes > (char *)dest &&
            (const char *)source < (char *)dest + (size_t)s->size * bytes)
            oshm_fcollect_ring(s, dest, source, bytes);
        else
            oshm_fcollect_bruck(s, dest, source, bytes);
        return;
    case OSHM_FCOLLECT_RING:
        oshm_fcollect_ring(s, dest, source, bytes);
        return;
    default:
        put_to_all(s, (char *)dest + (size_t)s->my_index * bytes, source, 0, bytes, "fcollect");
        finish(s, form);
    }
}

/* Whether a collect may stage (collect_staged). Every PE must choose
 * alike, and each knows only its own block's size: so by the set alone.
 * Two PEs keep the chain, which is one hop there: 0.38 against 0.79 us at
 * 128 B (0.65 against 0.58 at 8 B); from 3 PEs the staged collect took
 * 5.8-10 against 14-22 us (3 and 4 PEs on 2 cores, 8 B-2 KiB). */
static bool collect_stageable(const struct oshm_pe_set *s)
{
    return s->size >= 3 && oshm_coll_stageable(s);
}

/* Each PE copies its block into its staging area, or, above
 * OSHM_REDUCE_STAGE_BYTES, lends its (symmetric) source instead, writes
 * which and its size into its lent word, and tells every peer; once all
 * have told it, it copies the blocks in PE order from the peers' memory
 * straight into its own dest and tells each that it is done. One round of
 * signals where the chain of offsets (oshm_collect) takes n hops one after
 * the other, each a wake-up when PEs share a core (8 PEs on 2 cores: 130
 * against 30 us). Only this PE writes its dest, so no PE waits for dest to
 * be free. A PE that staged leaves at once (its peers' acknowledgements are
 * awaited when it next lends memory: coll_deferred.c); one that lent its
 * source waits for them, since the caller may change source on return. */
static void collect_staged(const struct oshm_pe_set *s, void *dest, const void *source,
                           size_t bytes)
{
    bool lend = bytes > OSHM_REDUCE_STAGE_BYTES;
    if (lend && hcomm_seg_of(source, bytes) < 0)
        hcomm_bad_addr(source, bytes, hcomm.my_pe, "collect");
    oshm_coll_settle();
    if (!lend)
        memcpy(oshm_coll_stage(), source, bytes);
    *oshm_coll_lent_word() = lend ? -1 - (int64_t)bytes : (int64_t)bytes;
    oshm_coll_staged_round(s, "collect");
    char *at = dest;
    for (int i = 0; i < s->size; i++) {
        int pe = oshm_set_pe(s, i);
        int64_t size = *(const int64_t *)hcomm_ptr(oshm_coll_lent_word(), pe, "collect");
        size_t block = (size_t)(size < 0 ? -1 - size : size);
        const void *from = hcomm_ptr(size < 0 ? source : oshm_coll_stage(), pe, "collect");
        if (size < 0 && pe != hcomm.my_pe && (!from || hcomm_seg_of(source, block) < 0))
            hcomm_bad_addr(source, block, pe, "collect");
        if (from != at)
            memmove(at, from, block);
        at += block;
    }
    oshm_coll_staged_done(s, "collect");
    if (lend)
        oshm_coll_settle();
}

void oshm_collect(const struct oshm_pe_set *s, void *dest, const void *source, size_t bytes,
                  enum oshm_coll_form form)
{
    /* Over a network: sizes, then blocks, each to every PE at once
     * (coll_net.h), where there is room for the sizes: a team's scratch, or
     * an active set's pSync words of the reductions' steps (up to
     * OSHM_COLL_MAX_STEPS PEs), put back to idle after; the chain of
     * offsets below costs n - 1 dependent messages (4 PEs over tcp: 490-630
     * us against OSHMEM's 190-280). */
    if (oshm_net_set(s)) {
        int64_t *sizes = NULL;
        if (form == OSHM_COLL_TEAM && s->scratch &&
            (size_t)s->size * sizeof(int64_t) <= s->scratch_bytes)
            sizes = s->scratch;
        else if (form == OSHM_COLL_ACTIVE_SET && s->size <= OSHM_COLL_MAX_STEPS)
            sizes = &s->sync[OSHM_SYNC_RSTEP_WORD];
        if (sizes) {
            oshm_net_collect(s, dest, source, bytes, sizes, form);
            if (form == OSHM_COLL_ACTIVE_SET)
                for (int i = 0; i < s->size; i++)
                    sizes[i] = s->idle;
            return;
        }
    }
    if (collect_stageable(s)) {
        collect_staged(s, dest, source, bytes);
        return;
    }
    start(s, form);
    int64_t *offset_word = &s->sync[OSHM_SYNC_OFFSET_WORD];
    int64_t offset = 0;
    if (s->my_index > 0) {
        offset = oshm_wait_i64_ne(offset_word, s->idle) - s->idle - 1;
        *offset_word = s->idle; /* nobody writes it again in this call */
    }
    if (s->my_index + 1 < s->size)
        hcomm_signal(CH, (uint64_t *)offset_word, (uint64_t)(s->idle + 1 + offset + (int64_t)bytes),
                     HCOMM_SIGNAL_SET, oshm_set_pe(s, s->my_index + 1), "collect");
    put_to_all(s, (char *)dest + offset, source, 0, bytes, "collect");
    finish(s, form);
}

void oshm_alltoall(const struct oshm_pe_set *s, void *dest, const void *source, size_t bytes,
                   enum oshm_coll_form form)
{
    if (oshm_net_set(s)) {
        oshm_net_alltoall(s, dest, source, bytes, form);
        return;
    }
    start(s, form);
    put_to_all(s, (char *)dest + (size_t)s->my_index * bytes, source, bytes, bytes, "alltoall");
    finish(s, form);
}

void oshm_alltoalls(const struct oshm_pe_set *s, void *dest, const void *source, ptrdiff_t dst,
                    ptrdiff_t sst, size_t elem, size_t nelems, enum oshm_coll_form form)
{
    start(s, form);
    char *at = (char *)dest + (ptrdiff_t)((size_t)s->my_index * nelems) * dst * (ptrdiff_t)elem;
    for (int k = 0; k < s->size; k++) {
        int j = (s->my_index + 1 + k) % s->size;
        const char *from = (const char *)source + (ptrdiff_t)((size_t)j * nelems) * sst * (ptrdiff_t)elem;
        hcomm_iput(CH, at, from, dst, sst, elem, nelems, oshm_set_pe(s, j), "alltoalls");
    }
    finish(s, form);
}

void oshm_scan(const struct oshm_pe_set *s, void *dest, const void *source, size_t nelems,
               size_t elem, oshm_combine_fn combine, bool exclusive)
{
    oshm_barrier_sync(s);
    size_t n = (size_t)s->size, c = (size_t)s->my_index;
    size_t lo = nelems * c / n, hi = nelems * (c + 1) / n, count = hi - lo;
    if (count) {
        size_t bytes = count * elem, off = lo * elem;
        char *acc = oshm_coll_scratch(2 * bytes, "scan"), *in = acc + bytes;
        memset(acc, 0, bytes); /* exclusive: the first PE's zeros */
        for (int p = 0; p < s->size; p++) {
            int pe = oshm_set_pe(s, p);
            hcomm_get(CH, in, (const char *)source + off, bytes, pe, false, "scan");
            if (exclusive)
                hcomm_put(CH, (char *)dest + off, acc, bytes, pe, false, "scan");
            if (p == 0)
                memcpy(acc, in, bytes);
            else
                combine(acc, in, count);
            if (!exclusive)
                hcomm_put(CH, (char *)dest + off, acc, bytes, pe, false, "scan");
        }
    }
    finish(s, OSHM_COLL_TEAM);
}
