/*
 * The service thread. Anyone in the network namespace can connect to an
 * abstract socket (src/ipc/wire.h), so nothing a peer does may stall the
 * service or be believed:
 *   - a peer that is not a process of the job (SO_PEERCRED: its PID was
 *     never allowed, or its user differs) hears EPERM at once and is hung
 *     up on, before a byte of its is read; it never holds a slot;
 *   - every socket is non-blocking and the thread only ever waits in poll,
 *     so one connection never delays another, and stopping (finalize) waits
 *     on nobody;
 *   - a member that does not complete its request within a deadline is
 *     dropped; the request has a fixed size and a magic word, and whatever
 *     it asks for is checked against the export table.
 */
#include "ipc/server.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "ipc/exports.h"
#include "ipc/wire.h"
#include "util/fdpass.h"
#include "util/log.h"

/* A member sends its request right after connecting; this is only a bound
 * on how long a slot can be held, generous for an overloaded node. */
#define REQUEST_DEADLINE_MS 5000
/* Members served at once; more wait in the listen backlog meanwhile. */
#define MAX_CONNS 64
/* Connections taken from the backlog per round, so that a flood of
 * strangers does not keep the thread from members already connected. */
#define ACCEPTS_PER_ROUND 32
/* How long the service stops accepting when accept fails for want of
 * descriptors: the backlog would otherwise wake poll at once, forever. */
#define ACCEPT_PAUSE_MS 100

struct conn {
    int fd;
    pid_t pid;
    size_t got;
    int64_t deadline;
    union {
        struct ipc_request req;
        unsigned char bytes[sizeof(struct ipc_request)];
    } in;
};

static struct {
    int listen_fd;
    int wake[2];
    pthread_t thread;
    int nconns;
    struct conn conns[MAX_CONNS];
    int64_t accept_paused_until;
} srv = {.listen_fd = -1, .wake = {-1, -1}};

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Never blocks: a fresh socket's buffer takes 4 bytes, and a peer that
 * does not read them is not waited for. */
static void send_reply(int conn, int32_t status, int fd)
{
    struct ipc_reply reply = {.status = status};
    struct iovec iov = {.iov_base = &reply, .iov_len = sizeof reply};
    union oshm_fdpass_buf ctrl;
    struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1};
    if (fd >= 0)
        oshm_fdpass_attach(&msg, &ctrl, fd);
    (void)sendmsg(conn, &msg, MSG_DONTWAIT | MSG_NOSIGNAL);
}

/* A new connection: a process of the job gets a slot, anyone else is
 * answered and hung up on without a byte of theirs being read. */
static void admit(int fd)
{
    struct ucred cred;
    socklen_t len = sizeof cred;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0 || len != sizeof cred) {
        close(fd);
        return;
    }
    if (cred.uid != geteuid() || !ipc_exports_member(cred.pid)) {
        oshm_debug("ipc: refused a connection from pid %d (uid %u): not a process of this job",
                   (int)cred.pid, (unsigned)cred.uid);
        send_reply(fd, EPERM, -1);
        close(fd);
        return;
    }
    srv.conns[srv.nconns++] = (struct conn){
        .fd = fd, .pid = cred.pid, .deadline = now_ms() + REQUEST_DEADLINE_MS};
}

/* The request is complete: answers it. */
static void answer(struct conn *c)
{
    const struct ipc_request *req = &c->in.req;
    int fd = -1, status;
    if (req->magic != IPC_REQUEST_MAGIC) {
        status = EPROTO;
        oshm_debug("ipc: refused a malformed request from pid %d", (int)c->pid);
    } else {
        status = ipc_exports_take(req->id, c->pid, &fd);
        if (status == ENOENT || status == EPERM)
            oshm_debug("ipc: refused import of export %u by pid %d: %s", req->id, (int)c->pid,
                       status == ENOENT ? "no such export" : "not allowed");
    }
    send_reply(c->fd, status, fd);
    if (fd >= 0)
        close(fd);
}

/* Takes what C's peer has sent; false when C is done with (answered, hung
 * up or failed). Bytes past the request are never read. */
static bool receive(struct conn *c)
{
    ssize_t n = recv(c->fd, c->in.bytes + c->got, sizeof c->in - c->got, MSG_DONTWAIT);
    if (n < 0)
        return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR;
    if (n == 0)
        return false;
    c->got += (size_t)n;
    if (c->got < sizeof c->in)
        return true;
    answer(c);
    return false;
}

static void drop(int i)
{
    close(srv.conns[i].fd);
    srv.conns[i] = srv.conns[--srv.nconns];
}

static void accept_some(void)
{
    for (int k = 0; k < ACCEPTS_PER_ROUND && srv.nconns < MAX_CONNS; k++) {
        int fd = accept4(srv.listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
        if (fd >= 0) {
            admit(fd);
            continue;
        }
        if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM)
            srv.accept_paused_until = now_ms() + ACCEPT_PAUSE_MS;
        if (errno != EINTR && errno != ECONNABORTED)
            return;
    }
}

/* Until the wake pipe says stop; the only place the thread waits. */
static void *serve(void *arg)
{
    (void)arg;
    struct pollfd pfd[2 + MAX_CONNS];
    for (;;) {
        int64_t now = now_ms(), wait = -1;
        bool listening = srv.nconns < MAX_CONNS && now >= srv.accept_paused_until;
        if (!listening && srv.nconns < MAX_CONNS)
            wait = srv.accept_paused_until - now;
        pfd[0] = (struct pollfd){.fd = srv.wake[0], .events = POLLIN};
        pfd[1] = (struct pollfd){.fd = listening ? srv.listen_fd : -1, .events = POLLIN};
        for (int i = 0; i < srv.nconns; i++) {
            pfd[2 + i] = (struct pollfd){.fd = srv.conns[i].fd, .events = POLLIN};
            int64_t left = srv.conns[i].deadline > now ? srv.conns[i].deadline - now : 0;
            if (wait < 0 || left < wait)
                wait = left;
        }
        if (poll(pfd, (nfds_t)(2 + srv.nconns), (int)wait) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        if (pfd[0].revents)
            break;
        /* Downwards: drop() moves the last slot, already visited, into i. */
        for (int i = srv.nconns - 1; i >= 0; i--)
            if (pfd[2 + i].revents && !receive(&srv.conns[i]))
                drop(i);
        now = now_ms();
        for (int i = srv.nconns - 1; i >= 0; i--)
            if (now >= srv.conns[i].deadline) {
                oshm_debug("ipc: dropped the connection of pid %d: no request within %d ms",
                           (int)srv.conns[i].pid, REQUEST_DEADLINE_MS);
                drop(i);
            }
        if (pfd[1].revents)
            accept_some();
    }
    return NULL;
}

static void close_all(void)
{
    while (srv.nconns > 0)
        drop(srv.nconns - 1);
    if (srv.listen_fd >= 0)
        close(srv.listen_fd);
    for (int i = 0; i < 2; i++)
        if (srv.wake[i] >= 0)
            close(srv.wake[i]);
    srv.listen_fd = srv.wake[0] = srv.wake[1] = -1;
    srv.accept_paused_until = 0;
}

int ipc_server_start(char name[IPC_SERVER_NAME_LEN])
{
    unsigned char rnd[8];
    if (getrandom(rnd, sizeof rnd, 0) != (ssize_t)sizeof rnd)
        return -1;
    /* The PID tells a reader of /proc/net/unix whose socket it is; the
     * random part only keeps names unique across PID reuse. */
    snprintf(name, IPC_SERVER_NAME_LEN, "oshm-ipc-%d-%02x%02x%02x%02x%02x%02x%02x%02x",
             (int)getpid(), rnd[0], rnd[1], rnd[2], rnd[3], rnd[4], rnd[5], rnd[6], rnd[7]);
    struct sockaddr_un sa;
    socklen_t len = ipc_addr(&sa, name);
    srv.listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (srv.listen_fd < 0 || bind(srv.listen_fd, (struct sockaddr *)&sa, len) != 0 ||
        listen(srv.listen_fd, 128) != 0 || pipe2(srv.wake, O_CLOEXEC) != 0)
        goto fail;

    /* The service thread takes no signals: they belong to the application. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int rc = pthread_create(&srv.thread, NULL, serve, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0) {
        errno = rc;
        goto fail;
    }
    return 0;
fail:;
    int e = errno;
    close_all();
    errno = e;
    return -1;
}

void ipc_server_stop(void)
{
    if (srv.listen_fd < 0)
        return;
    char c = 0;
    if (write(srv.wake[1], &c, 1) == 1)
        pthread_join(srv.thread, NULL);
    close_all();
}
