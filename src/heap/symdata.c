/*
 * Global and static variables of the executable are symmetric: at start-up
 * the executable's writable segment (.data and .bss) is copied into a memfd
 * and the memfd is mapped over it at the same address. The program keeps
 * using the same addresses; same-node peers map the memfd too and reach the
 * variables with a direct copy.
 */
#include <elf.h>
#include <link.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/log.h"
#include "heap/heap.h"

struct oshm_symdata oshm_symdata = {.mem = {.fd = -1}};

struct seg_range {
    uintptr_t start, end;           /* writable PT_LOAD, as loaded */
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
        } else if (ph->p_type == PT_GNU_RELRO) {
            r->relro_start = s;
            r->relro_end = e;
        }
    }
    return 1;
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
    /* The raw system call: the segment holds sanitizer redzones that a
     * checked pwrite would report. */
    ssize_t copied = syscall(SYS_pwrite64, oshm_symdata.mem.fd, (const void *)start, len, (off_t)0);
    if (copied != (ssize_t)len) {
        oshm_warn("cannot copy the global data (%zd of %zu bytes): %m", copied, len);
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
        if (re > rs)
            mprotect((void *)rs, re - rs, PROT_READ);
    }
    oshm_symdata.base = (char *)start;
    oshm_symdata.size = len;
    return 0;
}

void oshm_symdata_fini(void)
{
    /* The mapping stays: the program's globals live in it until exit. */
    vmm_destroy(&oshm_symdata.mem);
}
