/*
 * Rank 0's rendezvous for the unique-id bootstrap: a thread that plays
 * oshrun's part of the launcher protocol (boot_wire.h) for the job's
 * members, rank 0 included. A connection becomes a member once its HELLO
 * repeats the id's secret for a rank not yet taken, within
 * BOOT_WIRE_HELLO_DEADLINE_MS; any other connection is closed and said on
 * rank 0's standard error. When a member aborts or leaves without
 * finalizing, the job ends: rank 0 exits and every member's socket closes
 * (their watchers end them, boot_uid.c).
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "boot/boot.h"
#include "boot/boot_wire.h"

struct member {
    int fd;
    bool finalized;
    char *gather; /* this round's contribution */
    uint64_t gather_len;
    bool gathered;
};

struct server {
    int listen_fd, size, joined, finalized, ngathered;
    char secret[BOOT_WIRE_SECRET_LEN + 1];
    struct member *m;
};

static pthread_t server_thread;
static bool serving;

static bool secret_matches(const char *a, const char *b, size_t len)
{
    unsigned char diff = 0;
    for (size_t i = 0; i < len; i++)
        diff |= (unsigned char)(a[i] ^ b[i]);
    return diff == 0;
}

/* A new connection: a member, or closed. */
static void admit(struct server *s, int fd)
{
    struct timeval tv = {.tv_sec = BOOT_WIRE_HELLO_DEADLINE_MS / 1000,
                         .tv_usec = (BOOT_WIRE_HELLO_DEADLINE_MS % 1000) * 1000};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    struct boot_wire_hdr h;
    char secret[BOOT_WIRE_SECRET_LEN];
    const char *why = NULL;
    if (boot_wire_read_all(fd, &h, sizeof h) != 0)
        why = "no HELLO in time";
    else if (h.type != BOOT_WIRE_HELLO || h.len != BOOT_WIRE_SECRET_LEN ||
             boot_wire_read_all(fd, secret, sizeof secret) != 0)
        why = "not a HELLO";
    else if (!secret_matches(secret, s->secret, sizeof secret))
        why = "wrong secret";
    else if (h.rank >= (uint32_t)s->size || s->m[h.rank].fd >= 0)
        why = "rank out of range or taken";
    if (why) {
        fprintf(stderr, "shmem: the unique id's rendezvous refused a connection: %s\n", why);
        close(fd);
        return;
    }
    struct timeval none = {0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &none, sizeof none);
    s->m[h.rank].fd = fd;
    s->joined++;
}

static _Noreturn void end_job(struct server *s, int status)
{
    for (int r = 0; r < s->size; r++)
        if (s->m[r].fd >= 0)
            shutdown(s->m[r].fd, SHUT_RDWR);
    fflush(NULL);
    _exit(status);
}

static void reply_all(struct server *s)
{
    uint64_t total = 0;
    for (int r = 0; r < s->size; r++)
        total += 8 + s->m[r].gather_len;
    struct boot_wire_hdr h = {.type = BOOT_WIRE_ALLGATHER, .len = total};
    for (int r = 0; r < s->size; r++) {
        struct member *m = &s->m[r];
        h.rank = (uint32_t)r;
        bool ok = boot_wire_send_all(m->fd, &h, sizeof h) == 0;
        for (int q = 0; ok && q < s->size; q++)
            ok = boot_wire_send_all(m->fd, &s->m[q].gather_len, 8) == 0 &&
                 boot_wire_send_all(m->fd, s->m[q].gather, s->m[q].gather_len) == 0;
        if (!ok) {
            fprintf(stderr, "shmem: the unique id's rendezvous lost rank %d\n", r);
            end_job(s, 1);
        }
    }
    for (int r = 0; r < s->size; r++) {
        free(s->m[r].gather);
        s->m[r].gather = NULL;
        s->m[r].gather_len = 0;
        s->m[r].gathered = false;
    }
    s->ngathered = 0;
}

/* One message of member R. */
static void serve_member(struct server *s, int r)
{
    struct member *m = &s->m[r];
    struct boot_wire_hdr h;
    if (boot_wire_read_all(m->fd, &h, sizeof h) != 0 || h.len > BOOT_WIRE_MAX_PAYLOAD) {
        fprintf(stderr, "shmem: rank %d left the job without shmem_finalize; ending it\n", r);
        end_job(s, 1);
    }
    char *payload = malloc(h.len ? h.len : 1);
    if (!payload || boot_wire_read_all(m->fd, payload, h.len) != 0) {
        fprintf(stderr, "shmem: rank %d: truncated bootstrap message; ending the job\n", r);
        end_job(s, 1);
    }
    switch (h.type) {
    case BOOT_WIRE_ALLGATHER:
        if (m->gathered) {
            fprintf(stderr, "shmem: rank %d contributed twice to one exchange\n", r);
            end_job(s, 1);
        }
        m->gather = payload;
        m->gather_len = h.len;
        m->gathered = true;
        if (++s->ngathered == s->size)
            reply_all(s);
        return;
    case BOOT_WIRE_ABORT: {
        int32_t status = 1;
        if (h.len >= 4)
            memcpy(&status, payload, 4);
        fprintf(stderr, "shmem: rank %d aborted the job (status %d): %.*s\n", r, status,
                (int)(h.len >= 4 ? h.len - 4 : 0), payload + 4);
        end_job(s, status ? status : 1);
    }
    case BOOT_WIRE_FINALIZE:
        free(payload);
        m->finalized = true;
        s->finalized++;
        close(m->fd);
        m->fd = -1;
        return;
    default:
        fprintf(stderr, "shmem: rank %d sent an unknown bootstrap message %u\n", r, h.type);
        end_job(s, 1);
    }
}

static void *serve(void *arg)
{
    struct server *s = arg;
    struct pollfd *p = calloc((size_t)s->size + 1, sizeof *p);
    if (!p)
        end_job(s, 1);
    while (s->finalized < s->size) {
        int n = 0;
        if (s->joined < s->size)
            p[n++] = (struct pollfd){.fd = s->listen_fd, .events = POLLIN};
        for (int r = 0; r < s->size; r++)
            p[n++] = (struct pollfd){.fd = s->m[r].fd, .events = POLLIN};
        if (poll(p, (nfds_t)n, -1) < 0) {
            if (errno == EINTR)
                continue;
            end_job(s, 1);
        }
        int i = 0;
        if (s->joined < s->size && (p[i++].revents & POLLIN)) {
            int fd = accept4(s->listen_fd, NULL, NULL, SOCK_CLOEXEC);
            if (fd >= 0)
                admit(s, fd);
        }
        for (int r = 0; r < s->size; r++, i++)
            if (s->m[r].fd >= 0 && p[i].revents)
                serve_member(s, r);
    }
    close(s->listen_fd);
    free(p);
    free(s->m);
    free(s);
    return NULL;
}

int oshm_boot_uid_serve(int listen_fd, int size, const char *secret)
{
    struct server *s = calloc(1, sizeof *s);
    struct member *m = calloc((size_t)size, sizeof *m);
    if (!s || !m) {
        free(s);
        free(m);
        return -1;
    }
    for (int r = 0; r < size; r++)
        m[r].fd = -1;
    *s = (struct server){.listen_fd = listen_fd, .size = size, .m = m};
    snprintf(s->secret, sizeof s->secret, "%s", secret);
    if (pthread_create(&server_thread, NULL, serve, s) != 0) {
        fprintf(stderr, "shmem: cannot start the unique id's rendezvous thread\n");
        free(m);
        free(s);
        return -1;
    }
    serving = true;
    return 0;
}

void oshm_boot_uid_serve_wait(void)
{
    if (serving)
        pthread_join(server_thread, NULL);
    serving = false;
}
