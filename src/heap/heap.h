/*
 * A symmetric heap of this PE: a reserved address range backed by one
 * physical handle that grows (in whole chunks) as the allocator's high-water
 * mark rises, up to its capacity (SHMEM_SYMMETRIC_SIZE plus the library's own
 * area for the host heap, SHMEM_DEVICE_HEAP_SIZE for the device heap).
 * Allocation here is local; the collective API (barriers) is in src/api.
 */
#ifndef OSHM_HEAP_H
#define OSHM_HEAP_H

#include <stddef.h>

#include "vmm/vmm.h"

struct heap_alloc;

/* A symmetric heap: the host heap (shmem_malloc) and the device heap
 * (shmemx_device_malloc) are two of them, each its own range and handle. */
struct oshm_heap {
    char *base;
    size_t capacity;     /* bytes reserved */
    size_t align;        /* every address alignment up to this is available */
    size_t committed;    /* bytes backed by the handle */
    struct vmm_handle mem;
    struct heap_alloc *alloc;
};

extern struct oshm_heap oshm_heap;        /* shmem_malloc's */
extern struct oshm_heap oshm_device_heap; /* device memory (src/device) */

/* Bytes of the host heap the library keeps for itself (the teams' sync
 * words and their receive space for network reductions, 64 KiB a team
 * slot, taken only by the teams that use it), on top of
 * SHMEM_SYMMETRIC_SIZE. */
#define OSHM_INTERNAL_HEAP_SIZE ((size_t)8 << 20)

/* Reserves LEAD + SIZE bytes (each rounded up to 2 MiB); KIND is the kind
 * of physical memory behind them. The program's shmem_align may ask for any
 * power of two up to the heap's size, and the PEs must agree on the offset
 * of the answer: the range is placed so that the address LEAD bytes in (the
 * library's own part comes first) is aligned to the largest power of two
 * that fits in SIZE, the same on every PE. */
int oshm_heap_reserve(struct oshm_heap *h, size_t lead, size_t size, enum vmm_kind kind,
                      const char *name);
static inline int oshm_heap_init_kind(struct oshm_heap *h, size_t capacity, enum vmm_kind kind,
                                      const char *name)
{
    return oshm_heap_reserve(h, 0, capacity, kind, name);
}
void oshm_heap_fini_kind(struct oshm_heap *h);
/* The host heap: SIZE bytes for the program (SHMEM_SYMMETRIC_SIZE) after
 * the library's own. */
static inline int oshm_heap_init(size_t size)
{
    return oshm_heap_reserve(&oshm_heap, OSHM_INTERNAL_HEAP_SIZE, size, VMM_KIND_HOST,
                             "shmem-heap");
}
static inline void oshm_heap_fini(void) { oshm_heap_fini_kind(&oshm_heap); }

/* Called once the library's own blocks are allocated (they come first):
 * pads the host heap so that the program's first block starts at
 * OSHM_HEAP_PROGRAM_PHASE modulo the page, out of the library's part.
 * A copy between buffers whose addresses modulo 4 KiB differ by a little
 * (the destination a few bytes to a few cache lines ahead of the source)
 * stalls on 4K aliasing: its loads look like the stores just issued.
 * Private buffers usually start a page or 16 bytes into one (glibc's large
 * malloc), so a symmetric buffer half a page in keeps both a put's and a
 * get's copy clear of it. The program's later blocks follow its own
 * sizes. Measured with a malloc'd private buffer: a 32 KiB get from a
 * page-aligned block 0.47 us instead of 0.24; a 64 KiB put into a block
 * 64 bytes into a page 0.77 us instead of 0.59, 1 MiB 21 us instead of 17. */
#define OSHM_HEAP_PROGRAM_PHASE 2048
int oshm_heap_end_library_part(void);

/* Backs [0, BYTES) of H with memory now. */
int oshm_heap_commit(struct oshm_heap *h, size_t bytes);

/* Deterministic local allocation; NULL when the heap cannot hold SIZE. */
void *oshm_heap_alloc_in(struct oshm_heap *h, size_t size, size_t align);
/* Returns -1 if PTR is not the start of an allocation. */
int oshm_heap_free_in(struct oshm_heap *h, void *ptr);
/* Size of the allocation at PTR (0 if PTR is not one). */
size_t oshm_heap_size_of_in(struct oshm_heap *h, const void *ptr);
/* Resizes in place. 0 done, 1 must move, -1 not an allocation. */
int oshm_heap_resize_in(struct oshm_heap *h, void *ptr, size_t size);
static inline int oshm_heap_contains_in(const struct oshm_heap *h, const void *ptr)
{
    return (size_t)((const char *)ptr - h->base) < h->capacity;
}

/* The host heap's forms. */
static inline void *oshm_heap_alloc(size_t size, size_t align)
{
    return oshm_heap_alloc_in(&oshm_heap, size, align);
}
static inline int oshm_heap_free(void *ptr) { return oshm_heap_free_in(&oshm_heap, ptr); }
static inline size_t oshm_heap_size_of(const void *ptr)
{
    return oshm_heap_size_of_in(&oshm_heap, ptr);
}
static inline int oshm_heap_resize(void *ptr, size_t size)
{
    return oshm_heap_resize_in(&oshm_heap, ptr, size);
}
static inline int oshm_heap_contains(const void *ptr)
{
    return oshm_heap_contains_in(&oshm_heap, ptr);
}

/* The program's writable data (.data, .bss) remapped onto shareable memory,
 * so that global and static variables are symmetric. */
struct oshm_symdata {
    char *base;
    size_t size;
    struct vmm_handle mem;
};

extern struct oshm_symdata oshm_symdata;

int oshm_symdata_init(void);
void oshm_symdata_fini(void);

#endif
