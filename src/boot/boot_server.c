#include "boot/boot_server.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "boot/boot_auth.h"
#include "boot/boot_wire.h"

#define LOG_REFUSALS 20
#define ACCEPTS_PER_ROUND 64
#define ACCEPT_PAUSE_MS 100
#define ROUTINE_MAX 64
/* A member's host that vanished (power, network) sends no FIN: the kernel's
 * keepalive probes find it within IDLE + INTERVAL * COUNT seconds. */
#define KEEPALIVE_IDLE_S 10
#define KEEPALIVE_INTERVAL_S 5
#define KEEPALIVE_COUNT 3

/* One exchange's reply, shared by every connection until each has been
 * sent it: the data itself to members over tcp, and to members on this
 * host (unix sockets) a sealed memfd holding it (boot_wire.h,
 * ALLGATHER_SHARED), made once for all of them. */
struct reply {
    size_t refs;
    size_t len;
    unsigned char digest[BOOT_WIRE_MAC_LEN];
    int shared_fd; /* -1: every member gets the data inline */
    uint64_t shared_len;
    unsigned char shared_digest[BOOT_WIRE_MAC_LEN];
    char data[];
};

struct conn {
    int fd;
    int rank;       /* -1 until its HELLO proved membership */
    long deadline;  /* a stranger's, in boot_server_now_ms() time */
    bool dead;      /* to be closed at the end of this round */
    bool finalized; /* it sent FINALIZE: its rank may start a new life */
    bool local;     /* a unix socket: can be passed a descriptor */
    char who[96];   /* the peer, for the log */
    struct boot_auth_hello hello;
    struct boot_auth_session keys;
    /* the message being read: header, payload, then (from a member) tag */
    struct boot_wire_hdr hdr;
    size_t got;
    char *payload;
    unsigned char tag[BOOT_WIRE_MAC_LEN];
    /* this PE's contribution to the current exchange */
    char *gather;
    size_t gather_len;
    bool gathered;
    /* the reply being sent: header, shared data (OUT's, or its memfd's
     * length with the memfd while OUT_FD), tag */
    struct boot_wire_hdr out_hdr;
    struct reply *out;
    const char *out_data;
    bool out_fd;
    unsigned char out_tag[BOOT_WIRE_MAC_LEN];
    size_t sent;
    /* liveness */
    long heard;
    bool beating;
    char routine[ROUTINE_MAX];
};

struct boot_server {
    struct boot_server_config cfg;
    char secret[BOOT_WIRE_SECRET_LEN + 1];
    unsigned char job[BOOT_WIRE_JOB_LEN];
    struct conn **conns;
    size_t nconns, cap;
    struct conn **contrib; /* by rank: this exchange's contributions */
    int ncontrib;
    long accept_paused_until;
    unsigned long refused;
};

long boot_server_now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000L + t.tv_nsec / 1000000L;
}

void boot_server_quote(const char *text, size_t len, char *out, size_t size)
{
    size_t n = 0;
    if (size < 8) {
        if (size)
            out[0] = '\0';
        return;
    }
    out[n++] = '"';
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)text[i];
        char esc[5];
        if (c == '"' || c == '\\')
            snprintf(esc, sizeof esc, "\\%c", c);
        else if (c < 0x20 || c >= 0x7f)
            snprintf(esc, sizeof esc, "\\x%02x", c);
        else
            snprintf(esc, sizeof esc, "%c", c);
        size_t el = strlen(esc);
        if (n + el + 5 > size) { /* room for "...", the quote and the NUL */
            memcpy(out + n, "...", 3);
            n += 3;
            break;
        }
        memcpy(out + n, esc, el);
        n += el;
    }
    out[n++] = '"';
    out[n] = '\0';
}

/* ---- the start-up exchange: an allgather ---- */

static void free_reply(struct reply *r)
{
    if (r->shared_fd >= 0)
        close(r->shared_fd);
    free(r);
}

static void release_reply(struct conn *c)
{
    if (c->out && --c->out->refs == 0)
        free_reply(c->out);
    c->out = NULL;
    c->sent = 0;
}

static void forget_contribution(struct boot_server *s, struct conn *c)
{
    if (c->gathered) {
        s->contrib[c->rank] = NULL;
        s->ncontrib--;
    }
    free(c->gather);
    c->gather = NULL;
    c->gathered = false;
}

static void send_reply(struct boot_server *s, struct conn *c)
{
    size_t hl = sizeof c->out_hdr, dl = c->out_hdr.len, total = hl + dl + BOOT_WIRE_MAC_LEN;
    while (c->sent < total) {
        struct iovec iov[3];
        int n = 0;
        if (c->sent < hl)
            iov[n++] = (struct iovec){(char *)&c->out_hdr + c->sent, hl - c->sent};
        size_t off = c->sent > hl ? c->sent - hl : 0;
        if (dl > off)
            iov[n++] = (struct iovec){(char *)c->out_data + off, dl - off};
        size_t toff = c->sent > hl + dl ? c->sent - hl - dl : 0;
        iov[n++] = (struct iovec){c->out_tag + toff, BOOT_WIRE_MAC_LEN - toff};
        struct msghdr m = {.msg_iov = iov, .msg_iovlen = (size_t)n};
        union oshm_fdpass_buf control;
        if (c->out_fd && c->sent == 0) /* the descriptor goes with the first byte */
            oshm_fdpass_attach(&m, &control, c->out->shared_fd);
        ssize_t w = sendmsg(c->fd, &m, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        if (w <= 0) {
            fprintf(stderr, "%s: cannot send bootstrap data to PE %d\n", s->cfg.name, c->rank);
            c->dead = true;
            break;
        }
        c->sent += (size_t)w;
    }
    release_reply(c);
}

/* The exchange's data of N ranks in a sealed memfd for the members on this
 * host, behind an index of where each rank's block begins (kvstore.h: a
 * member then reads the index and the blocks of the peers it asks about,
 * not every block's header); *LEN its size. -1 when it cannot be made (they
 * get the data inline). */
static int share_reply(const struct reply *r, int n, uint64_t *len)
{
    uint64_t head = ((uint64_t)n + 1) * 8;
    uint64_t *index = malloc(head);
    if (!index)
        return -1;
    size_t pos = 0;
    for (int k = 0; k < n; k++) {
        uint64_t block;
        memcpy(&block, r->data + pos, 8);
        index[k] = head + pos;
        pos += 8 + block;
    }
    index[n] = head + pos;
    int fd = memfd_create("oshm-exchange", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd >= 0 && (boot_wire_write_all(fd, index, head) != 0 ||
                    boot_wire_write_all(fd, r->data, r->len) != 0 ||
                    fcntl(fd, F_ADD_SEALS,
                          F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL) != 0)) {
        close(fd);
        fd = -1;
    }
    free(index);
    *len = head + r->len;
    return fd;
}

/* Every PE contributed: each gets every contribution, in rank order, the
 * data hashed once and tagged for each connection. */
static void complete_exchange(struct boot_server *s)
{
    size_t total = 0;
    for (int k = 0; k < s->cfg.size; k++)
        total += 8 + s->contrib[k]->gather_len;
    struct reply *r = malloc(sizeof *r + total);
    if (!r) {
        fprintf(stderr, "%s: out of memory\n", s->cfg.name);
        if (s->cfg.events->failed)
            s->cfg.events->failed(s->cfg.arg);
        return;
    }
    r->refs = 1; /* this function's, until every send is started */
    r->len = total;
    r->shared_fd = -1;
    size_t pos = 0;
    for (int k = 0; k < s->cfg.size; k++) {
        struct conn *c = s->contrib[k];
        uint64_t len = c->gather_len;
        memcpy(r->data + pos, &len, 8);
        if (len)
            memcpy(r->data + pos + 8, c->gather, len);
        pos += 8 + len;
    }
    boot_auth_digest(r->data, r->len, r->digest);
    bool any_local = false;
    for (int k = 0; k < s->cfg.size; k++)
        any_local |= s->contrib[k]->local;
    /* An exchange without records (a fence to meet) goes inline. */
    if (any_local && total > 8 * (size_t)s->cfg.size &&
        (r->shared_fd = share_reply(r, s->cfg.size, &r->shared_len)) >= 0) {
        boot_auth_digest(&r->shared_len, sizeof r->shared_len, r->shared_digest);
    }
    for (int k = 0; k < s->cfg.size; k++) {
        struct conn *c = s->contrib[k];
        free(c->gather);
        c->gather = NULL;
        c->gather_len = 0;
        c->gathered = false;
        release_reply(c); /* none: a member reads each reply before it sends again */
        c->out_fd = c->local && r->shared_fd >= 0;
        c->out_hdr = (struct boot_wire_hdr){
            .type = c->out_fd ? BOOT_WIRE_ALLGATHER_SHARED : BOOT_WIRE_ALLGATHER,
            .rank = (uint32_t)k,
            .len = c->out_fd ? sizeof r->shared_len : total};
        c->out_data = c->out_fd ? (const char *)&r->shared_len : r->data;
        boot_auth_tag(c->keys.down, c->keys.down_seq++, &c->out_hdr,
                      c->out_fd ? r->shared_digest : r->digest, c->out_tag);
        c->out = r;
        r->refs++;
    }
    s->ncontrib = 0;
    /* As far as each socket takes it, in rank order; poll does the rest. */
    for (int k = 0; k < s->cfg.size; k++) {
        struct conn *c = s->contrib[k];
        s->contrib[k] = NULL;
        if (!c->dead)
            send_reply(s, c);
    }
    if (--r->refs == 0)
        free_reply(r);
}

/* ---- connections ---- */

static void refuse(struct boot_server *s, struct conn *c, const char *why)
{
    s->refused++;
    if (s->refused <= LOG_REFUSALS)
        fprintf(stderr, "%s: refused a bootstrap connection from %s: %s\n", s->cfg.name, c->who,
                why);
    if (s->refused == LOG_REFUSALS)
        fprintf(stderr, "%s: further refusals are counted, not listed\n", s->cfg.name);
    c->dead = true;
}

/* A member's connection ends here (it closed, or broke the protocol). */
static void member_gone(struct boot_server *s, struct conn *c)
{
    if (c->dead)
        return;
    c->dead = true;
    if (s->cfg.events->left)
        s->cfg.events->left(s->cfg.arg, c->rank, c->finalized);
}

static void free_conn(struct boot_server *s, struct conn *c)
{
    if (c->fd >= 0)
        close(c->fd);
    free(c->payload);
    if (c->rank >= 0)
        forget_contribution(s, c);
    release_reply(c);
    free(c);
}

/* Closes the connections marked dead. */
static void sweep(struct boot_server *s)
{
    size_t j = 0;
    for (size_t i = 0; i < s->nconns; i++) {
        if (s->conns[i]->dead)
            free_conn(s, s->conns[i]);
        else
            s->conns[j++] = s->conns[i];
    }
    s->nconns = j;
}

/* Who is at the other end, taken at accept: a peer that has gone may no
 * longer say. Returns false for a unix peer of another user: only root or
 * the server's own user can run its PEs. */
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
    if (ss->ss_family == AF_INET6) {
        const struct sockaddr_in6 *in = (const struct sockaddr_in6 *)ss;
        char ip[INET6_ADDRSTRLEN] = "?";
        inet_ntop(AF_INET6, &in->sin6_addr, ip, sizeof ip);
        snprintf(c->who, sizeof c->who, "%s port %u", ip, (unsigned)ntohs(in->sin6_port));
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

static void tune_tcp(int fd)
{
    int one = 1, idle = KEEPALIVE_IDLE_S, intvl = KEEPALIVE_INTERVAL_S, cnt = KEEPALIVE_COUNT;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof one);
    setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof idle);
    setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &intvl, sizeof intvl);
    setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &cnt, sizeof cnt);
}

static bool grow_conns(struct boot_server *s)
{
    if (s->nconns < s->cap)
        return true;
    size_t ncap = s->cap ? 2 * s->cap : 64;
    struct conn **grown = realloc(s->conns, ncap * sizeof *grown);
    if (!grown)
        return false;
    s->conns = grown;
    s->cap = ncap;
    return true;
}

/* Out of descriptors: the stranger that has had the longest makes room. */
static bool evict_oldest_stranger(struct boot_server *s)
{
    struct conn *oldest = NULL;
    for (size_t i = 0; i < s->nconns; i++) {
        struct conn *c = s->conns[i];
        if (c->rank < 0 && !c->dead && (!oldest || c->deadline < oldest->deadline))
            oldest = c;
    }
    if (!oldest)
        return false;
    refuse(s, oldest, "out of descriptors for strangers");
    /* Closed now, not at the end of the round: the descriptor is needed. */
    shutdown(oldest->fd, SHUT_RDWR);
    close(oldest->fd);
    oldest->fd = -1;
    return true;
}

/* Short and first on a fresh socket: it goes out whole or not at all. */
static bool send_now(int fd, const void *buf, size_t len)
{
    ssize_t n;
    do
        n = send(fd, buf, len, MSG_NOSIGNAL | MSG_DONTWAIT);
    while (n < 0 && errno == EINTR);
    return n == (ssize_t)len;
}

/* The challenge: the job and a nonce of this connection. */
static bool challenge(struct boot_server *s, struct conn *c)
{
    memcpy(c->hello.job, s->job, sizeof c->hello.job);
    if (boot_auth_random(c->hello.server_nonce, sizeof c->hello.server_nonce) != 0)
        return false;
    char msg[sizeof(struct boot_wire_hdr) + BOOT_WIRE_CHALLENGE_LEN];
    struct boot_wire_hdr h = {.type = BOOT_WIRE_CHALLENGE, .len = BOOT_WIRE_CHALLENGE_LEN};
    memcpy(msg, &h, sizeof h);
    memcpy(msg + sizeof h, c->hello.job, BOOT_WIRE_JOB_LEN);
    memcpy(msg + sizeof h + BOOT_WIRE_JOB_LEN, c->hello.server_nonce, BOOT_WIRE_NONCE_LEN);
    return send_now(c->fd, msg, sizeof msg);
}

static void accept_some(struct boot_server *s)
{
    for (int n = 0; n < ACCEPTS_PER_ROUND; n++) {
        struct sockaddr_storage ss;
        socklen_t sl = sizeof ss;
        int fd = accept4(s->cfg.listen_fd, (struct sockaddr *)&ss, &sl,
                         SOCK_CLOEXEC | SOCK_NONBLOCK);
        if (fd < 0) {
            if (errno == EMFILE || errno == ENFILE) {
                if (!evict_oldest_stranger(s)) {
                    s->accept_paused_until = boot_server_now_ms() + ACCEPT_PAUSE_MS;
                    return;
                }
                continue;
            }
            if (errno == EINTR || errno == ECONNABORTED)
                continue;
            return; /* EAGAIN: no one else waiting */
        }
        struct conn *c = calloc(1, sizeof *c);
        if (!c || !grow_conns(s)) {
            free(c);
            close(fd);
            fprintf(stderr, "%s: out of memory for a bootstrap connection\n", s->cfg.name);
            return;
        }
        c->fd = fd;
        c->rank = -1;
        c->deadline = boot_server_now_ms() + BOOT_WIRE_HELLO_DEADLINE_MS;
        s->conns[s->nconns++] = c;
        if (!describe_peer(c, &ss)) {
            refuse(s, c, "another user");
            continue;
        }
        if (ss.ss_family == AF_INET || ss.ss_family == AF_INET6)
            tune_tcp(fd);
        c->local = ss.ss_family == AF_UNIX;
        if (!challenge(s, c))
            refuse(s, c, "cannot send it a challenge");
    }
}

static void conn_read(struct boot_server *s, struct conn *c);

/* A member's message, complete and verified. */
static void member_message(struct boot_server *s, struct conn *c)
{
    const struct boot_server_events *ev = s->cfg.events;
    void *arg = s->cfg.arg;
    c->heard = boot_server_now_ms();
    switch (c->hdr.type) {
    case BOOT_WIRE_ALLGATHER:
        if (c->gathered) {
            fprintf(stderr, "%s: PE %d sent two contributions to one exchange\n", s->cfg.name,
                    c->rank);
            member_gone(s, c);
            return;
        }
        c->gather = c->payload;
        c->gather_len = c->hdr.len;
        c->payload = NULL;
        c->gathered = true;
        s->contrib[c->rank] = c;
        if (++s->ncontrib == s->cfg.size)
            complete_exchange(s);
        return;
    case BOOT_WIRE_ABORT: {
        int32_t status = 1;
        uint32_t flags = 0;
        size_t tl = 0;
        if (c->hdr.len >= 8) {
            memcpy(&status, c->payload, 4);
            memcpy(&flags, c->payload + 4, 4);
            tl = c->hdr.len - 8;
        }
        if (tl > BOOT_WIRE_MAX_TEXT)
            tl = BOOT_WIRE_MAX_TEXT;
        if (ev->abort)
            ev->abort(arg, c->rank, status, flags, c->payload + 8, tl);
        return;
    }
    case BOOT_WIRE_TEARDOWN:
        if (ev->teardown)
            ev->teardown(arg, c->rank);
        return;
    case BOOT_WIRE_FINALIZE: {
        uint32_t flags = 0;
        if (c->hdr.len >= 4)
            memcpy(&flags, c->payload, 4);
        c->finalized = true;
        if (ev->finalized)
            ev->finalized(arg, c->rank, flags);
        return;
    }
    case BOOT_WIRE_HEARTBEAT: {
        size_t len = c->hdr.len < ROUTINE_MAX - 1 ? c->hdr.len : ROUTINE_MAX - 1;
        memcpy(c->routine, c->payload, len);
        c->routine[len] = '\0';
        c->beating = true;
        return;
    }
    default:
        fprintf(stderr, "%s: unknown bootstrap message %u from PE %d\n", s->cfg.name,
                c->hdr.type, c->rank);
        member_gone(s, c);
    }
}

/* Its last life's FINALIZE may still be queued on an old connection of
 * RANK: read it before judging whether the rank is taken. */
static bool rank_taken(struct boot_server *s, uint32_t rank)
{
    for (size_t i = 0; i < s->nconns; i++) {
        struct conn *o = s->conns[i];
        if (o->rank == (int)rank && !o->dead && !o->finalized)
            conn_read(s, o);
    }
    for (size_t i = 0; i < s->nconns; i++) {
        struct conn *o = s->conns[i];
        if (o->rank == (int)rank && !o->dead && !o->finalized)
            return true;
    }
    return false;
}

/* The first message of a stranger, complete: a HELLO of the right length. */
static void hello(struct boot_server *s, struct conn *c)
{
    uint32_t rank = c->hdr.rank;
    unsigned char mac[BOOT_WIRE_MAC_LEN];
    memcpy(c->hello.pe_nonce, c->payload, BOOT_WIRE_NONCE_LEN);
    c->hello.rank = rank;
    c->hello.size = (uint32_t)s->cfg.size;
    boot_auth_hello_mac(s->secret, &c->hello, mac);
    if (!boot_auth_equal(mac, c->payload + BOOT_WIRE_NONCE_LEN, sizeof mac)) {
        refuse(s, c, "not a member of this job (its HELLO does not prove the job's secret "
                     "for this connection)");
        return;
    }
    if (rank >= (uint32_t)s->cfg.size || rank_taken(s, rank)) {
        refuse(s, c, rank >= (uint32_t)s->cfg.size ? "no such PE"
                                                   : "that PE is already connected");
        return;
    }
    boot_auth_session_keys(s->secret, &c->hello, &c->keys);
    struct {
        struct boot_wire_hdr h;
        uint32_t heartbeat_ms, flags;
        unsigned char tag[BOOT_WIRE_MAC_LEN];
    } w = {.h = {.type = BOOT_WIRE_WELCOME, .rank = rank, .len = BOOT_WIRE_WELCOME_LEN},
           .heartbeat_ms = s->cfg.heartbeat_ms};
    _Static_assert(sizeof w == sizeof w.h + BOOT_WIRE_WELCOME_LEN + BOOT_WIRE_MAC_LEN,
                   "WELCOME layout");
    unsigned char digest[BOOT_WIRE_MAC_LEN];
    boot_auth_digest(&w.heartbeat_ms, BOOT_WIRE_WELCOME_LEN, digest);
    boot_auth_tag(c->keys.down, c->keys.down_seq++, &w.h, digest, w.tag);
    if (!send_now(c->fd, &w, sizeof w)) {
        refuse(s, c, "cannot send it its welcome");
        return;
    }
    c->rank = (int)rank;
    c->heard = boot_server_now_ms();
    if (s->cfg.events->joined)
        s->cfg.events->joined(s->cfg.arg, c->rank);
}

/* The header is in: is the message acceptable, and where does it go? */
static bool start_payload(struct boot_server *s, struct conn *c)
{
    if (c->rank < 0 && (c->hdr.type != BOOT_WIRE_HELLO || c->hdr.len != BOOT_WIRE_HELLO_LEN)) {
        refuse(s, c, "not a member of this job");
        return false;
    }
    if (c->rank >= 0 && (c->hdr.len > BOOT_WIRE_MAX_PAYLOAD || c->hdr.rank != (uint32_t)c->rank)) {
        fprintf(stderr, "%s: refused a bootstrap message of %llu bytes from PE %d as PE %u\n",
                s->cfg.name, (unsigned long long)c->hdr.len, c->rank, c->hdr.rank);
        member_gone(s, c);
        return false;
    }
    /* One byte more: a text payload ends in a NUL. */
    c->payload = calloc(1, c->hdr.len + 1);
    if (!c->payload) {
        fprintf(stderr, "%s: out of memory for a bootstrap message\n", s->cfg.name);
        if (c->rank >= 0)
            member_gone(s, c);
        else
            c->dead = true;
        return false;
    }
    return true;
}

/* A member's message is complete: does its tag verify? */
static bool verify(struct boot_server *s, struct conn *c)
{
    unsigned char digest[BOOT_WIRE_MAC_LEN], want[BOOT_WIRE_MAC_LEN];
    boot_auth_digest(c->payload, c->hdr.len, digest);
    boot_auth_tag(c->keys.up, c->keys.up_seq++, &c->hdr, digest, want);
    if (boot_auth_equal(want, c->tag, sizeof want))
        return true;
    fprintf(stderr, "%s: a bootstrap message on PE %d's connection does not verify (forged, "
                    "replayed or damaged on the way); dropping the connection\n",
            s->cfg.name, c->rank);
    member_gone(s, c);
    return false;
}

/* Reads what has arrived, handling every message it completes. */
static void conn_read(struct boot_server *s, struct conn *c)
{
    const size_t hl = sizeof c->hdr;
    while (!c->dead) {
        size_t tl = c->rank >= 0 ? BOOT_WIRE_MAC_LEN : 0;
        size_t body = c->got < hl ? 0 : (size_t)c->hdr.len;
        char *dst;
        size_t want;
        if (c->got < hl) {
            dst = (char *)&c->hdr + c->got;
            want = hl - c->got;
        } else if (c->got < hl + body) {
            dst = c->payload + (c->got - hl);
            want = hl + body - c->got;
        } else {
            dst = (char *)c->tag + (c->got - hl - body);
            want = hl + body + tl - c->got;
        }
        ssize_t n = want ? read(c->fd, dst, want) : 0;
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        if (want && n <= 0) {
            if (c->rank < 0)
                refuse(s, c, c->got ? "closed in the middle of its first message"
                                    : "closed without a word");
            else
                member_gone(s, c);
            return;
        }
        c->got += (size_t)n;
        if (c->got == hl && n && !start_payload(s, c))
            return;
        if (c->got < hl + (size_t)c->hdr.len + tl)
            continue;
        if (c->rank < 0)
            hello(s, c);
        else if (verify(s, c))
            member_message(s, c);
        free(c->payload);
        c->payload = NULL;
        c->got = 0;
    }
}

/* ---- the interface ---- */

struct boot_server *boot_server_new(const struct boot_server_config *cfg)
{
    static const struct boot_server_events none;
    struct boot_server *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->cfg = *cfg;
    if (!s->cfg.events)
        s->cfg.events = &none;
    snprintf(s->secret, sizeof s->secret, "%s", cfg->secret);
    memcpy(s->job, cfg->job, sizeof s->job);
    s->contrib = calloc((size_t)cfg->size, sizeof *s->contrib);
    if (!s->contrib) {
        free(s);
        return NULL;
    }
    return s;
}

void boot_server_free(struct boot_server *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->nconns; i++)
        free_conn(s, s->conns[i]);
    free(s->conns);
    free(s->contrib);
    if (s->refused > LOG_REFUSALS)
        fprintf(stderr, "%s: refused %lu bootstrap connections in all\n", s->cfg.name,
                s->refused);
    if (s->cfg.listen_fd >= 0)
        close(s->cfg.listen_fd);
    /* The secret goes with the server. */
    memset(s->secret, 0, sizeof s->secret);
    free(s);
}

size_t boot_server_nfds(const struct boot_server *s) { return 1 + s->nconns; }

size_t boot_server_fill(struct boot_server *s, struct pollfd *p)
{
    size_t n = 0;
    bool paused = s->accept_paused_until && boot_server_now_ms() < s->accept_paused_until;
    p[n++] = (struct pollfd){.fd = paused ? -1 : s->cfg.listen_fd, .events = POLLIN};
    for (size_t i = 0; i < s->nconns; i++)
        p[n++] = (struct pollfd){.fd = s->conns[i]->fd,
                                 .events = (short)(POLLIN | (s->conns[i]->out ? POLLOUT : 0))};
    return n;
}

void boot_server_handle(struct boot_server *s, const struct pollfd *p, size_t n)
{
    /* Connections first, in the order boot_server_fill gave them:
     * accepting may move them. */
    for (size_t i = 1; i < n && i - 1 < s->nconns; i++) {
        struct conn *c = s->conns[i - 1];
        if (c->dead || p[i].fd != c->fd)
            continue;
        if ((p[i].revents & POLLOUT) && c->out)
            send_reply(s, c);
        if (p[i].revents & (POLLIN | POLLHUP | POLLERR))
            conn_read(s, c);
    }
    sweep(s);
    if (n && p[0].fd >= 0 && (p[0].revents & POLLIN))
        accept_some(s);
    sweep(s);
}

int boot_server_tick(struct boot_server *s)
{
    long now = boot_server_now_ms(), next = -1;
    for (size_t i = 0; i < s->nconns; i++) {
        struct conn *c = s->conns[i];
        if (c->rank >= 0 || c->dead)
            continue;
        if (now >= c->deadline) {
            char why[64];
            snprintf(why, sizeof why, "no job secret within %d s",
                     BOOT_WIRE_HELLO_DEADLINE_MS / 1000);
            refuse(s, c, why);
        } else if (next < 0 || c->deadline < next) {
            next = c->deadline;
        }
    }
    sweep(s);
    if (s->accept_paused_until && now >= s->accept_paused_until)
        s->accept_paused_until = 0;
    if (s->accept_paused_until && (next < 0 || s->accept_paused_until < next))
        next = s->accept_paused_until;
    return next < 0 ? -1 : (int)(next - now);
}

void boot_server_drain(struct boot_server *s, int rank)
{
    for (size_t i = 0; i < s->nconns; i++)
        if (s->conns[i]->rank == rank && !s->conns[i]->dead)
            conn_read(s, s->conns[i]);
    sweep(s);
}

void boot_server_shutdown(struct boot_server *s)
{
    for (size_t i = 0; i < s->nconns; i++)
        if (s->conns[i]->fd >= 0)
            shutdown(s->conns[i]->fd, SHUT_RDWR);
}

bool boot_server_member(const struct boot_server *s, int rank, long *heard, const char **routine,
                        bool *beating)
{
    for (size_t i = 0; i < s->nconns; i++) {
        const struct conn *c = s->conns[i];
        if (c->rank != rank || c->dead || c->finalized)
            continue;
        *heard = c->heard;
        *routine = c->routine;
        *beating = c->beating;
        return true;
    }
    return false;
}
