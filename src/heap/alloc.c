#include "heap/alloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static size_t round_up(size_t v, size_t a) { return (v + a - 1) & ~(a - 1); }

int heap_alloc_init(struct heap_alloc *a, size_t capacity)
{
    a->capacity = capacity;
    a->phase = 0;
    a->max_align = ~(SIZE_MAX >> 1);
    a->count = 1;
    a->max = 64;
    a->blocks = malloc(sizeof *a->blocks * a->max);
    if (!a->blocks)
        return -1;
    a->blocks[0] = (struct heap_block){.off = 0, .size = capacity, .used = false};
    return 0;
}

void heap_alloc_place(struct heap_alloc *a, size_t phase, size_t max_align)
{
    a->max_align = max_align;
    a->phase = phase & (max_align - 1);
}

void heap_alloc_fini(struct heap_alloc *a)
{
    free(a->blocks);
    memset(a, 0, sizeof *a);
}

/* Makes room for two more blocks, so that a split never fails half-way. */
static int ensure_room(struct heap_alloc *a)
{
    if (a->count + 2 <= a->max)
        return 0;
    struct heap_block *nb = realloc(a->blocks, sizeof *nb * a->max * 2);
    if (!nb)
        return -1;
    a->blocks = nb;
    a->max *= 2;
    return 0;
}

static void insert_at(struct heap_alloc *a, size_t i, struct heap_block b)
{
    memmove(&a->blocks[i + 1], &a->blocks[i], sizeof *a->blocks * (a->count - i));
    a->blocks[i] = b;
    a->count++;
}

static void remove_at(struct heap_alloc *a, size_t i)
{
    memmove(&a->blocks[i], &a->blocks[i + 1], sizeof *a->blocks * (a->count - i - 1));
    a->count--;
}

/* Index of the block starting at OFF, or count. */
static size_t find(const struct heap_alloc *a, size_t off)
{
    size_t lo = 0, hi = a->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (a->blocks[mid].off < off)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < a->count && a->blocks[lo].off == off ? lo : a->count;
}

/* Merges free block I with free neighbours. */
static void coalesce(struct heap_alloc *a, size_t i)
{
    if (i + 1 < a->count && !a->blocks[i + 1].used) {
        a->blocks[i].size += a->blocks[i + 1].size;
        remove_at(a, i + 1);
    }
    if (i > 0 && !a->blocks[i - 1].used) {
        a->blocks[i - 1].size += a->blocks[i].size;
        remove_at(a, i);
    }
}

int heap_alloc_get(struct heap_alloc *a, size_t size, size_t align, size_t *off)
{
    if (size == 0 || (align & (align - 1)) || align > a->max_align || size > a->capacity ||
        ensure_room(a) != 0)
        return -1;
    if (align < HEAP_MIN_ALIGN)
        align = HEAP_MIN_ALIGN;
    size = round_up(size, HEAP_MIN_ALIGN);
    for (size_t i = 0; i < a->count; i++) {
        struct heap_block b = a->blocks[i];
        if (b.used || b.size < size)
            continue;
        /* Offsets are aligned as their addresses: phase mod align is the
         * same on every PE for any align up to max_align. */
        size_t phase = a->phase & (align - 1);
        size_t start = round_up(b.off + phase, align) - phase;
        if (start < b.off || start - b.off > b.size - size)
            continue;
        size_t end = start + size, b_end = b.off + b.size;
        if (end < b_end)
            insert_at(a, i + 1, (struct heap_block){end, b_end - end, false});
        if (start > b.off) {
            insert_at(a, i + 1, (struct heap_block){start, size, true});
            a->blocks[i].size = start - b.off;
        } else {
            a->blocks[i] = (struct heap_block){start, size, true};
        }
        *off = start;
        return 0;
    }
    return -1;
}

int heap_alloc_put(struct heap_alloc *a, size_t off)
{
    size_t i = find(a, off);
    if (i == a->count || !a->blocks[i].used)
        return -1;
    a->blocks[i].used = false;
    coalesce(a, i);
    return 0;
}

int heap_alloc_resize(struct heap_alloc *a, size_t off, size_t size)
{
    size_t i = find(a, off);
    if (i == a->count || !a->blocks[i].used || size == 0)
        return -1;
    if (size > a->capacity || ensure_room(a) != 0)
        return 1;
    size = round_up(size, HEAP_MIN_ALIGN);
    struct heap_block *b = &a->blocks[i];
    if (size <= b->size) {
        size_t spare = b->size - size;
        if (spare) {
            b->size = size;
            insert_at(a, i + 1, (struct heap_block){off + size, spare, false});
            coalesce(a, i + 1);
        }
        return 0;
    }
    size_t need = size - b->size;
    if (i + 1 < a->count && !a->blocks[i + 1].used && a->blocks[i + 1].size >= need) {
        struct heap_block *next = &a->blocks[i + 1];
        b->size = size;
        if (next->size == need) {
            remove_at(a, i + 1);
        } else {
            next->off += need;
            next->size -= need;
        }
        return 0;
    }
    return 1;
}

size_t heap_alloc_size_of(const struct heap_alloc *a, size_t off)
{
    size_t i = find(a, off);
    return i < a->count && a->blocks[i].used ? a->blocks[i].size : 0;
}

size_t heap_alloc_high_water(const struct heap_alloc *a)
{
    const struct heap_block *last = &a->blocks[a->count - 1];
    return last->used ? a->capacity : last->off;
}
