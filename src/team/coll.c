#include "team/coll.h"

#include <stdlib.h>
#include <string.h>

#include "hcomm/hcomm.h"
#include "util/log.h"

#define CH (&hcomm.default_channel)

static void finish(const struct oshm_pe_set *s)
{
    hcomm_quiet(CH);
    oshm_barrier_sync(s);
}

/* Adds one to WORD on world PE PE; waits for and takes units on a local word. */
static void post(int64_t *word, int pe, const char *routine)
{
    hcomm_signal(CH, (uint64_t *)word, 1, HCOMM_SIGNAL_ADD, pe, routine);
}

static void take(int64_t *word, int64_t idle, int64_t units, const char *routine)
{
    oshm_wait_i64_ge(word, idle + units);
    hcomm_amo(CH, word, sizeof *word, HCOMM_AMO_ADD, (uint64_t)-units, 0, hcomm.my_pe, routine);
}

void oshm_broadcast(const struct oshm_pe_set *s, void *dest, const void *source, size_t bytes,
                    int root, bool root_receives)
{
    /* No barrier: the root tells each PE that its source is ready, each PE
     * copies it and tells the root, and only the root waits for everyone
     * (it may not change its source before all have read it). */
    int64_t *ready = &s->sync[OSHM_SYNC_RELEASE_WORD];
    int64_t *done = &s->sync[OSHM_SYNC_DONE_WORD];
    if (s->my_index == root) {
        for (int i = 0; i < s->size; i++)
            if (i != root)
                post(ready, oshm_set_pe(s, i), "broadcast");
        if (root_receives && dest != source)
            memmove(dest, source, bytes);
        if (s->size > 1)
            take(done, s->idle, s->size - 1, "broadcast");
    } else {
        take(ready, s->idle, 1, "broadcast");
        hcomm_get(CH, dest, source, bytes, oshm_set_pe(s, root), false, "broadcast");
        post(done, oshm_set_pe(s, root), "broadcast");
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

void oshm_fcollect(const struct oshm_pe_set *s, void *dest, const void *source, size_t bytes)
{
    oshm_barrier_sync(s);
    put_to_all(s, (char *)dest + (size_t)s->my_index * bytes, source, 0, bytes, "fcollect");
    finish(s);
}

void oshm_collect(const struct oshm_pe_set *s, void *dest, const void *source, size_t bytes)
{
    oshm_barrier_sync(s);
    int64_t *offset_word = &s->sync[OSHM_SYNC_OFFSET_WORD];
    int64_t offset = 0;
    if (s->my_index > 0) {
        offset = oshm_wait_i64_ne(offset_word, s->idle) - s->idle - 1;
        *offset_word = s->idle; /* nobody writes it again before the closing barrier */
    }
    if (s->my_index + 1 < s->size)
        hcomm_signal(CH, (uint64_t *)offset_word, (uint64_t)(s->idle + 1 + offset + (int64_t)bytes),
                     HCOMM_SIGNAL_SET, oshm_set_pe(s, s->my_index + 1), "collect");
    put_to_all(s, (char *)dest + offset, source, 0, bytes, "collect");
    finish(s);
}

void oshm_alltoall(const struct oshm_pe_set *s, void *dest, const void *source, size_t bytes)
{
    oshm_barrier_sync(s);
    put_to_all(s, (char *)dest + (size_t)s->my_index * bytes, source, bytes, bytes, "alltoall");
    finish(s);
}

void oshm_alltoalls(const struct oshm_pe_set *s, void *dest, const void *source, ptrdiff_t dst,
                    ptrdiff_t sst, size_t elem, size_t nelems)
{
    oshm_barrier_sync(s);
    char *at = (char *)dest + (ptrdiff_t)((size_t)s->my_index * nelems) * dst * (ptrdiff_t)elem;
    for (int k = 0; k < s->size; k++) {
        int j = (s->my_index + 1 + k) % s->size;
        const char *from = (const char *)source + (ptrdiff_t)((size_t)j * nelems) * sst * (ptrdiff_t)elem;
        hcomm_iput(CH, at, from, dst, sst, elem, nelems, oshm_set_pe(s, j), "alltoalls");
    }
    finish(s);
}

void oshm_reduce(const struct oshm_pe_set *s, void *dest, const void *source, size_t nreduce,
                 size_t elem, oshm_combine_fn combine)
{
    oshm_barrier_sync(s);
    size_t n = (size_t)s->size, c = (size_t)s->my_index;
    size_t lo = nreduce * c / n, hi = nreduce * (c + 1) / n, count = hi - lo;
    if (count) {
        size_t bytes = count * elem, off = lo * elem;
        char *acc = malloc(bytes), *in = malloc(bytes);
        if (!acc || !in)
            oshm_fatal("reduction: out of memory for %zu bytes", bytes);
        hcomm_get(CH, acc, (const char *)source + off, bytes, oshm_set_pe(s, 0), false, "reduce");
        for (int p = 1; p < s->size; p++) {
            hcomm_get(CH, in, (const char *)source + off, bytes, oshm_set_pe(s, p), false, "reduce");
            combine(acc, in, count);
        }
        for (int k = 0; k < s->size; k++) {
            int i = (s->my_index + 1 + k) % s->size;
            hcomm_put(CH, (char *)dest + off, acc, bytes, oshm_set_pe(s, i), false, "reduce");
        }
        free(acc);
        free(in);
    }
    finish(s);
}

void oshm_scan(const struct oshm_pe_set *s, void *dest, const void *source, size_t nelems,
               size_t elem, oshm_combine_fn combine, bool exclusive)
{
    oshm_barrier_sync(s);
    size_t n = (size_t)s->size, c = (size_t)s->my_index;
    size_t lo = nelems * c / n, hi = nelems * (c + 1) / n, count = hi - lo;
    if (count) {
        size_t bytes = count * elem, off = lo * elem;
        char *acc = calloc(1, bytes), *in = malloc(bytes);
        if (!acc || !in)
            oshm_fatal("scan: out of memory for %zu bytes", bytes);
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
        free(acc);
        free(in);
    }
    finish(s);
}
