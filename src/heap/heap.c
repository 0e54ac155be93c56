#include "heap/heap.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "core/log.h"
#include "heap/alloc.h"

/* Memory is committed in chunks so that a run of small allocations does not
 * resize the handle every time. */
#define HEAP_COMMIT_CHUNK ((size_t)2 << 20)

struct oshm_heap oshm_heap = {.mem = {.fd = -1}};
static struct heap_alloc allocator;
/* shmem_malloc is collective, but SHMEM_THREAD_MULTIPLE lets threads of one
 * PE call it; the allocator must not be torn. */
static pthread_mutex_t heap_lock = PTHREAD_MUTEX_INITIALIZER;

static size_t round_up(size_t v, size_t a) { return (v + a - 1) / a * a; }

int oshm_heap_init(size_t capacity)
{
    capacity = round_up(capacity, HEAP_COMMIT_CHUNK);
    oshm_heap.capacity = capacity;
    oshm_heap.committed = 0;
    /* Aligned like a huge page, so the kernel may back it with huge pages. */
    oshm_heap.base = vmm_reserve(capacity, HEAP_COMMIT_CHUNK);
    if (!oshm_heap.base) {
        oshm_warn("cannot reserve %zu bytes of address space for the symmetric heap: %m",
                  capacity);
        return -1;
    }
    if (vmm_create(&oshm_heap.mem, 0, "shmem-heap") != 0 ||
        vmm_map(oshm_heap.base, capacity, &oshm_heap.mem, 0, VMM_ACCESS_RW) != 0) {
        oshm_warn("cannot create the symmetric heap: %m");
        return -1;
    }
    if (heap_alloc_init(&allocator, capacity) != 0)
        return -1;
    return 0;
}

void oshm_heap_fini(void)
{
    if (oshm_heap.base)
        vmm_release(oshm_heap.base, oshm_heap.capacity);
    vmm_destroy(&oshm_heap.mem);
    heap_alloc_fini(&allocator);
    oshm_heap.base = NULL;
    oshm_heap.capacity = oshm_heap.committed = 0;
}

/* Backs [0, end) with memory. */
static int commit_to(size_t end)
{
    if (end <= oshm_heap.committed)
        return 0;
    size_t want = round_up(end, HEAP_COMMIT_CHUNK);
    if (want > oshm_heap.capacity)
        want = oshm_heap.capacity;
    if (vmm_resize(&oshm_heap.mem, want) != 0)
        return -1;
    oshm_heap.committed = want;
    return 0;
}

void *oshm_heap_alloc(size_t size, size_t align)
{
    size_t off;
    void *p = NULL;
    pthread_mutex_lock(&heap_lock);
    if (heap_alloc_get(&allocator, size, align, &off) == 0) {
        if (commit_to(heap_alloc_high_water(&allocator)) == 0) {
            p = oshm_heap.base + off;
        } else {
            oshm_warn("cannot commit %zu bytes of symmetric heap: %m", off + size);
            heap_alloc_put(&allocator, off);
        }
    }
    pthread_mutex_unlock(&heap_lock);
    return p;
}

int oshm_heap_contains(const void *ptr)
{
    return (uintptr_t)ptr - (uintptr_t)oshm_heap.base < oshm_heap.capacity;
}

int oshm_heap_free(void *ptr)
{
    if (!oshm_heap_contains(ptr))
        return -1;
    pthread_mutex_lock(&heap_lock);
    int rc = heap_alloc_put(&allocator, (size_t)((char *)ptr - oshm_heap.base));
    pthread_mutex_unlock(&heap_lock);
    return rc;
}

size_t oshm_heap_size_of(const void *ptr)
{
    if (!oshm_heap_contains(ptr))
        return 0;
    pthread_mutex_lock(&heap_lock);
    size_t s = heap_alloc_size_of(&allocator, (size_t)((const char *)ptr - oshm_heap.base));
    pthread_mutex_unlock(&heap_lock);
    return s;
}

int oshm_heap_resize(void *ptr, size_t size)
{
    if (!oshm_heap_contains(ptr))
        return -1;
    pthread_mutex_lock(&heap_lock);
    int rc = heap_alloc_resize(&allocator, (size_t)((char *)ptr - oshm_heap.base), size);
    if (rc == 0 && commit_to(heap_alloc_high_water(&allocator)) != 0)
        rc = 1; /* cannot grow here: let the caller move it (and fail there) */
    pthread_mutex_unlock(&heap_lock);
    return rc;
}
