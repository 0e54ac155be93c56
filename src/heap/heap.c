#include "heap/heap.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "heap/alloc.h"
#include "util/log.h"

/* Memory is committed in chunks so that a run of small allocations does not
 * resize the handle every time. */
#define HEAP_COMMIT_CHUNK ((size_t)2 << 20)

struct oshm_heap oshm_heap = {.mem = {.fd = -1}};
struct oshm_heap oshm_device_heap = {.mem = {.fd = -1}};
/* Collective allocation is collective, but SHMEM_THREAD_MULTIPLE lets
 * threads of one PE call it; an allocator must not be torn. */
static pthread_mutex_t heap_lock = PTHREAD_MUTEX_INITIALIZER;

static size_t round_up(size_t v, size_t a) { return (v + a - 1) / a * a; }

/* The largest power of two that is at most V (V > 0). */
static size_t floor_pow2(size_t v)
{
    size_t p = 1;
    while (p <= v / 2)
        p *= 2;
    return p;
}

int oshm_heap_reserve(struct oshm_heap *h, size_t lead, size_t size, enum vmm_kind kind,
                      const char *name)
{
    lead = round_up(lead, HEAP_COMMIT_CHUNK);
    size = round_up(size, HEAP_COMMIT_CHUNK);
    size_t capacity = lead + size;
    h->capacity = capacity;
    h->committed = 0;
    /* At least like a huge page, so the kernel may back it with huge pages.
     * The alignment costs address space only (twice the heap, for a
     * moment); should even that be short, a smaller one does. */
    size_t align = size > HEAP_COMMIT_CHUNK ? floor_pow2(size) : HEAP_COMMIT_CHUNK;
    while (!(h->base = vmm_reserve_phase(capacity, align, lead)) && align > HEAP_COMMIT_CHUNK)
        align /= 2;
    if (!h->base) {
        oshm_warn("cannot reserve %zu bytes of address space for %s: %m", capacity, name);
        return -1;
    }
    h->align = align;
    if (align < floor_pow2(size))
        oshm_debug("%s: aligned to %zu bytes only (short of address space): larger "
                   "alignments are refused", name, align);
    if (vmm_create_kind(&h->mem, 0, kind, name) != 0 ||
        vmm_map(h->base, capacity, &h->mem, 0, VMM_ACCESS_RW) != 0) {
        oshm_warn("cannot create %s: %m", name);
        return -1;
    }
    h->alloc = calloc(1, sizeof *h->alloc);
    if (!h->alloc || heap_alloc_init(h->alloc, capacity) != 0)
        return -1;
    heap_alloc_place(h->alloc, (uintptr_t)h->base, h->align);
    return 0;
}

void oshm_heap_fini_kind(struct oshm_heap *h)
{
    if (h->base)
        vmm_release(h->base, h->capacity);
    vmm_destroy(&h->mem);
    if (h->alloc)
        heap_alloc_fini(h->alloc);
    free(h->alloc);
    h->alloc = NULL;
    h->base = NULL;
    h->capacity = h->committed = h->align = 0;
}

/* Backs [0, end) with memory. Each growth at least doubles the backed part:
 * network backends register every new part, and a registration is a
 * system call, a key per peer and an exchange among all PEs. The pages
 * themselves come only when touched. */
static int commit_to(struct oshm_heap *h, size_t end)
{
    if (end <= h->committed)
        return 0;
    size_t want = round_up(end, HEAP_COMMIT_CHUNK);
    if (want < 2 * h->committed)
        want = 2 * h->committed;
    if (want > h->capacity)
        want = h->capacity;
    if (vmm_resize(&h->mem, want) != 0)
        return -1;
    h->committed = want;
    return 0;
}

int oshm_heap_commit(struct oshm_heap *h, size_t bytes)
{
    pthread_mutex_lock(&heap_lock);
    int rc = commit_to(h, bytes);
    pthread_mutex_unlock(&heap_lock);
    if (rc != 0)
        oshm_warn("cannot back %zu bytes of symmetric heap: %m", bytes);
    return rc;
}

void *oshm_heap_alloc_in(struct oshm_heap *h, size_t size, size_t align)
{
    size_t off;
    void *p = NULL;
    if (!h->alloc)
        return NULL;
    pthread_mutex_lock(&heap_lock);
    if (heap_alloc_get(h->alloc, size, align, &off) == 0) {
        if (commit_to(h, heap_alloc_high_water(h->alloc)) == 0) {
            p = h->base + off;
        } else {
            oshm_warn("cannot commit %zu bytes of symmetric heap: %m", off + size);
            heap_alloc_put(h->alloc, off);
        }
    }
    pthread_mutex_unlock(&heap_lock);
    return p;
}

int oshm_heap_free_in(struct oshm_heap *h, void *ptr)
{
    if (!h->alloc || !oshm_heap_contains_in(h, ptr))
        return -1;
    pthread_mutex_lock(&heap_lock);
    int rc = heap_alloc_put(h->alloc, (size_t)((char *)ptr - h->base));
    pthread_mutex_unlock(&heap_lock);
    return rc;
}

size_t oshm_heap_size_of_in(struct oshm_heap *h, const void *ptr)
{
    if (!h->alloc || !oshm_heap_contains_in(h, ptr))
        return 0;
    pthread_mutex_lock(&heap_lock);
    size_t s = heap_alloc_size_of(h->alloc, (size_t)((const char *)ptr - h->base));
    pthread_mutex_unlock(&heap_lock);
    return s;
}

int oshm_heap_resize_in(struct oshm_heap *h, void *ptr, size_t size)
{
    if (!h->alloc || !oshm_heap_contains_in(h, ptr))
        return -1;
    pthread_mutex_lock(&heap_lock);
    int rc = heap_alloc_resize(h->alloc, (size_t)((char *)ptr - h->base), size);
    if (rc == 0 && commit_to(h, heap_alloc_high_water(h->alloc)) != 0)
        rc = 1; /* cannot grow here: let the caller move it (and fail there) */
    pthread_mutex_unlock(&heap_lock);
    return rc;
}

int oshm_heap_end_library_part(void)
{
    struct oshm_heap *h = &oshm_heap;
    if (!h->alloc)
        return -1;
    uintptr_t next = (uintptr_t)h->base + heap_alloc_high_water(h->alloc);
    size_t pad = (OSHM_HEAP_PROGRAM_PHASE - next) & 4095;
    return pad == 0 || oshm_heap_alloc(pad, 0) ? 0 : -1;
}
