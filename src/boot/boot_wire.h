/*
 * The bootstrap protocol between a PE and its server: oshrun's launcher, or
 * rank 0's rendezvous of the unique-id start-up (boot_server.c serves both),
 * over the socket named in OSHRUN_ADDR or in the id: "@name" (abstract unix
 * socket) or "tcp:IP:PORT". Both sides are built from one source tree for
 * one architecture, so integers travel in host byte order.
 *
 * Every message is a header (struct boot_wire_hdr) and LEN bytes of payload.
 * The job's secret never crosses the wire (docs/security.md):
 *
 *   server -> PE  CHALLENGE  job id (16 bytes) + server nonce (32), fresh
 *                            for each connection, sent at accept
 *   PE -> server  HELLO      PE nonce (32) + HMAC-SHA-256 keyed with the
 *                            secret over "oshm-hello-1", job id, both
 *                            nonces, rank and size (boot_auth.h)
 *
 * A HELLO proves that its sender holds the secret and answers this
 * connection's nonce: one captured on another connection does not verify.
 * From then on each message carries a 32-byte tag after its payload, an
 * HMAC under a key of this connection and direction (derived from the
 * secret and both nonces) over a message counter, the header and the
 * payload's SHA-256: a message injected into, replayed on, reordered in or
 * moved to another connection does not verify, and ends the connection.
 *
 *   server -> PE  WELCOME    u32 heartbeat interval in ms (0: none) + u32
 *                            flags; the server holds the secret too
 *   PE -> server  ALLGATHER  payload: this PE's contribution
 *   server -> PE  ALLGATHER  payload: for each rank, u64 length + bytes
 *   server -> PE  ALLGATHER_SHARED  payload: u64 length; the same bytes as
 *                            ALLGATHER's behind an index of (ranks + 1) u64
 *                            offsets of each rank's block from the start
 *                            (the last: the length), in a sealed memfd passed with the
 *                            message (SCM_RIGHTS), to a PE on a unix socket
 *                            only: one copy of the exchange per node, which
 *                            every PE maps read-only and reads in place,
 *                            where each PE had received, hashed and copied
 *                            the whole job's data (n^2 bytes a node). The
 *                            kernel vouches that the descriptor came from
 *                            the authenticated peer of the connection, and
 *                            the seals that nobody changes the bytes after.
 *   PE -> server  ABORT      i32 status + u32 flags + message text
 *   PE -> server  TEARDOWN   (see below)
 *   PE -> server  FINALIZE   u32 flags; the PE finished cleanly
 *   PE -> server  HEARTBEAT  the OpenSHMEM routine the PE is in, as text
 *                            ("" when none), every heartbeat interval
 *
 * The server reads every connection without blocking; one that has not
 * proved membership within BOOT_WIRE_HELLO_DEADLINE_MS is dropped, one that
 * sends anything malformed at once.
 */
#ifndef OSHM_BOOT_BOOT_WIRE_H
#define OSHM_BOOT_BOOT_WIRE_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "util/env_table.h"
#include "util/fdpass.h"

enum boot_wire_type {
    BOOT_WIRE_HELLO = 1,
    BOOT_WIRE_ALLGATHER = 2,
    BOOT_WIRE_ABORT = 3,
    BOOT_WIRE_FINALIZE = 4,
    /* No payload: the PE's last shmem_finalize met the others' (its barrier
     * completed); only its own teardown remains before FINALIZE. */
    BOOT_WIRE_TEARDOWN = 5,
    BOOT_WIRE_CHALLENGE = 6,
    BOOT_WIRE_WELCOME = 7,
    BOOT_WIRE_HEARTBEAT = 8,
    BOOT_WIRE_ALLGATHER_SHARED = 9,
};

struct boot_wire_hdr {
    uint32_t type;
    uint32_t rank;
    uint64_t len; /* of the payload, not counting the tag */
};

#define BOOT_WIRE_JOB_LEN 16
#define BOOT_WIRE_NONCE_LEN 32
#define BOOT_WIRE_MAC_LEN 32
#define BOOT_WIRE_CHALLENGE_LEN (BOOT_WIRE_JOB_LEN + BOOT_WIRE_NONCE_LEN)
#define BOOT_WIRE_HELLO_LEN (BOOT_WIRE_NONCE_LEN + BOOT_WIRE_MAC_LEN)
#define BOOT_WIRE_WELCOME_LEN 8

/* FINALIZE flags */
#define BOOT_WIRE_FINALIZE_AT_EXIT 1u /* the library finalized at exit, not the program */
/* ABORT flags */
#define BOOT_WIRE_ABORT_GLOBAL_EXIT 1u /* shmem_global_exit, not an error of the library */

#define BOOT_WIRE_SECRET_LEN 32      /* hex characters */
/* A PE sends its HELLO as soon as it is connected; the margin is for a PE
 * descheduled in between on a node with many more PEs than cores. */
#define BOOT_WIRE_HELLO_DEADLINE_MS 5000
#define BOOT_WIRE_MAX_PAYLOAD (64u << 20)
/* What an ABORT's text or a HEARTBEAT's routine may hold. */
#define BOOT_WIRE_MAX_TEXT 4096u

/* What oshrun sets for its PEs (rows of util/env_table.h). */
#define OSHRUN_ENV_ADDR OSHM_ENV_NAME(OSHRUN_ADDR)
#define OSHRUN_ENV_SECRET OSHM_ENV_NAME(OSHRUN_SECRET)
#define OSHRUN_ENV_JOB OSHM_ENV_NAME(OSHRUN_JOB)
#define OSHRUN_ENV_RANK OSHM_ENV_NAME(OSHRUN_RANK)
#define OSHRUN_ENV_SIZE OSHM_ENV_NAME(OSHRUN_SIZE)
/* A PE on another host reads the secret, one line, from this descriptor. */
#define OSHRUN_ENV_SECRET_FD OSHM_ENV_NAME(OSHRUN_SECRET_FD)

/* Blocking full write; 0 on success, -1 on error or EOF. On a socket
 * (SOCKET) from inside a program, send without SIGPIPE: a closed connection
 * is an error to report, not a signal that ends the process without a word. */
static inline int boot_wire_out_all(int fd, const void *buf, size_t len, int socket)
{
    const char *p = (const char *)buf;
    while (len) {
        ssize_t n = socket ? send(fd, p, len, MSG_NOSIGNAL) : write(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

static inline int boot_wire_write_all(int fd, const void *buf, size_t len)
{
    return boot_wire_out_all(fd, buf, len, 0);
}

static inline int boot_wire_send_all(int fd, const void *buf, size_t len)
{
    return boot_wire_out_all(fd, buf, len, 1);
}

/* Blocking full read; 0 on success, -1 on error or EOF. */
static inline int boot_wire_read_all(int fd, void *buf, size_t len)
{
    char *p = (char *)buf;
    while (len) {
        ssize_t n = read(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

/* The same, from a socket that may pass a descriptor with the bytes
 * (SCM_RIGHTS): the first one passed goes to *PASSED (-1 when none; it
 * must be -1 on entry), any other is closed. */
static inline int boot_wire_read_all_fd(int fd, void *buf, size_t len, int *passed)
{
    char *p = (char *)buf;
    while (len) {
        union oshm_fdpass_buf control;
        struct iovec iov = {p, len};
        struct msghdr m;
        memset(&m, 0, sizeof m);
        m.msg_iov = &iov;
        m.msg_iovlen = 1;
        oshm_fdpass_expect(&m, &control);
        ssize_t n = recvmsg(fd, &m, MSG_CMSG_CLOEXEC);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        oshm_fdpass_take(&m, passed);
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

#endif
