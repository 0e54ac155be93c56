/*
 * The symmetric heap of this PE: a reserved address range backed by one
 * physical handle that grows (in whole chunks) as the allocator's high-water
 * mark rises, up to SHMEM_SYMMETRIC_SIZE plus the library's own area.
 * Allocation here is local; the collective API (barriers) is in src/api.
 */
#ifndef OSHM_HEAP_H
#define OSHM_HEAP_H

#include <stddef.h>

#include "vmm/vmm.h"

struct oshm_heap {
    char *base;
    size_t capacity;     /* bytes reserved */
    size_t committed;    /* bytes backed by the handle */
    struct vmm_handle mem;
};

extern struct oshm_heap oshm_heap;

int oshm_heap_init(size_t capacity);
void oshm_heap_fini(void);

/* Deterministic local allocation; NULL when the heap cannot hold SIZE. */
void *oshm_heap_alloc(size_t size, size_t align);
/* Returns -1 if PTR is not the start of an allocation. */
int oshm_heap_free(void *ptr);
/* Size of the allocation at PTR (0 if PTR is not one). */
size_t oshm_heap_size_of(const void *ptr);
/* Resizes in place. 0 done, 1 must move, -1 not an allocation. */
int oshm_heap_resize(void *ptr, size_t size);
int oshm_heap_contains(const void *ptr);

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
