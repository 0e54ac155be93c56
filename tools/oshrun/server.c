/*
 * The bootstrap server. Anyone who can reach the socket can connect (an
 * abstract unix socket has no file permissions; TCP is a network), so a
 * connection counts for nothing until its first message carried the job's
 * secret, and no connection can hold the others up:
 *   - every socket is non-blocking and read into a buffer of its own, a
 *     message at a time as its bytes arrive;
 *   - a connection that has not proved membership within
 *     BOOT_WIRE_HELLO_DEADLINE_MS is dropped, one that sends anything else
 *     than the secret at once;
 *   - there is no fixed number of connections: strangers never take a PE's
 *     place; when descriptors run out the oldest stranger makes room.
 * Refusals are logged with the peer (pid and uid for the unix socket,
 * address and port for TCP), the first LOG_REFUSALS of them one by one.
 * What members say once they are in is exchange.c's.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>

#include "conn.h"
#include "oshrun.h"

#define LOG_REFUSALS 20
#define ACCEPTS_PER_ROUND 64
#define ACCEPT_PAUSE_MS 100

char job_secret[BOOT_WIRE_SECRET_LEN + 1];

static int listen_fd = -1;
static struct conn **conns;
static size_t nconns, cap;
static long accept_paused_until;
static unsigned long refused;

static void make_secret(void)
{
    unsigned char rnd[BOOT_WIRE_SECRET_LEN / 2];
    if (getrandom(rnd, sizeof rnd, 0) != (ssize_t)sizeof rnd) {
        perror("oshrun: getrandom");
        exit(1);
    }
    for (size_t i = 0; i < sizeof rnd; i++)
        snprintf(job_secret + 2 * i, 3, "%02x", rnd[i]);
}

int server_init(int fd)
{
    listen_fd = fd;
    make_secret();
    return exchange_init();
}

static void free_conn(struct conn *c)
{
    if (c->fd >= 0)
        close(c->fd);
    free(c->payload);
    exchange_forget(c);
    free(c);
}

void server_fini(void)
{
    for (size_t i = 0; i < nconns; i++)
        free_conn(conns[i]);
    free(conns);
    conns = NULL;
    nconns = cap = 0;
    exchange_fini();
    if (refused > LOG_REFUSALS)
        fprintf(stderr, "oshrun: refused %lu bootstrap connections in all\n", refused);
    if (listen_fd >= 0)
        close(listen_fd);
    listen_fd = -1;
}

static void refuse(struct conn *c, const char *why)
{
    refused++;
    if (refused <= LOG_REFUSALS)
        fprintf(stderr, "oshrun: refused a bootstrap connection from %s: %s\n", c->who, why);
    if (refused == LOG_REFUSALS)
        fprintf(stderr, "oshrun: further refusals are counted, not listed\n");
    c->dead = true;
}

/* Who is at the other end, taken at accept: a peer that has gone may no
 * longer say. Returns false for a unix peer of another user: only root or
 * oshrun's own user can run its PEs. */
static bool describe_peer(struct conn *c, const struct sockaddr_storage *ss)
{
    snprintf(c->who, sizeof c->who, "an unknown peer");
    if (ss->ss_family == AF_INET) {
        const struct sockaddr_in *in = (const struct sockaddr_in *)ss;
        char ip[INET_ADDRSTRLEN] = "?";
        inet_ntop(AF_INET, &in->sin_addr, ip, sizeof ip);
        snprintf(c->who, sizeof c->who, "%s port %u", ip, (unsigned)ntohs(in->sin_port));
        return true;
    }
    struct ucred cred;
    socklen_t cl = sizeof cred;
    if (getsockopt(c->fd, SOL_SOCKET, SO_PEERCRED, &cred, &cl) != 0)
        return true;
    snprintf(c->who, sizeof c->who, "pid %d", (int)cred.pid);
    if (cred.uid == geteuid() || cred.uid == 0)
        return true;
    snprintf(c->who, sizeof c->who, "pid %d (uid %u)", (int)cred.pid, (unsigned)cred.uid);
    return false;
}

static bool grow_conns(void)
{
    if (nconns < cap)
        return true;
    size_t ncap = cap ? 2 * cap : 64;
    struct conn **grown = realloc(conns, ncap * sizeof *grown);
    if (!grown)
        return false;
    conns = grown;
    cap = ncap;
    return true;
}

/* Out of descriptors: the stranger that has had the longest makes room. */
static bool evict_oldest_stranger(void)
{
    struct conn *oldest = NULL;
    for (size_t i = 0; i < nconns; i++)
        if (conns[i]->rank < 0 && !conns[i]->dead &&
            (!oldest || conns[i]->deadline < oldest->deadline))
            oldest = conns[i];
    if (!oldest)
        return false;
    refuse(oldest, "out of descriptors for strangers");
    /* Closed now, not at the end of the round: the descriptor is needed. */
    shutdown(oldest->fd, SHUT_RDWR);
    close(oldest->fd);
    oldest->fd = -1;
    return true;
}

static void accept_some(void)
{
    for (int n = 0; n < ACCEPTS_PER_ROUND; n++) {
        struct sockaddr_storage ss;
        socklen_t sl = sizeof ss;
        int fd = accept4(listen_fd, (struct sockaddr *)&ss, &sl, SOCK_CLOEXEC | SOCK_NONBLOCK);
        if (fd < 0) {
            if (errno == EMFILE || errno == ENFILE) {
                if (!evict_oldest_stranger()) {
                    accept_paused_until = now_ms() + ACCEPT_PAUSE_MS;
                    return;
                }
                continue;
            }
            if (errno == EINTR || errno == ECONNABORTED)
                continue;
            return; /* EAGAIN: no one else waiting */
        }
        struct conn *c = calloc(1, sizeof *c);
        if (!c || !grow_conns()) {
            free(c);
            close(fd);
            fprintf(stderr, "oshrun: out of memory for a bootstrap connection\n");
            return;
        }
        c->fd = fd;
        c->rank = -1;
        c->deadline = now_ms() + BOOT_WIRE_HELLO_DEADLINE_MS;
        conns[nconns++] = c;
        if (!describe_peer(c, &ss)) {
            refuse(c, "another user");
            continue;
        }
        if (ss.ss_family == AF_INET) {
            int one = 1;
            setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        }
    }
}

/* Constant time: how long a comparison takes tells nothing of the secret. */
static bool secret_matches(const char *s)
{
    unsigned char diff = 0;
    for (size_t i = 0; i < BOOT_WIRE_SECRET_LEN; i++)
        diff |= (unsigned char)(s[i] ^ job_secret[i]);
    return diff == 0;
}

static void conn_read(struct conn *c);

/* The first message of a stranger, complete. */
static void hello(struct conn *c)
{
    uint32_t rank = c->hdr.rank;
    if (!secret_matches(c->payload)) {
        refuse(c, "not a member of this job");
        return;
    }
    /* Its last life's FINALIZE may still be queued on its old connection
     * (swept later, with the other dead ones). */
    for (size_t i = 0; rank < (uint32_t)opt.npes && pes[rank].connected &&
                       !pes[rank].finalized && i < nconns; i++)
        if (conns[i]->rank == (int)rank && !conns[i]->dead)
            conn_read(conns[i]);
    /* A PE that completed shmem_finalize may start a new life with
     * shmem_init (OpenSHMEM 1.6): it connects again. */
    if (rank >= (uint32_t)opt.npes || (pes[rank].connected && !pes[rank].finalized)) {
        refuse(c, rank >= (uint32_t)opt.npes ? "no such PE" : "that PE is already connected");
        return;
    }
    c->rank = (int)rank;
    job_pe_connected(c->rank);
}

/* The header is in: is the message acceptable, and where does it go? */
static bool start_payload(struct conn *c)
{
    if (c->rank < 0 && (c->hdr.type != BOOT_WIRE_HELLO || c->hdr.len != BOOT_WIRE_SECRET_LEN)) {
        refuse(c, "not a member of this job");
        return false;
    }
    if (c->hdr.len > BOOT_WIRE_MAX_PAYLOAD) {
        fprintf(stderr, "oshrun: refused a bootstrap message of %llu bytes from PE %d\n",
                (unsigned long long)c->hdr.len, c->rank);
        c->dead = true;
        return false;
    }
    /* One byte more: a text payload (an abort's message) ends in a NUL. */
    c->payload = calloc(1, c->hdr.len + 1);
    if (!c->payload) {
        fprintf(stderr, "oshrun: out of memory for a bootstrap message\n");
        c->dead = true;
        return false;
    }
    return true;
}

/* Reads what has arrived, handling every message it completes. */
static void conn_read(struct conn *c)
{
    const size_t hl = sizeof c->hdr;
    while (!c->dead) {
        /* Never empty: a message is handled as soon as it is complete. */
        char *dst = c->got < hl ? (char *)&c->hdr + c->got : c->payload + (c->got - hl);
        size_t want = c->got < hl ? hl - c->got : hl + c->hdr.len - c->got;
        ssize_t n = read(c->fd, dst, want);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        if (n <= 0) {
            if (c->rank < 0)
                refuse(c, c->got ? "closed in the middle of its first message"
                                 : "closed without a word");
            c->dead = true;
            return;
        }
        c->got += (size_t)n;
        if (c->got == hl && !start_payload(c))
            return;
        if (c->got < hl || c->got < hl + c->hdr.len)
            continue;
        if (c->rank < 0)
            hello(c);
        else
            exchange_message(c);
        free(c->payload);
        c->payload = NULL;
        c->got = 0;
    }
}

/* Closes the connections marked dead. */
static void sweep(void)
{
    size_t j = 0;
    for (size_t i = 0; i < nconns; i++) {
        if (conns[i]->dead) {
            free_conn(conns[i]);
        } else {
            conns[j++] = conns[i];
        }
    }
    nconns = j;
}

size_t server_nfds(void) { return 1 + nconns; }

size_t server_fill(struct pollfd *p)
{
    size_t n = 0;
    bool paused = accept_paused_until && now_ms() < accept_paused_until;
    p[n++] = (struct pollfd){.fd = paused ? -1 : listen_fd, .events = POLLIN};
    for (size_t i = 0; i < nconns; i++)
        p[n++] = (struct pollfd){.fd = conns[i]->fd,
                                 .events = (short)(POLLIN | (conns[i]->out ? POLLOUT : 0))};
    return n;
}

void server_handle(const struct pollfd *p, size_t n)
{
    /* Connections first, in the order server_fill gave them: accepting
     * may move them. */
    for (size_t i = 1; i < n && i - 1 < nconns; i++) {
        struct conn *c = conns[i - 1];
        if (c->dead || p[i].fd != c->fd)
            continue;
        if ((p[i].revents & POLLOUT) && c->out)
            exchange_send(c);
        if (p[i].revents & (POLLIN | POLLHUP | POLLERR))
            conn_read(c);
    }
    sweep();
    if (p[0].fd >= 0 && (p[0].revents & POLLIN))
        accept_some();
    sweep();
}

int server_tick(void)
{
    long now = now_ms(), next = -1;
    for (size_t i = 0; i < nconns; i++) {
        struct conn *c = conns[i];
        if (c->rank >= 0 || c->dead)
            continue;
        if (now >= c->deadline) {
            char why[64];
            snprintf(why, sizeof why, "no job secret within %d s",
                     BOOT_WIRE_HELLO_DEADLINE_MS / 1000);
            refuse(c, why);
        } else if (next < 0 || c->deadline < next) {
            next = c->deadline;
        }
    }
    sweep();
    if (accept_paused_until && now >= accept_paused_until)
        accept_paused_until = 0;
    if (accept_paused_until && (next < 0 || accept_paused_until < next))
        next = accept_paused_until;
    return next < 0 ? -1 : (int)(next - now);
}

void server_drain(int rank)
{
    for (size_t i = 0; i < nconns; i++)
        if (conns[i]->rank == rank && !conns[i]->dead)
            conn_read(conns[i]);
    sweep();
}
