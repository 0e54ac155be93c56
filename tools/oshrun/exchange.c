/*
 * What members say: contributions to the start-up exchange (an allgather:
 * once every PE contributed, each gets all contributions in rank order),
 * abort, finalize. Replies are written without blocking; one reply's data
 * is shared by every connection it goes to.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "conn.h"
#include "oshrun.h"

static struct conn **contrib; /* by rank: this exchange's contributions */
static int ncontrib;

int exchange_init(void)
{
    contrib = calloc((size_t)opt.npes, sizeof *contrib);
    return contrib ? 0 : -1;
}

void exchange_fini(void)
{
    free(contrib);
    contrib = NULL;
}

static void release_reply(struct conn *c)
{
    if (c->out && --c->out->refs == 0)
        free(c->out);
    c->out = NULL;
    c->sent = 0;
}

void exchange_forget(struct conn *c)
{
    if (c->gathered) {
        contrib[c->rank] = NULL;
        ncontrib--;
    }
    free(c->gather);
    c->gather = NULL;
    c->gathered = false;
    release_reply(c);
}

void exchange_send(struct conn *c)
{
    size_t hl = sizeof c->out_hdr, total = hl + c->out->len;
    while (c->sent < total) {
        struct iovec iov[2];
        int n = 0;
        if (c->sent < hl)
            iov[n++] = (struct iovec){(char *)&c->out_hdr + c->sent, hl - c->sent};
        size_t off = c->sent > hl ? c->sent - hl : 0;
        if (c->out->len > off)
            iov[n++] = (struct iovec){c->out->data + off, c->out->len - off};
        ssize_t w = writev(c->fd, iov, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        if (w <= 0) {
            fprintf(stderr, "oshrun: cannot send bootstrap data to PE %d\n", c->rank);
            c->dead = true;
            break;
        }
        c->sent += (size_t)w;
    }
    release_reply(c);
}

/* Every PE contributed: each gets every contribution, in rank order. */
static void complete(void)
{
    size_t total = 0;
    for (int k = 0; k < opt.npes; k++)
        total += 8 + contrib[k]->gather_len;
    struct reply *r = malloc(sizeof *r + total);
    if (!r) {
        fprintf(stderr, "oshrun: out of memory\n");
        job_end(1);
        return;
    }
    r->refs = 1; /* this function's, until every send is started */
    r->len = total;
    size_t pos = 0;
    for (int k = 0; k < opt.npes; k++) {
        struct conn *c = contrib[k];
        uint64_t len = c->gather_len;
        memcpy(r->data + pos, &len, 8);
        if (len)
            memcpy(r->data + pos + 8, c->gather, len);
        pos += 8 + len;
        free(c->gather);
        c->gather = NULL;
        c->gather_len = 0;
        c->gathered = false;
        release_reply(c); /* none: a member reads each reply before it sends again */
        c->out_hdr = (struct boot_wire_hdr){.type = BOOT_WIRE_ALLGATHER, .rank = (uint32_t)k,
                                            .len = total};
        c->out = r;
        r->refs++;
    }
    ncontrib = 0;
    /* As far as each socket takes it, in rank order; poll does the rest. */
    for (int k = 0; k < opt.npes; k++) {
        struct conn *c = contrib[k];
        contrib[k] = NULL;
        if (!c->dead)
            exchange_send(c);
    }
    if (--r->refs == 0)
        free(r);
}

void exchange_message(struct conn *c)
{
    switch (c->hdr.type) {
    case BOOT_WIRE_ALLGATHER:
        if (c->gathered) {
            fprintf(stderr, "oshrun: PE %d sent two contributions to one exchange\n", c->rank);
            c->dead = true;
            return;
        }
        c->gather = c->payload;
        c->gather_len = c->hdr.len;
        c->payload = NULL;
        c->gathered = true;
        contrib[c->rank] = c;
        if (++ncontrib == opt.npes)
            complete();
        return;
    case BOOT_WIRE_ABORT: {
        int32_t status = 1;
        if (c->hdr.len >= 4)
            memcpy(&status, c->payload, 4);
        if (!ending && status != 0)
            fprintf(stderr, "oshrun: PE %d called %s with status %d; ending the job\n", c->rank,
                    c->hdr.len > 4 ? c->payload + 4 : "abort", status);
        job_end(status);
        return;
    }
    case BOOT_WIRE_TEARDOWN:
        job_pe_tearing_down(c->rank);
        return;
    case BOOT_WIRE_FINALIZE: {
        uint32_t flags = 0;
        if (c->hdr.len >= 4)
            memcpy(&flags, c->payload, 4);
        job_pe_finalized(c->rank, flags & BOOT_WIRE_FINALIZE_AT_EXIT);
        return;
    }
    default:
        fprintf(stderr, "oshrun: unknown bootstrap message %u from PE %d\n", c->hdr.type,
                c->rank);
        c->dead = true;
    }
}
