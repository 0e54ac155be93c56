/*
 * The protocol between a PE and oshrun's built-in launcher, over the socket
 * named in OSHRUN_ADDR: "@name" (abstract unix socket) or "tcp:IP:PORT".
 * Both sides are built from one source tree for one architecture, so
 * integers travel in host byte order.
 *
 *   PE -> launcher  HELLO      payload: the job secret (OSHRUN_SECRET)
 *   PE -> launcher  ALLGATHER  payload: this PE's contribution
 *   launcher -> PE  ALLGATHER  payload: for each rank, u64 length + bytes
 *   PE -> launcher  ABORT      payload: i32 status + message text
 *   PE -> launcher  FINALIZE   payload: u32 flags; the PE finished cleanly
 *
 * A connection is a member of the job once its HELLO carried the secret;
 * the launcher reads every connection without blocking and drops one that
 * has not proved membership within BOOT_WIRE_HELLO_DEADLINE_MS.
 */
#ifndef OSHM_BOOT_BOOT_WIRE_H
#define OSHM_BOOT_BOOT_WIRE_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <unistd.h>

#include "util/env_table.h"

enum boot_wire_type {
    BOOT_WIRE_HELLO = 1,
    BOOT_WIRE_ALLGATHER = 2,
    BOOT_WIRE_ABORT = 3,
    BOOT_WIRE_FINALIZE = 4,
    /* No payload: the PE's last shmem_finalize met the others' (its barrier
     * completed); only its own teardown remains before FINALIZE. */
    BOOT_WIRE_TEARDOWN = 5,
};

struct boot_wire_hdr {
    uint32_t type;
    uint32_t rank;
    uint64_t len;
};

/* FINALIZE flags */
#define BOOT_WIRE_FINALIZE_AT_EXIT 1u /* the library finalized at exit, not the program */

#define BOOT_WIRE_SECRET_LEN 32      /* hex characters */
/* A PE sends its HELLO as soon as it is connected; the margin is for a PE
 * descheduled in between on a node with many more PEs than cores. */
#define BOOT_WIRE_HELLO_DEADLINE_MS 5000
#define BOOT_WIRE_MAX_PAYLOAD (64u << 20)

/* What oshrun sets for its PEs (rows of util/env_table.h). */
#define OSHRUN_ENV_ADDR OSHM_ENV_NAME(OSHRUN_ADDR)
#define OSHRUN_ENV_SECRET OSHM_ENV_NAME(OSHRUN_SECRET)
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

#endif
