/*
 * The PEs' output, forwarded by whole lines so that no PE's line is cut by
 * another's, without ever blocking the poll loop: a reader of oshrun's
 * output that stops reading (`oshrun ... | less` left alone, a full pipe)
 * must not keep oshrun from handling a PE that dies meanwhile.
 *
 *   - Lines wait in a queue per stream (stdout, stderr) and are written as
 *     the stream takes them: a pipe or FIFO through a description of its
 *     own opened non-blocking (/proc/self/fd/N: the flags of the one oshrun
 *     inherited, which its shell and siblings share, stay as they are), a
 *     socket with MSG_DONTWAIT, a terminal or pipe that cannot be reopened
 *     only when poll says it is writable and at most PIPE_BUF bytes at a
 *     time; a file or /dev/null directly.
 *   - Each PE stream may have OUT_LIMIT bytes waiting; beyond, oshrun stops
 *     reading its pipe and the PE's own writes wait (back-pressure), as
 *     they would on the reader's pipe without oshrun in between.
 *   - oshrun's own messages go through the stderr queue too (stderr is a
 *     stream that appends to it), in order with the PEs' lines.
 *   - A job that failed does not wait for a reader that has stopped: once
 *     no PE runs, what the streams have not taken for STALL_MS is dropped.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "oshrun.h"

#define OUT_LIMIT (64u << 10)
#define STALL_MS 1000

struct chunk {
    struct chunk *next;
    struct outbuf *owner; /* NULL: oshrun's own words */
    size_t len, off;
    char data[];
};

enum sink_kind { SINK_DIRECT, SINK_NONBLOCK, SINK_SOCKET, SINK_POLLED };

struct sink {
    int fd;
    enum sink_kind kind;
    bool writable;  /* SINK_POLLED: poll said so since the last write */
    bool broken;    /* the reader is gone: output is dropped */
    struct chunk *head, *tail;
    size_t queued;
    long progress;  /* now_ms() of the last write that took something, or of the queue's start */
    unsigned long dropped;
};

static struct sink sinks[2]; /* stdout, stderr */

static void sink_open(struct sink *s, int fd)
{
    struct stat st;
    *s = (struct sink){.fd = fd, .kind = SINK_DIRECT};
    if (fstat(fd, &st) != 0)
        return;
    if (S_ISSOCK(st.st_mode)) {
        s->kind = SINK_SOCKET;
    } else if (S_ISFIFO(st.st_mode) || (S_ISCHR(st.st_mode) && isatty(fd))) {
        char path[64];
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
        int own = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
        if (own >= 0) {
            s->fd = own;
            s->kind = SINK_NONBLOCK;
        } else {
            s->kind = SINK_POLLED;
        }
    }
}

static void drop_chunk(struct sink *s)
{
    struct chunk *c = s->head;
    s->head = c->next;
    if (!s->head)
        s->tail = NULL;
    s->queued -= c->len - c->off;
    if (c->owner)
        c->owner->queued -= c->len - c->off;
    free(c);
}

static void sink_break(struct sink *s)
{
    s->broken = true;
    while (s->head)
        drop_chunk(s);
}

/* Writes what the stream takes now. */
static void sink_write(struct sink *s)
{
    while (s->head && !s->broken) {
        struct chunk *c = s->head;
        size_t len = c->len - c->off;
        ssize_t n;
        if (s->kind == SINK_POLLED) {
            if (!s->writable)
                return;
            s->writable = false;
            if (len > PIPE_BUF)
                len = PIPE_BUF;
        }
        if (s->kind == SINK_SOCKET)
            n = send(s->fd, c->data + c->off, len, MSG_DONTWAIT | MSG_NOSIGNAL);
        else
            n = write(s->fd, c->data + c->off, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        if (n <= 0) {
            sink_break(s);
            return;
        }
        s->progress = now_ms();
        c->off += (size_t)n;
        s->queued -= (size_t)n;
        if (c->owner)
            c->owner->queued -= (size_t)n;
        if (c->off == c->len)
            drop_chunk(s);
    }
}

static void enqueue(struct sink *s, struct outbuf *owner, const char *a, size_t alen,
                    const char *b, size_t blen)
{
    if (s->broken || alen + blen == 0)
        return;
    struct chunk *c = malloc(sizeof *c + alen + blen);
    if (!c) {
        s->dropped += alen + blen;
        return;
    }
    *c = (struct chunk){.owner = owner, .len = alen + blen};
    if (alen)
        memcpy(c->data, a, alen);
    if (blen)
        memcpy(c->data + alen, b, blen);
    if (!s->head)
        s->progress = now_ms();
    if (s->tail)
        s->tail->next = c;
    else
        s->head = c;
    s->tail = c;
    s->queued += c->len;
    if (owner)
        owner->queued += c->len;
    sink_write(s);
}

/* oshrun's own stderr: appends to the queue. */
static ssize_t own_write(void *cookie, const char *buf, size_t len)
{
    enqueue(cookie, NULL, buf, len, NULL, 0);
    return (ssize_t)len;
}

void output_init(void)
{
    sink_open(&sinks[0], 1);
    sink_open(&sinks[1], 2);
    fflush(stderr);
    FILE *own = fopencookie(&sinks[1], "w", (cookie_io_functions_t){.write = own_write});
    if (own) {
        setvbuf(own, NULL, _IOLBF, 0);
        stderr = own;
    }
}

/* Writes LEN bytes of one line (ENDS: with its newline), tagged at its start. */
static void put(struct outbuf *b, const char *data, size_t len, bool ends)
{
    char tag[48] = "";
    if (!b->midline && opt.tag == TAG_OMPI)
        snprintf(tag, sizeof tag, "[1,%d]<%s>:", b->rank, b->to == 1 ? "stdout" : "stderr");
    else if (!b->midline && opt.tag == TAG_RANK)
        snprintf(tag, sizeof tag, "[%d] ", b->rank);
    enqueue(&sinks[b->to - 1], b, tag, strlen(tag), data, len);
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

bool output_wants_read(const struct outbuf *b)
{
    return b->fd >= 0 && b->queued < OUT_LIMIT;
}

void output_close(struct outbuf *b)
{
    if (b->fd < 0)
        return;
    flush_lines(b, true);
    close(b->fd);
    b->fd = -1;
}

void output_read(struct outbuf *b)
{
    ssize_t n = read(b->fd, b->data + b->len, sizeof b->data - b->len);
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return;
    if (n <= 0) {
        output_close(b);
        return;
    }
    b->len += (size_t)n;
    flush_lines(b, false);
}

size_t output_fill(struct pollfd *p)
{
    for (int k = 0; k < 2; k++)
        p[k] = (struct pollfd){.fd = sinks[k].head ? sinks[k].fd : -1, .events = POLLOUT};
    return 2;
}

void output_handle(const struct pollfd *p)
{
    for (int k = 0; k < 2; k++) {
        struct sink *s = &sinks[k];
        if (p[k].fd < 0 || !p[k].revents)
            continue;
        if (p[k].revents & (POLLERR | POLLNVAL)) {
            sink_break(s);
            continue;
        }
        s->writable = true;
        sink_write(s);
    }
}

bool output_pending(void) { return sinks[0].head || sinks[1].head; }

bool output_stalled(void)
{
    long now = now_ms();
    for (int k = 0; k < 2; k++)
        if (sinks[k].head && now - sinks[k].progress >= STALL_MS)
            return true;
    return false;
}

int output_tick(void)
{
    int next = -1;
    long now = now_ms();
    for (int k = 0; k < 2; k++)
        if (sinks[k].head) {
            long left = sinks[k].progress + STALL_MS - now;
            int ms = left < 0 ? 0 : (int)left;
            if (next < 0 || ms < next)
                next = ms;
        }
    return next;
}

/* One round of writing, waiting up to TIMEOUT ms for a stream to take more. */
static void write_round(int timeout)
{
    struct pollfd p[2];
    output_fill(p);
    int ready = poll(p, 2, timeout);
    if (ready > 0)
        output_handle(p);
}

void output_finish(bool bounded)
{
    fflush(stderr);
    while (output_pending() && !(bounded && output_stalled()))
        write_round(bounded ? output_tick() : -1);
    size_t left = sinks[0].queued + sinks[0].dropped;
    while (sinks[0].head)
        drop_chunk(&sinks[0]);
    if (left) {
        fprintf(stderr, "oshrun: %zu bytes of the PEs' standard output were not delivered: "
                        "its reader stopped reading\n", left);
        fflush(stderr);
        write_round(0);
    }
    while (sinks[1].head)
        drop_chunk(&sinks[1]);
}
