/*
 * The bootstrap server (boot_wire.h), without blocking and without threads
 * of its own: oshrun's launcher drives it from its poll loop, rank 0 of a
 * unique-id job from its rendezvous thread (boot_uid_server.c). It accepts
 * connections, proves each with the challenge and HELLO, frames and checks
 * every message, runs the start-up exchange (an allgather) and hands
 * everything else members say to the events its user gives.
 *
 * Anyone who can reach the socket can connect (an abstract unix socket has
 * no file permissions; TCP is a network), so a connection counts for
 * nothing until its HELLO proved the job's secret for that connection, and
 * no connection can hold the others up:
 *   - every socket is non-blocking and read into a buffer of its own, a
 *     message at a time as its bytes arrive;
 *   - a connection that has not proved membership within
 *     BOOT_WIRE_HELLO_DEADLINE_MS of its accept is dropped, one that sends
 *     anything else than a well-formed HELLO at once;
 *   - there is no fixed number of connections: strangers never take a PE's
 *     place; when descriptors run out the oldest stranger makes room.
 * Refusals are logged with the peer (pid and uid for a unix socket, address
 * and port for TCP), the first few one by one, then counted; a unix peer of
 * another user is refused at accept.
 */
#ifndef OSHM_BOOT_BOOT_SERVER_H
#define OSHM_BOOT_BOOT_SERVER_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct boot_server;

/* What members say; ARG is the config's. Each may be NULL. */
struct boot_server_events {
    /* RANK proved membership: it is in shmem_init (again after a FINALIZE:
     * a new life, OpenSHMEM 1.6). */
    void (*joined)(void *arg, int rank);
    /* TEXT (LEN bytes, from the PE: print it as data) */
    void (*abort)(void *arg, int rank, int32_t status, uint32_t flags, const char *text,
                  size_t len);
    void (*teardown)(void *arg, int rank);
    void (*finalized)(void *arg, int rank, uint32_t flags);
    /* RANK's connection ended: the PE closed it, or it was dropped for a
     * message that does not verify. FINALIZED: it had sent FINALIZE. */
    void (*left)(void *arg, int rank, bool finalized);
    /* The server cannot go on (out of memory): the job must end. */
    void (*failed)(void *arg);
};

struct boot_server_config {
    int listen_fd;          /* non-blocking, listening; the server closes it */
    int size;               /* the job's PEs */
    const char *secret;     /* BOOT_WIRE_SECRET_LEN hex characters */
    const unsigned char *job; /* BOOT_WIRE_JOB_LEN bytes, public */
    const char *name;       /* what messages start with: "oshrun", ... */
    uint32_t heartbeat_ms;  /* what members are asked to send (0: nothing) */
    const struct boot_server_events *events;
    void *arg;
};

/* NULL when out of memory. */
struct boot_server *boot_server_new(const struct boot_server_config *cfg);
void boot_server_free(struct boot_server *s);

/* Poll: boot_server_fill writes at most boot_server_nfds entries; hand
 * what poll returned for them to boot_server_handle. */
size_t boot_server_nfds(const struct boot_server *s);
size_t boot_server_fill(struct boot_server *s, struct pollfd *p);
void boot_server_handle(struct boot_server *s, const struct pollfd *p, size_t n);
/* Drops strangers whose deadline passed; ms until the next one (-1: none). */
int boot_server_tick(struct boot_server *s);
/* Serves whatever RANK sent before it exited. */
void boot_server_drain(struct boot_server *s, int rank);
/* Closes every connection at once (the job ends). */
void boot_server_shutdown(struct boot_server *s);

/* What the server last heard of RANK: false when it has no live
 * connection. HEARD: boot_server_now_ms() of its last message; ROUTINE:
 * what its last heartbeat said it was in ("" none yet, or in no routine);
 * BEATING: it has sent a heartbeat. */
bool boot_server_member(const struct boot_server *s, int rank, long *heard, const char **routine,
                        bool *beating);

long boot_server_now_ms(void);

/* TEXT as data in OUT (SIZE bytes, NUL-terminated), for a message: in
 * quotes, bytes that are not printable ASCII as \xNN, and cut with "..."
 * past what fits. */
void boot_server_quote(const char *text, size_t len, char *out, size_t size);

#endif
