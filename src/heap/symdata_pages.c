#include "heap/symdata_pages.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "vmm/vmm.h"

/* /proc/self/pagemap: one 64-bit entry per page (kernel
 * Documentation/admin-guide/mm/pagemap.rst). These two bits are given to
 * unprivileged readers too. */
#define PAGEMAP_PRESENT ((uint64_t)1 << 63)
#define PAGEMAP_SWAPPED ((uint64_t)1 << 62)
/* Entries read at a time: a page of them, on the stack. */
#define PAGEMAP_BATCH 512

/* Every call below is a raw system call. Under a sanitizer whose runtime is
 * linked into the executable (clang's), the libc wrappers are interceptors
 * that may write the runtime's own globals, which live in the very segment
 * being copied: a write after its page was copied would be lost at the
 * remap (and in a forked child, would land in the parent's memory). The
 * segment also holds sanitizer redzones, which a checked pwrite would
 * report. */

/* A run of pages to copy, at offset OFF of the segment. */
struct extent {
    size_t off, len;
};

/* Bytes [OFF, OFF + LEN) between memory at BASE + OFF and the file at OFF,
 * with SYSNO SYS_pwrite64 or SYS_pread64; a short transfer is continued,
 * not taken for an error. */
static int transfer_all(long sysno, int fd, char *base, size_t off, size_t len)
{
    while (len) {
        ssize_t n = syscall(sysno, fd, base + off, len, (off_t)off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (n == 0)
                errno = EIO;
            return -1;
        }
        off += (size_t)n;
        len -= (size_t)n;
    }
    return 0;
}

static int write_out(int fd, uintptr_t start, size_t off, size_t len)
{
    return transfer_all(SYS_pwrite64, fd, (char *)start, off, len);
}

/* Adds [OFF, OFF + LEN) to the run E, writing E out first when the two do
 * not touch: one system call per run of pages in use, not per page. */
static int add_to_run(int fd, uintptr_t start, struct extent *e, size_t off, size_t len)
{
    if (e->len && e->off + e->len == off) {
        e->len += len;
        return 0;
    }
    int rc = e->len ? write_out(fd, start, e->off, e->len) : 0;
    e->off = off;
    e->len = len;
    return rc;
}

int symdata_copy_out(int fd, uintptr_t start, size_t len, size_t file_len)
{
    size_t page = vmm_page_size();
    size_t head = (file_len + page - 1) / page * page;
    if (head > len)
        head = len;
    struct extent run = {0, 0};
    if (head && add_to_run(fd, start, &run, 0, head) != 0)
        return -1;
    /* Without the page map (an old or restricted kernel) nothing tells a
     * page in use from one never touched: copy them all. */
    int pm = head < len ? (int)syscall(SYS_openat, AT_FDCWD, "/proc/self/pagemap",
                                       O_RDONLY | O_CLOEXEC)
                        : -1;
    size_t off = head;
    while (pm >= 0 && off < len) {
        uint64_t entry[PAGEMAP_BATCH];
        size_t want = (len - off) / page;
        if (want > PAGEMAP_BATCH)
            want = PAGEMAP_BATCH;
        ssize_t got = syscall(SYS_pread64, pm, entry, want * sizeof entry[0],
                              (off_t)((start + off) / page * sizeof entry[0]));
        if (got < (ssize_t)sizeof entry[0])
            break; /* the rest is copied whole below */
        size_t n = (size_t)got / sizeof entry[0];
        for (size_t i = 0; i < n; i++, off += page)
            if ((entry[i] & (PAGEMAP_PRESENT | PAGEMAP_SWAPPED)) &&
                add_to_run(fd, start, &run, off, page) != 0) {
                syscall(SYS_close, pm);
                return -1;
            }
    }
    if (pm >= 0)
        syscall(SYS_close, pm);
    if (off < len && add_to_run(fd, start, &run, off, len - off) != 0)
        return -1;
    return run.len ? write_out(fd, start, run.off, run.len) : 0;
}

int symdata_copy_in(void *dst, int fd, size_t len)
{
    /* The data extents of the memfd (tmpfs knows them page by page). The
     * seeks move the file offset, which peers and forked children share
     * through the same open file; nothing reads at that offset (every read
     * and write names its own), and each seek's answer is its return value,
     * so concurrent seekers cannot confuse one another. */
    size_t pos = 0;
    while (pos < len) {
        off_t data = (off_t)syscall(SYS_lseek, fd, (off_t)pos, SEEK_DATA), hole;
        if (data < 0 && errno == ENXIO)
            return 0; /* holes only from POS to the end */
        if (data < 0) {
            /* A file system without SEEK_DATA: read everything left. */
            data = (off_t)pos;
            hole = (off_t)len;
        } else {
            hole = (off_t)syscall(SYS_lseek, fd, data, SEEK_HOLE);
            if (hole <= data || (size_t)hole > len)
                hole = (off_t)len;
        }
        if ((size_t)data >= len)
            return 0;
        if (transfer_all(SYS_pread64, fd, dst, (size_t)data, (size_t)(hole - data)) != 0)
            return -1;
        pos = (size_t)hole;
    }
    return 0;
}
