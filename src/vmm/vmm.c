#include "vmm/vmm.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

static int prot_of(enum vmm_access a)
{
    switch (a) {
    case VMM_ACCESS_READ: return PROT_READ;
    case VMM_ACCESS_RW: return PROT_READ | PROT_WRITE;
    default: return PROT_NONE;
    }
}

size_t vmm_page_size(void)
{
    static size_t page;
    if (!page)
        page = (size_t)sysconf(_SC_PAGESIZE);
    return page;
}

void *vmm_reserve(size_t size, size_t align) { return vmm_reserve_phase(size, align, 0); }

void *vmm_reserve_phase(size_t size, size_t align, size_t phase)
{
    size_t page = vmm_page_size();
    if (align < page)
        align = page;
    if (size == 0 || (align & (align - 1)) || (phase & (page - 1)) || size > SIZE_MAX - align) {
        errno = EINVAL;
        return NULL;
    }
    phase &= align - 1;
    /* Over-reserve, then trim to the part that is placed right: the first
     * start at or after RAW whose PHASE-th byte is aligned lies less than
     * ALIGN bytes in. */
    size_t span = size + align - page;
    char *raw = mmap(NULL, span, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (raw == MAP_FAILED)
        return NULL;
    uintptr_t mask = (uintptr_t)align - 1;
    char *start = (char *)((((uintptr_t)raw + phase + mask) & ~mask) - phase);
    if (start > raw)
        munmap(raw, (size_t)(start - raw));
    char *end = start + size, *raw_end = raw + span;
    if (raw_end > end)
        munmap(end, (size_t)(raw_end - end));
    return start;
}

int vmm_release(void *va, size_t size) { return munmap(va, size); }

int vmm_create(struct vmm_handle *h, size_t size, const char *name)
{
    return vmm_create_kind(h, size, VMM_KIND_HOST, name);
}

int vmm_create_kind(struct vmm_handle *h, size_t size, enum vmm_kind kind, const char *name)
{
    h->fd = memfd_create(name, MFD_CLOEXEC);
    h->size = 0;
    h->kind = kind;
    if (h->fd < 0)
        return -1;
    if (vmm_resize(h, size) != 0) {
        int e = errno;
        close(h->fd);
        h->fd = -1;
        errno = e;
        return -1;
    }
    return 0;
}

int vmm_resize(struct vmm_handle *h, size_t size)
{
    if (ftruncate(h->fd, (off_t)size) != 0)
        return -1;
    h->size = size;
    return 0;
}

void vmm_destroy(struct vmm_handle *h)
{
    if (h->fd >= 0)
        close(h->fd);
    h->fd = -1;
    h->size = 0;
}

int vmm_map(void *va, size_t len, const struct vmm_handle *h, size_t offset, enum vmm_access access)
{
    void *p = mmap(va, len, prot_of(access), MAP_SHARED | MAP_FIXED, h->fd, (off_t)offset);
    return p == MAP_FAILED ? -1 : 0;
}

void *vmm_map_new(const struct vmm_handle *h, enum vmm_access access)
{
    if (h->size == 0) {
        errno = EINVAL;
        return NULL;
    }
    /* NORESERVE: what the owner never backs costs this process nothing. */
    void *p = mmap(NULL, h->size, prot_of(access), MAP_SHARED | MAP_NORESERVE, h->fd, 0);
    return p == MAP_FAILED ? NULL : p;
}

int vmm_unmap(void *va, size_t len)
{
    void *p = mmap(va, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
    return p == MAP_FAILED ? -1 : 0;
}

int vmm_set_access(void *va, size_t len, enum vmm_access access)
{
    return mprotect(va, len, prot_of(access));
}

int vmm_export(const struct vmm_handle *h) { return fcntl(h->fd, F_DUPFD_CLOEXEC, 0); }

int vmm_import(int fd, size_t size, struct vmm_handle *h)
{
    if (fd < 0) {
        errno = EBADF;
        return -1;
    }
    h->fd = fd;
    h->size = size;
    h->kind = VMM_KIND_HOST; /* the importer (ipc) knows better and says so */
    return 0;
}
