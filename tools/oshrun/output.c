/* The PEs' output, forwarded by whole lines so that no PE's line is cut by
 * another's. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "boot/boot_wire.h"
#include "oshrun.h"

/* Writes LEN bytes of one line (ENDS: with its newline), tagged at its start. */
static void put(struct outbuf *b, const char *data, size_t len, bool ends)
{
    if (!b->midline && opt.tag != TAG_NONE) {
        char tag[48];
        if (opt.tag == TAG_OMPI)
            snprintf(tag, sizeof tag, "[1,%d]<%s>:", b->rank, b->to == 1 ? "stdout" : "stderr");
        else
            snprintf(tag, sizeof tag, "[%d] ", b->rank);
        boot_wire_write_all(b->to, tag, strlen(tag));
    }
    boot_wire_write_all(b->to, data, len);
    b->midline = !ends;
}

static void flush_lines(struct outbuf *b, bool all)
{
    size_t start = 0;
    for (size_t i = 0; i < b->len; i++)
        if (b->data[i] == '\n') {
            put(b, b->data + start, i + 1 - start, true);
            start = i + 1;
        }
    /* A line longer than the buffer, or the tail at EOF, goes out as is. */
    if ((all || (start == 0 && b->len == sizeof b->data)) && start < b->len) {
        put(b, b->data + start, b->len - start, false);
        start = b->len;
    }
    memmove(b->data, b->data + start, b->len - start);
    b->len -= start;
}

void output_read(struct outbuf *b)
{
    ssize_t n = read(b->fd, b->data + b->len, sizeof b->data - b->len);
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return;
    if (n <= 0) {
        flush_lines(b, true);
        close(b->fd);
        b->fd = -1;
        return;
    }
    b->len += (size_t)n;
    flush_lines(b, false);
}
