/*
 * Virtual memory management: address ranges and physical memory are separate
 * things. A range is reserved (no memory behind it), a physical handle is
 * created (a memfd: pages are allocated on first touch, never before), and
 * the handle is mapped into part of a reserved range. A handle is not a
 * pointer: it can be mapped at several addresses, in several processes.
 */
#ifndef OSHM_VMM_H
#define OSHM_VMM_H

#include <stddef.h>

enum vmm_access {
    VMM_ACCESS_NONE = 0,
    VMM_ACCESS_READ = 1,
    VMM_ACCESS_RW = 3,
};

/* What the physical memory is. On this host both kinds are memfds; a port to
 * a real accelerator creates device memory for VMM_KIND_DEVICE (e.g.
 * aclrtMallocPhysical, cuMemCreate) behind the same interface. */
enum vmm_kind {
    VMM_KIND_HOST = 0,
    VMM_KIND_DEVICE = 1,
};

/* Physical memory: a memfd of SIZE bytes. */
struct vmm_handle {
    int fd;
    size_t size;
    enum vmm_kind kind;
};

size_t vmm_page_size(void);

/* Reserves SIZE bytes of address space aligned to ALIGN (a power of two, at
 * least a page). Returns NULL on failure. */
void *vmm_reserve(size_t size, size_t align);
/* The same, placed so that the address PHASE bytes into the range (a
 * multiple of the page size) is aligned to ALIGN: a heap whose first part is
 * the library's own aligns the part after it. */
void *vmm_reserve_phase(size_t size, size_t align, size_t phase);
/* Gives a reserved range (mapped or not) back. */
int vmm_release(void *va, size_t size);

/* Creates physical memory of SIZE bytes (may be 0 and grow later). */
int vmm_create(struct vmm_handle *h, size_t size, const char *name);
int vmm_create_kind(struct vmm_handle *h, size_t size, enum vmm_kind kind, const char *name);
/* Changes the size of the physical memory; existing mappings stay valid. */
int vmm_resize(struct vmm_handle *h, size_t size);
/* Frees the handle; pages live on while a mapping or an import holds them. */
void vmm_destroy(struct vmm_handle *h);

/* Maps LEN bytes of H from OFFSET at VA, which must lie in a reserved range. */
int vmm_map(void *va, size_t len, const struct vmm_handle *h, size_t offset, enum vmm_access access);
/* Reserves and maps all of H in one step, where the kernel chooses: for a
 * mapping that needs no alignment (a peer's memory). Released with
 * vmm_release. NULL with errno on failure. */
void *vmm_map_new(const struct vmm_handle *h, enum vmm_access access);
/* Unmaps, leaving the range reserved. */
int vmm_unmap(void *va, size_t len);
int vmm_set_access(void *va, size_t len, enum vmm_access access);

/* A descriptor that carries the handle to another process (ipc layer). */
int vmm_export(const struct vmm_handle *h);
/* Adopts a descriptor received from another process. */
int vmm_import(int fd, size_t size, struct vmm_handle *h);

#endif
