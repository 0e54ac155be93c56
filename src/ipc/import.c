/* The importer's side: asks the owner's service for a descriptor. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "ipc/ipc.h"
#include "ipc/wire.h"
#include "util/fdpass.h"

/* An owner that stopped serving, or a backlog that never drains, must not
 * hang the importer. */
#define IMPORT_TIMEOUT_S 30

/* Connects to KEY's service and checks that the owner of KEY listens there:
 * a name in the abstract namespace is free for anyone to take once its
 * owner is gone, and a descriptor from a squatter must not be mapped. */
static int connect_owner(const struct ipc_key *key)
{
    struct sockaddr_un sa;
    socklen_t len = ipc_addr(&sa, key->server);
    int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (s < 0)
        return -1;
    struct timeval tv = {.tv_sec = IMPORT_TIMEOUT_S};
    setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(s, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv); /* connect too */
    struct ucred cred;
    socklen_t clen = sizeof cred;
    if (connect(s, (struct sockaddr *)&sa, len) != 0 ||
        getsockopt(s, SOL_SOCKET, SO_PEERCRED, &cred, &clen) != 0) {
        int e = errno;
        close(s);
        errno = e;
        return -1;
    }
    if (cred.pid != (pid_t)key->owner_pid || cred.uid != geteuid()) {
        close(s);
        errno = EACCES;
        return -1;
    }
    return s;
}

/* Receives the reply: its status (0 or an errno value) and in *FD the
 * descriptor if one came, or -1 with errno when no reply came. Any
 * descriptor beyond the first is closed: only one was asked for. */
static int receive_reply(int s, int *fd)
{
    struct ipc_reply reply;
    struct iovec iov = {.iov_base = &reply, .iov_len = sizeof reply};
    union oshm_fdpass_buf ctrl;
    struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1};
    oshm_fdpass_expect(&msg, &ctrl);
    ssize_t n = recvmsg(s, &msg, MSG_CMSG_CLOEXEC | MSG_WAITALL);
    if (n >= 0)
        oshm_fdpass_take(&msg, fd);
    if (n < 0)
        return -1;
    if (n != (ssize_t)sizeof reply) {
        errno = EIO;
        return -1;
    }
    return reply.status >= 0 ? reply.status : EIO;
}

/* The owner's descriptor reopened through /proc (ipc_export_direct), or -1:
 * refused by the kernel, gone, or no longer the file the key names. */
static int open_direct(const struct ipc_key *key)
{
    if (key->direct_fd <= 0)
        return -1;
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/fd/%d", (int)key->owner_pid, (int)key->direct_fd);
    int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0)
        return -1;
    struct stat st;
    if (fstat(fd, &st) != 0 || (uint64_t)st.st_dev != key->direct_dev ||
        (uint64_t)st.st_ino != key->direct_ino) {
        close(fd);
        return -1;
    }
    return fd;
}

/* The descriptor from KEY's owner's service, or -1 with errno. */
static int ask_owner(const struct ipc_key *key)
{
    int s = connect_owner(key);
    if (s < 0)
        return -1;
    struct ipc_request req = {.magic = IPC_REQUEST_MAGIC, .id = key->id};
    /* An owner that refuses this process answers without reading the
     * request and hangs up, so a failed send may still have a reply, which
     * then says more than the send's error. */
    int sent = send(s, &req, sizeof req, MSG_NOSIGNAL) == (ssize_t)sizeof req ? 0 : errno;
    int fd = -1, err = receive_reply(s, &fd);
    if (err < 0)
        err = sent ? sent : errno ? errno : EIO;
    close(s);
    if (err == 0 && fd < 0)
        err = EIO;
    if (err != 0) {
        if (fd >= 0)
            close(fd);
        errno = err;
        return -1;
    }
    return fd;
}

int ipc_import(const struct ipc_key *key, struct vmm_handle *h)
{
    int fd = open_direct(key);
    if (fd < 0)
        fd = ask_owner(key);
    if (fd < 0 || vmm_import(fd, (size_t)key->size, h) != 0)
        return -1;
    h->kind = (enum vmm_kind)key->kind;
    return 0;
}

void *ipc_map(const struct ipc_key *key, struct vmm_handle *h)
{
    if (ipc_import(key, h) != 0)
        return NULL;
    void *va = vmm_map_new(h, VMM_ACCESS_RW);
    int e = errno;
    /* The mapping holds the pages: keeping the descriptor would cost one
     * open file per segment of every peer (3,000 at 1,000 PEs a node). */
    size_t size = h->size;
    vmm_destroy(h);
    h->size = size;
    errno = e;
    return va;
}

static int by_address(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t)((const struct ipc_mapping *)a)->va;
    uintptr_t y = (uintptr_t)((const struct ipc_mapping *)b)->va;
    return (x > y) - (x < y);
}

/* The kernel maps whole pages: the next mapping begins after the last
 * page of M, not after its last byte. */
static char *mapping_end(const struct ipc_mapping *m, size_t page)
{
    return (char *)m->va + (m->size + page - 1) / page * page;
}

void ipc_unmap_all(struct ipc_mapping *m, size_t n)
{
    if (n == 0)
        return;
    size_t page = vmm_page_size();
    qsort(m, n, sizeof *m, by_address);
    for (size_t i = 0; i < n;) {
        char *start = m[i].va, *end = mapping_end(&m[i], page);
        /* Only what is ours: a run stops at the first gap, however small,
         * since someone else's mapping may lie in it. */
        for (i++; i < n && (char *)m[i].va == end; i++)
            end = mapping_end(&m[i], page);
        vmm_release(start, (size_t)(end - start));
    }
}

void ipc_unmap(void *va, struct vmm_handle *h)
{
    if (va)
        vmm_release(va, h->size);
    vmm_destroy(h);
}
