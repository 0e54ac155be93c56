/*
 * The symmetric heap's allocator: hands out offsets within [0, capacity).
 * It is deterministic: the same sequence of calls gives the same offsets in
 * every process, which is what makes the heap symmetric without any
 * communication. Bookkeeping lives in private memory, never in the heap, so a
 * stray remote write cannot corrupt it.
 */
#ifndef OSHM_HEAP_ALLOC_H
#define OSHM_HEAP_ALLOC_H

#include <stdbool.h>
#include <stddef.h>

/* A cache line: allocations never share one. (Where the program's blocks
 * start within a page matters to copies: oshm_heap_end_library_part.) */
#define HEAP_MIN_ALIGN 64

struct heap_block {
    size_t off;
    size_t size;
    bool used;
};

struct heap_alloc {
    size_t capacity;
    /* Where offset 0 lies: its address is PHASE modulo MAX_ALIGN on every
     * PE, so an address alignment up to MAX_ALIGN is the same offset
     * everywhere; above it the PEs' addresses agree on nothing and such an
     * alignment is refused. */
    size_t phase;
    size_t max_align;
    size_t count;    /* blocks, sorted by offset, covering [0, capacity) */
    size_t max;
    struct heap_block *blocks;
};

/* Offset alignment only (phase 0, any alignment) until heap_alloc_place. */
int heap_alloc_init(struct heap_alloc *a, size_t capacity);
/* Offset 0 lies at an address that is PHASE modulo MAX_ALIGN (a power of
 * two): alignments are then of addresses, and refused above MAX_ALIGN. */
void heap_alloc_place(struct heap_alloc *a, size_t phase, size_t max_align);
void heap_alloc_fini(struct heap_alloc *a);

/* Finds SIZE bytes whose address is aligned to ALIGN (a power of two, at
 * most max_align). 0 and *off, or -1. */
int heap_alloc_get(struct heap_alloc *a, size_t size, size_t align, size_t *off);
/* Returns the block at OFF. -1 if OFF is not the start of a used block. */
int heap_alloc_put(struct heap_alloc *a, size_t off);
/* Resizes the block at OFF in place if it can. 0 on success, 1 when the
 * block must move, -1 if OFF is not a used block. */
int heap_alloc_resize(struct heap_alloc *a, size_t off, size_t size);
/* Size of the used block at OFF, 0 if there is none. */
size_t heap_alloc_size_of(const struct heap_alloc *a, size_t off);
/* End of the highest used block: the part of the heap that needs memory. */
size_t heap_alloc_high_water(const struct heap_alloc *a);

#endif
