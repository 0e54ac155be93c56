/*
 * A bootstrap connection, shared by server.c (who may talk: accepting,
 * framing, membership) and exchange.c (what members say).
 */
#ifndef OSHRUN_CONN_H
#define OSHRUN_CONN_H

#include <stdbool.h>
#include <stddef.h>

#include "boot/boot_wire.h"

/* One exchange's reply, shared by every PE's connection until each has
 * been sent it. */
struct reply {
    size_t refs;
    size_t len;
    char data[];
};

struct conn {
    int fd;
    int rank;      /* -1 until its HELLO carried the secret */
    long deadline; /* a stranger's, in now_ms() time */
    bool dead;     /* to be closed at the end of this round */
    char who[96];  /* the peer, for the log */
    /* the message being read: header, then payload */
    struct boot_wire_hdr hdr;
    size_t got;    /* bytes of header + payload read so far */
    char *payload;
    /* this PE's contribution to the current exchange */
    char *gather;
    size_t gather_len;
    bool gathered;
    /* the reply being sent: header, then the shared data */
    struct boot_wire_hdr out_hdr;
    struct reply *out;
    size_t sent;
};

/* exchange.c */
int exchange_init(void);
void exchange_fini(void);
/* Handles a complete message of a member; marks C dead on a violation. */
void exchange_message(struct conn *c);
/* Sends what the socket takes of C's pending reply. */
void exchange_send(struct conn *c);
/* C goes: its contribution and its share of a reply with it. */
void exchange_forget(struct conn *c);

#endif
