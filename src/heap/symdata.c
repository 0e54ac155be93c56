/*
 * Global and static variables of the executable are symmetric: at start-up
 * the executable's writable segment (.data and .bss) is copied into a memfd
 * and the memfd is mapped over it at the same address. The program keeps
 * using the same addresses; same-node peers map the memfd too and reach the
 * variables with a direct copy.
 *
 * Only the pages in use are copied (symdata_pages.c): a large static array
 * that was never touched stays a hole in the memfd, which reads as zeros
 * and takes memory only when someone writes it, so start-up time and
 * shared memory follow what the program uses, not what it declares.
 */
#include <elf.h>
#include <link.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "heap/heap.h"
#include "heap/symdata_pages.h"
#include "util/log.h"

struct oshm_symdata oshm_symdata = {.mem = {.fd = -1}};

struct seg_range {
    uintptr_t start, end;           /* writable PT_LOAD, as loaded */
    uintptr_t file_end;             /* end of its part loaded from the file */
    uintptr_t relro_start, relro_end;
};

static int find_main_segment(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    struct seg_range *r = arg;
    /* The first object is the executable itself. */
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t s = info->dlpi_addr + ph->p_vaddr, e = s + ph->p_memsz;
        if (ph->p_type == PT_LOAD && (ph->p_flags & PF_W)) {
            if (!r->start || s < r->start)
                r->start = s;
            if (e > r->end)
                r->end = e;
            if (s + ph->p_filesz > r->file_end)
                r->file_end = s + ph->p_filesz;
        } else if (ph->p_type == PT_GNU_RELRO) {
            r->relro_start = s;
            r->relro_end = e;
        }
    }
    return 1;
}

static uintptr_t relro_lo, relro_hi; /* pages to keep read-only */

/* A child of fork() would otherwise share the parent's globals (the segment
 * is MAP_SHARED now): give it a private copy of them, as fork promises. */
static void private_copy_in_child(void)
{
    if (!oshm_symdata.base || oshm_symdata.mem.fd < 0)
        return;
    size_t len = oshm_symdata.size;
    void *copy = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (copy == MAP_FAILED)
        return;
    /* The memfd holds exactly what the segment holds; only its data
     * extents are read, the holes stay zero pages of the copy. */
    /* mremap as a raw system call: UCX's memory hooks replace the libc
     * function with one that drops the fifth argument, the fixed address. */
    if (symdata_copy_in(copy, oshm_symdata.mem.fd, len) != 0 ||
        (void *)syscall(SYS_mremap, copy, len, len, MREMAP_MAYMOVE | MREMAP_FIXED,
                        oshm_symdata.base) != oshm_symdata.base) {
        munmap(copy, len);
        return;
    }
    if (relro_hi > relro_lo)
        mprotect((void *)relro_lo, relro_hi - relro_lo, PROT_READ);
    close(oshm_symdata.mem.fd);
    oshm_symdata.mem.fd = -1;
}

int oshm_symdata_init(void)
{
    struct seg_range r = {0};
    dl_iterate_phdr(find_main_segment, &r);
    if (!r.start)
        return 0; /* nothing writable: nothing to share */

    uintptr_t page = vmm_page_size();
    uintptr_t start = r.start & ~(page - 1);
    uintptr_t end = (r.end + page - 1) & ~(page - 1);
    size_t len = end - start;
    if (vmm_create(&oshm_symdata.mem, len, "shmem-data") != 0) {
        oshm_warn("cannot create memory for the global data: %m");
        return -1;
    }
    /* Copy, then swap the memory under the same addresses. Nothing between
     * the copy and the map may write to the segment (the library may itself
     * be linked into it): only locals here. */
    size_t file_len = r.file_end > start ? r.file_end - start : 0;
    if (symdata_copy_out(oshm_symdata.mem.fd, start, len, file_len) != 0) {
        oshm_warn("cannot copy the global data (%zu bytes): %m", len);
        vmm_destroy(&oshm_symdata.mem);
        return -1;
    }
    if (mmap((void *)start, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
             oshm_symdata.mem.fd, 0) == MAP_FAILED) {
        oshm_warn("cannot remap the global data: %m");
        vmm_destroy(&oshm_symdata.mem);
        return -1;
    }
    /* The relocated read-only part stays read-only. */
    if (r.relro_end > start && r.relro_start < end) {
        uintptr_t rs = r.relro_start < start ? start : r.relro_start & ~(page - 1);
        uintptr_t re = r.relro_end & ~(page - 1);
        if (re > rs) {
            mprotect((void *)rs, re - rs, PROT_READ);
            relro_lo = rs;
            relro_hi = re;
        }
    }
    oshm_symdata.base = (char *)start;
    oshm_symdata.size = len;
    static bool registered;
    if (!registered && pthread_atfork(NULL, NULL, private_copy_in_child) == 0)
        registered = true;
    return 0;
}

void oshm_symdata_fini(void)
{
    /* The mapping stays: the program's globals live in it until exit. */
    vmm_destroy(&oshm_symdata.mem);
}
