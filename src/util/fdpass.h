/*
 * Descriptors passed over a unix socket (SCM_RIGHTS): by the IPC service
 * (a peer's memory) and by the bootstrap server (the node's copy of a
 * start-up exchange). Inline, C and C++ (unit tests include its users).
 */
#ifndef OSHM_UTIL_FDPASS_H
#define OSHM_UTIL_FDPASS_H

#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* Room for what a message may carry: one descriptor is asked for, a few
 * are read so that extra ones can be closed rather than leaked. */
union oshm_fdpass_buf {
    struct cmsghdr align;
    char space[CMSG_SPACE(sizeof(int) * 4)];
};

/* Attaches FD to the message M, its control data in BUF. */
static inline void oshm_fdpass_attach(struct msghdr *m, union oshm_fdpass_buf *buf, int fd)
{
    memset(buf, 0, sizeof *buf);
    m->msg_control = buf->space;
    m->msg_controllen = CMSG_SPACE(sizeof(int));
    struct cmsghdr *c = CMSG_FIRSTHDR(m);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(c), &fd, sizeof fd);
}

/* Makes M ready to receive descriptors into BUF. */
static inline void oshm_fdpass_expect(struct msghdr *m, union oshm_fdpass_buf *buf)
{
    m->msg_control = buf->space;
    m->msg_controllen = sizeof buf->space;
}

/* The descriptors M received: the first goes to *FIRST while it is -1,
 * every other is closed. */
static inline void oshm_fdpass_take(struct msghdr *m, int *first)
{
    for (struct cmsghdr *c = CMSG_FIRSTHDR(m); c; c = CMSG_NXTHDR(m, c)) {
        if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
            continue;
        size_t n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (size_t i = 0; i < n; i++) {
            int got;
            memcpy(&got, CMSG_DATA(c) + i * sizeof(int), sizeof got);
            if (*first < 0)
                *first = got;
            else
                close(got);
        }
    }
}

#endif
