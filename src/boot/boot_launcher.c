/*
 * Bootstrap through oshrun's built-in launcher: one socket to the launcher;
 * puts are kept locally and exchanged as one allgather at the fence.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "boot/boot.h"
#include "boot/boot_wire.h"
#include "boot/kvstore.h"
#include "util/env.h"
#include "util/spin.h"
#include "util/state.h"

static int launcher_fd = -1;
static char *pending;      /* this PE's puts since the last fence, serialized */
static size_t pending_len;
static struct oshm_kvstore store;
static const char *peer_name = "oshrun"; /* the launcher's end, in messages */

/* A rendezvous that refused this PE closes the connection: an error to
 * report (boot_wire_send_all). */
static int send_all(const void *buf, size_t len) { return boot_wire_send_all(launcher_fd, buf, len); }

static int send_msg(uint32_t type, const void *payload, size_t len)
{
    struct boot_wire_hdr h = {.type = type, .rank = (uint32_t)oshm_boot.rank, .len = len};
    if (send_all(&h, sizeof h) != 0)
        return -1;
    return len ? send_all(payload, len) : 0;
}

static int launcher_put(const char *key, const void *value, size_t len)
{
    if (oshm_kv_append_record(&pending, &pending_len, key, value, len) != 0)
        return -1;
    return oshm_kv_set(&store, oshm_boot.rank, key, value, len);
}

/* Other PEs may need this PE's transport to complete what they started
 * before they join the exchange: wait for the reply while progressing it. */
static int wait_reply(void)
{
    if (!oshm_progress_hook)
        return 0;
    struct pollfd p = {.fd = launcher_fd, .events = POLLIN};
    uint32_t spins = 0;
    for (;;) {
        int r = poll(&p, 1, 0);
        if (r > 0)
            return 0;
        if (r < 0 && errno != EINTR)
            return -1;
        oshm_spin_step(&spins);
    }
}

static int launcher_fence(void)
{
    if (send_msg(BOOT_WIRE_ALLGATHER, pending, pending_len) != 0)
        goto lost;
    free(pending);
    pending = NULL;
    pending_len = 0;
    if (wait_reply() != 0)
        goto lost;

    struct boot_wire_hdr h;
    if (boot_wire_read_all(launcher_fd, &h, sizeof h) != 0 || h.type != BOOT_WIRE_ALLGATHER)
        goto lost;
    char *all = malloc(h.len ? h.len : 1);
    if (!all || boot_wire_read_all(launcher_fd, all, h.len) != 0) {
        free(all);
        goto lost;
    }
    size_t pos = 0;
    for (int r = 0; r < oshm_boot.size; r++) {
        uint64_t len;
        if (h.len - pos < 8)
            break;
        memcpy(&len, all + pos, 8);
        pos += 8;
        if (h.len - pos < len || oshm_kv_load_records(&store, r, all + pos, len) != 0) {
            free(all);
            fprintf(stderr, "shmem: malformed bootstrap data from the launcher\n");
            return -1;
        }
        pos += len;
    }
    free(all);
    return 0;
lost:
    fprintf(stderr, "shmem[PE %d]: lost the connection to %s\n", oshm_boot.rank, peer_name);
    return -1;
}

static int launcher_get(int rank, const char *key, void *value, size_t len)
{
    return oshm_kv_get(&store, rank, key, value, len);
}

static _Noreturn void launcher_abort(int status, const char *message)
{
    size_t mlen = message ? strlen(message) : 0;
    char *payload = malloc(4 + mlen);
    if (payload && launcher_fd >= 0) {
        int32_t s = status;
        memcpy(payload, &s, 4);
        if (mlen)
            memcpy(payload + 4, message, mlen);
        send_msg(BOOT_WIRE_ABORT, payload, 4 + mlen);
    }
    free(payload);
    /* The launcher ends every PE; this one leaves at once either way. */
    _exit(status);
}

static void launcher_teardown(void)
{
    if (launcher_fd >= 0)
        send_msg(BOOT_WIRE_TEARDOWN, NULL, 0);
}

static void launcher_finalize(void)
{
    if (launcher_fd < 0)
        return;
    uint32_t flags = oshm_state.finalize_at_exit ? BOOT_WIRE_FINALIZE_AT_EXIT : 0;
    send_msg(BOOT_WIRE_FINALIZE, &flags, sizeof flags);
    close(launcher_fd);
    launcher_fd = -1;
    oshm_kv_clear(&store);
}

const struct oshm_boot_ops oshm_boot_launcher_ops = {
    .name = "oshrun",
    .put = launcher_put,
    .fence = launcher_fence,
    .get = launcher_get,
    .abort = launcher_abort,
    .teardown = launcher_teardown,
    .finalize = launcher_finalize,
};

/* "tcp:IP:PORT" */
static int connect_tcp(const char *addr)
{
    char host[256];
    const char *hp = addr + 4, *colon = strrchr(hp, ':');
    if (!colon || (size_t)(colon - hp) >= sizeof host)
        return -1;
    memcpy(host, hp, (size_t)(colon - hp));
    host[colon - hp] = '\0';
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM}, *res, *r;
    if (getaddrinfo(host, colon + 1, &hints, &res) != 0)
        return -1;
    int fd = -1;
    for (r = res; r && fd < 0; r = r->ai_next) {
        fd = socket(r->ai_family, r->ai_socktype | SOCK_CLOEXEC, r->ai_protocol);
        if (fd >= 0 && connect(fd, r->ai_addr, r->ai_addrlen) != 0) {
            close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(res);
    if (fd >= 0) {
        int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    }
    return fd;
}

/* "@name": an abstract unix socket. */
static int connect_unix(const char *addr)
{
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    size_t alen = strlen(addr);
    if (alen >= sizeof sa.sun_path)
        return -1;
    memcpy(sa.sun_path, addr, alen);
    if (addr[0] == '@')
        sa.sun_path[0] = '\0';
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd >= 0 &&
        connect(fd, (struct sockaddr *)&sa, (socklen_t)(offsetof(struct sockaddr_un, sun_path) + alen)) != 0) {
        close(fd);
        fd = -1;
    }
    return fd;
}

/* A PE started on another host gets the secret on a descriptor, not in its
 * command line or environment: one line, read a byte at a time so that
 * nothing after it is consumed. */
static int read_secret(const char *fdname, char *out, size_t len)
{
    int fd = atoi(fdname);
    size_t n = 0;
    char c;
    while (n + 1 < len) {
        ssize_t r = read(fd, &c, 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0 || c == '\n')
            break;
        out[n++] = c;
    }
    out[n] = '\0';
    return n ? 0 : -1;
}

int oshm_boot_launcher_connect(const char *addr, const char *secret, int rank, int size,
                               const char *whom)
{
    oshm_boot.rank = rank;
    oshm_boot.size = size;
    peer_name = whom;
    launcher_fd = strncmp(addr, "tcp:", 4) == 0 ? connect_tcp(addr) : connect_unix(addr);
    if (launcher_fd < 0) {
        fprintf(stderr, "shmem: cannot connect to %s at %s: %m\n", whom, addr);
        return -1;
    }
    oshm_boot.ops = &oshm_boot_launcher_ops;
    if (send_msg(BOOT_WIRE_HELLO, secret, strlen(secret)) != 0) {
        fprintf(stderr, "shmem: %s refused PE %d\n", whom, oshm_boot.rank);
        return -1;
    }
    return launcher_fd;
}

int oshm_boot_launcher_init(void)
{
    const char *addr = oshm_env.oshrun_addr;
    const char *secret = oshm_env.oshrun_secret;
    const char *secret_fd = oshm_env.oshrun_secret_fd;
    const char *rank = oshm_env.oshrun_rank;
    const char *size = oshm_env.oshrun_size;
    /* Kept for the process's life: after the last shmem_finalize a new
     * shmem_init connects again (OpenSHMEM 1.6), and by then the secret is
     * gone from the environment and from the descriptor. */
    static char secret_buf[BOOT_WIRE_SECRET_LEN + 8];
    if (!addr)
        return 1;
    if (!secret && secret_buf[0])
        secret = secret_buf;
    else if (!secret && secret_fd && read_secret(secret_fd, secret_buf, sizeof secret_buf) == 0)
        secret = secret_buf;
    else if (secret && strlen(secret) < sizeof secret_buf)
        secret = strcpy(secret_buf, secret);
    if (!secret || !rank || !size) {
        fprintf(stderr, "shmem: incomplete oshrun environment (%s, %s or %s, %s, %s)\n",
                OSHRUN_ENV_ADDR, OSHRUN_ENV_SECRET, OSHRUN_ENV_SECRET_FD, OSHRUN_ENV_RANK,
                OSHRUN_ENV_SIZE);
        return -1;
    }
    if (atoi(size) < 1 || atoi(rank) < 0 || atoi(rank) >= atoi(size)) {
        fprintf(stderr, "shmem: bad oshrun rank %s of %s\n", rank, size);
        return -1;
    }
    if (oshm_boot_launcher_connect(addr, secret, atoi(rank), atoi(size), "oshrun") < 0)
        return -1;
    /* Children of this PE are not members of the job. */
    unsetenv(OSHRUN_ENV_SECRET);
    unsetenv(OSHRUN_ENV_SECRET_FD);
    return 0;
}
