/*
 * Collective symmetric memory management. Every PE makes the same calls in
 * the same order, the allocator is deterministic, so every PE gets the same
 * offset; the barriers make the memory usable by all before anyone uses it,
 * and unused by all before it is given back.
 */
#include "api/api.h"
#include <shmem/shmem.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "hcomm/hcomm.h"
#include "heap/heap.h"
#include "team/team.h"
#include "util/env.h"
#include "util/log.h"
#include "util/prof.h"
#include "util/state.h"

/* SHMEM_DEBUG: every PE must ask for the same size and alignment, or the
 * heap stops being symmetric without a word. Compares with PE 0. */
static void check_same_request(size_t size, size_t align, const char *routine)
{
    int64_t *mine = &SHMEM_TEAM_WORLD->set.sync[OSHM_SYNC_REQUEST_WORD];
    mine[0] = (int64_t)size;
    mine[1] = (int64_t)align;
    oshm_sync_world();
    int64_t first[2];
    hcomm_get(&hcomm.default_channel, first, mine, sizeof first, 0, false, routine);
    /* PE 0 may not write its next request before everyone has read this one. */
    oshm_sync_world();
    if (first[0] != mine[0] || first[1] != mine[1])
        oshm_fatal("%s: this PE asks for %zu bytes aligned to %zu, PE 0 for %lld aligned to %lld: "
                   "every PE must make the same symmetric allocation", routine, size, align,
                   (long long)first[0], (long long)first[1]);
}

static void *allocate(size_t size, size_t align, bool zero, const char *routine)
{
    oshm_require_init(routine);
    if (oshm_env.debug)
        check_same_request(size, align, routine);
    void *p = NULL;
    if (size && align > oshm_heap.align) {
        /* Every PE refuses it alike: their heaps agree on no larger one. */
        oshm_warn("%s: cannot align to %zu bytes: the symmetric heap (SHMEM_SYMMETRIC_SIZE=%zu) "
                  "offers alignments up to %zu", routine, align, oshm_env.symmetric_size,
                  oshm_heap.align);
    } else if (size) {
        p = oshm_heap_alloc(size, align);
        if (!p)
            oshm_warn("%s: cannot allocate %zu bytes: the symmetric heap holds %zu bytes "
                      "(set SHMEM_SYMMETRIC_SIZE for more)",
                      routine, size, oshm_env.symmetric_size);
        else if (zero)
            memset(p, 0, size); /* a reused block holds old data */
    }
    hcomm_seg_grow(HCOMM_SEG_HEAP, oshm_heap.committed);
    oshm_sync_world();
    return p;
}

/* A request that cannot be valid: still collective, so every PE returns. */
static void *refuse(const char *routine, const char *why)
{
    oshm_require_init(routine);
    oshm_warn("%s: %s", routine, why);
    oshm_sync_world();
    return NULL;
}

static void *malloc_body(size_t size)
{
    return allocate(size, 0, false, "shmem_malloc");
}

OSHM_FN(void *, shmem_malloc, (size_t size))
{
    void *r;
    OSHM_PROFILED_LOCAL(OSHM_PROF_malloc, "shmem_malloc", size, r = malloc_body(size));
    return r;
}

static void *malloc_with_hints_body(size_t size, long hints)
{
    /* Every placement serves atomics and signals equally well here. */
    (void)hints;
    return allocate(size, 0, false, "shmem_malloc_with_hints");
}

OSHM_FN(void *, shmem_malloc_with_hints, (size_t size, long hints))
{
    void *r;
    OSHM_PROFILED_LOCAL(OSHM_PROF_malloc, "shmem_malloc_with_hints", size,
                        r = malloc_with_hints_body(size, hints));
    return r;
}

static void *calloc_body(size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size)
        return refuse("shmem_calloc", "count * size overflows size_t");
    return allocate(count * size, 0, true, "shmem_calloc");
}

OSHM_FN(void *, shmem_calloc, (size_t count, size_t size))
{
    void *r;
    OSHM_PROFILED_LOCAL(OSHM_PROF_malloc, "shmem_calloc", count * size,
                        r = calloc_body(count, size));
    return r;
}

static void *align_body(size_t alignment, size_t size)
{
    if (alignment == 0 || (alignment & (alignment - 1)))
        return refuse("shmem_align", "the alignment is not a power of two");
    return allocate(size, alignment, false, "shmem_align");
}

OSHM_FN(void *, shmem_align, (size_t alignment, size_t size))
{
    void *r;
    OSHM_PROFILED_LOCAL(OSHM_PROF_malloc, "shmem_align", size, r = align_body(alignment, size));
    return r;
}

static void free_body(void *ptr)
{
    oshm_require_init("shmem_free");
    /* Nobody may still be reading or writing it. */
    hcomm_quiet(&hcomm.default_channel);
    oshm_sync_world();
    if (ptr && oshm_heap_free(ptr) != 0)
        oshm_fatal("shmem_free: %p was not returned by a symmetric allocation routine", ptr);
}

OSHM_FN(void, shmem_free, (void *ptr))
{
    OSHM_PROFILED_LOCAL(OSHM_PROF_free, "shmem_free", 0, free_body(ptr));
}

static void *realloc_body(void *ptr, size_t size)
{
    if (!ptr)
        return malloc_body(size);
    if (size == 0) {
        free_body(ptr);
        return NULL;
    }
    oshm_require_init("shmem_realloc");
    hcomm_quiet(&hcomm.default_channel);
    oshm_sync_world();
    size_t old = oshm_heap_size_of(ptr);
    if (!old)
        oshm_fatal("shmem_realloc: %p was not returned by a symmetric allocation routine", ptr);
    void *result = ptr;
    if (oshm_heap_resize(ptr, size) != 0) {
        result = oshm_heap_alloc(size, 0);
        if (result) {
            memcpy(result, ptr, old < size ? old : size);
            oshm_heap_free(ptr);
        } else {
            oshm_warn("shmem_realloc: cannot grow %p to %zu bytes; it is left as it was", ptr,
                      size);
        }
    }
    hcomm_seg_grow(HCOMM_SEG_HEAP, oshm_heap.committed);
    oshm_sync_world();
    return result;
}

OSHM_FN(void *, shmem_realloc, (void *ptr, size_t size))
{
    void *r;
    OSHM_PROFILED_LOCAL(OSHM_PROF_realloc, "shmem_realloc", size, r = realloc_body(ptr, size));
    return r;
}

/* The deprecated names call the profiling names: a tool that wraps
 * shmem_malloc sees the program's shmalloc as its own call only. */
OSHM_FN(void *, shmalloc, (size_t size))
{
    return pshmem_malloc(size);
}

OSHM_FN(void *, shmemalign, (size_t alignment, size_t size))
{
    return pshmem_align(alignment, size);
}

OSHM_FN(void *, shrealloc, (void *ptr, size_t size))
{
    return pshmem_realloc(ptr, size);
}

OSHM_FN(void, shfree, (void *ptr))
{
    pshmem_free(ptr);
}
