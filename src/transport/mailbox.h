/*
 * Messages that land in this process's own memory instead of at a
 * symmetric address: a network backend's handler drops each one here
 * (mailbox_drop), tagged by its sender; the library takes it out by sender
 * and tag when it gets there (mailbox_take), however early it came.
 *
 * What it is for: a collective whose receive space at the target is not
 * free until the target is in the call (an active set's reductions) had to
 * wait for the target's word that it is, two network latencies a step
 * where the data alone take one. A message that needs no space at the
 * target needs no word. Backends with active messages (UCX) have this;
 * others leave the collectives on their words.
 *
 * A stranger who reaches a backend could fill memory with messages: what
 * is held is bounded (MAILBOX_HOLD_MAX bytes), and past it a message is
 * dropped, loudly.
 */
#ifndef OSHM_TRANSPORT_MAILBOX_H
#define OSHM_TRANSPORT_MAILBOX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The most a message carries, and the most held at once. */
#define MAILBOX_MSG_MAX 65536
#define MAILBOX_HOLD_MAX (64u << 20)

/* Keeps a copy of LEN bytes of DATA from world PE FROM under TAG; -1 when
 * dropped (too long, or past what may be held). Any thread. */
int mailbox_drop(int from, uint64_t tag, const void *data, size_t len);

/* Whether the message from FROM under TAG is here; if it is, copies it to
 * DST (LEN bytes: a length that differs is the caller's bug, and fatal)
 * and forgets it. Any thread. */
bool mailbox_take(int from, uint64_t tag, void *dst, size_t len);

/* Forgets every message held (at the backend's close). */
void mailbox_clear(void);

#endif
