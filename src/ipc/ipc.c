#include "ipc/ipc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

struct ipc_export {
    struct ipc_export *next;
    uint32_t id;
    int fd;
    int npids;
    pid_t *pids;
};

struct ipc_request {
    uint32_t id;
};

struct ipc_reply {
    int32_t status; /* 0 or an errno value */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct ipc_export *exports;
static uint32_t next_id = 1;
static int listen_fd = -1;
static int wake_pipe[2] = {-1, -1};
static pthread_t server_thread;
static char server_name[IPC_SERVER_NAME_LEN];

static socklen_t make_addr(struct sockaddr_un *sa, const char *name)
{
    memset(sa, 0, sizeof *sa);
    sa->sun_family = AF_UNIX;
    size_t len = strnlen(name, IPC_SERVER_NAME_LEN - 1);
    /* Abstract namespace: leaves no file behind, whatever way the process ends. */
    memcpy(sa->sun_path + 1, name, len);
    return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + len);
}

static struct ipc_export *find_export(uint32_t id)
{
    for (struct ipc_export *e = exports; e; e = e->next)
        if (e->id == id)
            return e;
    return NULL;
}

static void serve_one(int conn)
{
    struct ucred cred;
    socklen_t clen = sizeof cred;
    struct ipc_request req;
    struct ipc_reply reply = {.status = EPERM};
    int fd = -1;

    if (getsockopt(conn, SOL_SOCKET, SO_PEERCRED, &cred, &clen) != 0 ||
        recv(conn, &req, sizeof req, MSG_WAITALL) != (ssize_t)sizeof req)
        return;

    pthread_mutex_lock(&lock);
    struct ipc_export *e = find_export(req.id);
    if (!e) {
        reply.status = ENOENT;
    } else {
        for (int i = 0; i < e->npids; i++)
            if (e->pids[i] == cred.pid) {
                reply.status = 0;
                fd = fcntl(e->fd, F_DUPFD_CLOEXEC, 0);
                break;
            }
    }
    pthread_mutex_unlock(&lock);
    if (reply.status == EPERM && getenv("SHMEM_DEBUG"))
        fprintf(stderr, "shmem: refused import of export %u by pid %d (not allowed)\n", req.id,
                (int)cred.pid);

    struct iovec iov = {.iov_base = &reply, .iov_len = sizeof reply};
    union {
        char buf[CMSG_SPACE(sizeof(int))];
        struct cmsghdr align;
    } ctrl;
    struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1};
    if (fd >= 0) {
        msg.msg_control = ctrl.buf;
        msg.msg_controllen = sizeof ctrl.buf;
        struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(c), &fd, sizeof fd);
    } else if (reply.status == 0) {
        reply.status = errno ? errno : EIO;
    }
    (void)sendmsg(conn, &msg, MSG_NOSIGNAL);
    if (fd >= 0)
        close(fd);
}

static void *server_main(void *arg)
{
    (void)arg;
    struct pollfd pfd[2] = {{.fd = listen_fd, .events = POLLIN}, {.fd = wake_pipe[0], .events = POLLIN}};
    for (;;) {
        if (poll(pfd, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        if (pfd[1].revents)
            break;
        if (pfd[0].revents & POLLIN) {
            int conn = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC);
            if (conn >= 0) {
                serve_one(conn);
                close(conn);
            }
        }
    }
    return NULL;
}

int ipc_init(void)
{
    if (listen_fd >= 0)
        return 0;
    unsigned char rnd[8];
    if (getrandom(rnd, sizeof rnd, 0) != (ssize_t)sizeof rnd)
        return -1;
    snprintf(server_name, sizeof server_name, "oshm-ipc-%d-%02x%02x%02x%02x%02x%02x%02x%02x",
             (int)getpid(), rnd[0], rnd[1], rnd[2], rnd[3], rnd[4], rnd[5], rnd[6], rnd[7]);
    struct sockaddr_un sa;
    socklen_t len = make_addr(&sa, server_name);
    listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (listen_fd < 0)
        return -1;
    if (bind(listen_fd, (struct sockaddr *)&sa, len) != 0 || listen(listen_fd, 128) != 0 ||
        pipe2(wake_pipe, O_CLOEXEC) != 0)
        goto fail;

    /* The service thread takes no signals: they belong to the application. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int rc = pthread_create(&server_thread, NULL, server_main, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0) {
        errno = rc;
        goto fail;
    }
    return 0;
fail:
    close(listen_fd);
    listen_fd = -1;
    if (wake_pipe[0] >= 0) {
        close(wake_pipe[0]);
        close(wake_pipe[1]);
        wake_pipe[0] = wake_pipe[1] = -1;
    }
    return -1;
}

void ipc_fini(void)
{
    if (listen_fd < 0)
        return;
    char c = 0;
    if (write(wake_pipe[1], &c, 1) == 1)
        pthread_join(server_thread, NULL);
    close(listen_fd);
    close(wake_pipe[0]);
    close(wake_pipe[1]);
    listen_fd = wake_pipe[0] = wake_pipe[1] = -1;
    pthread_mutex_lock(&lock);
    while (exports) {
        struct ipc_export *e = exports;
        exports = e->next;
        close(e->fd);
        free(e->pids);
        free(e);
    }
    pthread_mutex_unlock(&lock);
}

int ipc_export(const struct vmm_handle *h, const pid_t *pids, int npids, struct ipc_key *key)
{
    if (ipc_init() != 0)
        return -1;
    struct ipc_export *e = calloc(1, sizeof *e);
    if (!e)
        return -1;
    e->fd = vmm_export(h);
    if (e->fd < 0) {
        free(e);
        return -1;
    }
    pthread_mutex_lock(&lock);
    e->id = next_id++;
    e->next = exports;
    exports = e;
    pthread_mutex_unlock(&lock);

    memset(key, 0, sizeof *key);
    key->owner_pid = (int32_t)getpid();
    key->id = e->id;
    key->size = h->size;
    key->kind = (uint32_t)h->kind;
    memcpy(key->server, server_name, sizeof key->server);
    return ipc_export_allow(key, pids, npids);
}

int ipc_export_allow(const struct ipc_key *key, const pid_t *pids, int npids)
{
    int rc = -1;
    pthread_mutex_lock(&lock);
    struct ipc_export *e = find_export(key->id);
    if (!e) {
        errno = ENOENT;
    } else if (npids > 0) {
        pid_t *np = realloc(e->pids, sizeof *np * (size_t)(e->npids + npids));
        if (np) {
            memcpy(np + e->npids, pids, sizeof *np * (size_t)npids);
            e->pids = np;
            e->npids += npids;
            rc = 0;
        }
    } else {
        rc = 0;
    }
    pthread_mutex_unlock(&lock);
    return rc;
}

int ipc_unexport(const struct ipc_key *key)
{
    pthread_mutex_lock(&lock);
    struct ipc_export **slot = &exports;
    while (*slot && (*slot)->id != key->id)
        slot = &(*slot)->next;
    struct ipc_export *e = *slot;
    if (e)
        *slot = e->next;
    pthread_mutex_unlock(&lock);
    if (!e) {
        errno = ENOENT;
        return -1;
    }
    close(e->fd);
    free(e->pids);
    free(e);
    return 0;
}

int ipc_import(const struct ipc_key *key, struct vmm_handle *h)
{
    struct sockaddr_un sa;
    socklen_t len = make_addr(&sa, key->server);
    int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (s < 0)
        return -1;
    /* An owner that stopped serving must not hang the importer. */
    struct timeval tv = {.tv_sec = 30};
    setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    int fd = -1, err = EIO;
    struct ipc_request req = {.id = key->id};
    if (connect(s, (struct sockaddr *)&sa, len) != 0 ||
        send(s, &req, sizeof req, MSG_NOSIGNAL) != (ssize_t)sizeof req) {
        err = errno;
        goto out;
    }
    struct ipc_reply reply;
    struct iovec iov = {.iov_base = &reply, .iov_len = sizeof reply};
    union {
        char buf[CMSG_SPACE(sizeof(int))];
        struct cmsghdr align;
    } ctrl;
    struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctrl.buf,
                         .msg_controllen = sizeof ctrl.buf};
    ssize_t n = recvmsg(s, &msg, MSG_CMSG_CLOEXEC | MSG_WAITALL);
    if (n != (ssize_t)sizeof reply) {
        err = n < 0 ? errno : EIO;
        goto out;
    }
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c))
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
            memcpy(&fd, CMSG_DATA(c), sizeof fd);
    err = reply.status;
    if (err == 0 && fd < 0)
        err = EIO;
out:
    close(s);
    if (err != 0) {
        if (fd >= 0)
            close(fd);
        errno = err;
        return -1;
    }
    if (vmm_import(fd, (size_t)key->size, h) != 0)
        return -1;
    h->kind = (enum vmm_kind)key->kind;
    return 0;
}

void *ipc_map(const struct ipc_key *key, struct vmm_handle *h)
{
    if (ipc_import(key, h) != 0)
        return NULL;
    void *va = vmm_reserve(h->size, 0);
    if (!va || vmm_map(va, h->size, h, 0, VMM_ACCESS_RW) != 0) {
        int e = errno;
        if (va)
            vmm_release(va, h->size);
        vmm_destroy(h);
        errno = e;
        return NULL;
    }
    return va;
}

void ipc_unmap(void *va, struct vmm_handle *h)
{
    if (va)
        vmm_release(va, h->size);
    vmm_destroy(h);
}
