/*
 * Bootstrap from a unique id, for processes no launcher of ours started
 * (mpirun without PMIx, a test driver's fork/exec, a scheduler's own
 * spawner): as NVSHMEM's uid bootstrap does, rank 0 opens a TCP socket and
 * its id names that socket; every rank, rank 0 included, connects to it and
 * speaks oshrun's launcher protocol (boot_wire.h), with rank 0's thread in
 * the launcher's place (boot_uid_server.c).
 *
 * Only holders of the id may join: it carries a random secret that each
 * connection's HELLO must repeat, as oshrun's PEs repeat OSHRUN_SECRET.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>

#include "boot/boot.h"
#include "boot/boot_wire.h"

#define UID_MAGIC "oshmuid1"

/* The id's bytes (OSHM_BOOT_UID_LEN in all). */
struct uid_wire {
    char magic[8];
    char host[64];                          /* numeric IPv4 or IPv6 address */
    uint16_t port;                          /* host byte order */
    char secret[BOOT_WIRE_SECRET_LEN + 1];  /* hex, NUL-terminated */
    char pad[OSHM_BOOT_UID_LEN - 8 - 64 - 2 - BOOT_WIRE_SECRET_LEN - 1];
};
_Static_assert(sizeof(struct uid_wire) == OSHM_BOOT_UID_LEN, "unique id layout");

static struct {
    bool armed;
    int rank, size;
    struct uid_wire uid;
} pending;

/* This process's rendezvous socket, when it made an id. */
static int listen_fd = -1;
static struct uid_wire made;

/* The address others reach this host at: the host name's first address,
 * else the loopback one (a job of this host only). */
static void host_address(char *out, size_t len)
{
    char name[256];
    struct addrinfo hints = {.ai_family = AF_INET, .ai_socktype = SOCK_STREAM}, *res = NULL;
    snprintf(out, len, "127.0.0.1");
    if (gethostname(name, sizeof name) != 0)
        return;
    name[sizeof name - 1] = '\0';
    if (getaddrinfo(name, NULL, &hints, &res) != 0 || !res)
        return;
    const struct sockaddr_in *in = (const struct sockaddr_in *)res->ai_addr;
    inet_ntop(AF_INET, &in->sin_addr, out, (socklen_t)len);
    freeaddrinfo(res);
}

int oshm_boot_uid_create(void *uid)
{
    unsigned char raw[BOOT_WIRE_SECRET_LEN / 2];
    if (getrandom(raw, sizeof raw, 0) != (ssize_t)sizeof raw) {
        fprintf(stderr, "shmem: shmemd_get_uniqueid: no random bytes for the secret: %m\n");
        return -1;
    }
    if (listen_fd < 0) {
        int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_ANY)};
        socklen_t slen = sizeof sa;
        if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(fd, 1024) != 0 ||
            getsockname(fd, (struct sockaddr *)&sa, &slen) != 0) {
            fprintf(stderr, "shmem: shmemd_get_uniqueid: cannot open a TCP socket: %m\n");
            if (fd >= 0)
                close(fd);
            return -1;
        }
        listen_fd = fd;
        memset(&made, 0, sizeof made);
        memcpy(made.magic, UID_MAGIC, 8);
        host_address(made.host, sizeof made.host);
        made.port = ntohs(sa.sin_port);
    }
    /* A new id, a new secret: an older id of this process stops working. */
    for (size_t i = 0; i < sizeof raw; i++)
        snprintf(made.secret + 2 * i, 3, "%02x", raw[i]);
    memcpy(uid, &made, sizeof made);
    return 0;
}

int oshm_boot_uid_arm(int rank, int size, const void *uid, const char *routine)
{
    struct uid_wire u;
    memcpy(&u, uid, sizeof u);
    if (memcmp(u.magic, UID_MAGIC, 8) != 0 || !memchr(u.host, '\0', sizeof u.host) ||
        strlen(u.secret) != BOOT_WIRE_SECRET_LEN || u.port == 0) {
        fprintf(stderr, "shmem: %s: not a unique id from shmemd_get_uniqueid\n", routine);
        return -1;
    }
    if (size < 1 || rank < 0 || rank >= size) {
        fprintf(stderr, "shmem: %s: rank %d of %d is not a rank of the job\n", routine, rank,
                size);
        return -1;
    }
    pending.armed = true;
    pending.rank = rank;
    pending.size = size;
    pending.uid = u;
    return 0;
}

void oshm_boot_uid_disarm(void) { pending.armed = false; }

static struct oshm_boot_ops uid_ops;
static pthread_t watcher;
static int watch_fd = -1;
/* This process leaves by itself (finalize, or an abort whose own status it
 * exits with): rank 0 closing the connection then is no news. */
static atomic_bool leaving, aborting;

/* Other PEs may wait in a barrier of the transport while the job ends (a
 * rank aborted, rank 0 died): no launcher kills them, so each watches its
 * connection and leaves when rank 0 closes it before this PE finalized. */
static void *watch(void *arg)
{
    (void)arg;
    struct pollfd p = {.fd = watch_fd, .events = POLLRDHUP};
    while (poll(&p, 1, -1) < 0 && errno == EINTR)
        ;
    /* The aborting thread is about to _exit with its status: a watcher that
     * returned would be a finished thread nobody joins. */
    while (atomic_load(&aborting))
        pause();
    if (!atomic_load(&leaving)) {
        fprintf(stderr, "shmem[PE %d]: rank 0's rendezvous closed the connection: the job "
                        "ended, or this process is no member (wrong unique id or secret)\n",
                oshm_boot.rank);
        _exit(1);
    }
    return NULL;
}

/* The threads start at the first fence, once start-up has remapped the
 * program's data (heap/symdata.c), which they read (stderr): a connection
 * and its HELLO wait in the socket's backlog until rank 0's thread
 * accepts them. */
static int serve_fd = -1;
static bool threads_started;

static int start_threads(void)
{
    threads_started = true;
    if (serve_fd >= 0) {
        int rc = oshm_boot_uid_serve(serve_fd, oshm_boot.size, made.secret);
        /* The server owns the socket now; a later id makes a new one. */
        serve_fd = -1;
        if (rc != 0)
            return -1;
    }
    if (pthread_create(&watcher, NULL, watch, NULL) != 0) {
        fprintf(stderr, "shmem: cannot watch the connection to rank 0\n");
        return -1;
    }
    return 0;
}

static int uid_fence(void)
{
    if (!threads_started && start_threads() != 0)
        return -1;
    return oshm_boot_launcher_ops.fence();
}

/* Rank 0 ends the job when it hears of the abort and closes every
 * connection, this one too, possibly before this process exits with STATUS. */
static void uid_abort(int status, const char *message)
{
    atomic_store(&aborting, true);
    oshm_boot_launcher_ops.abort(status, message);
}

static void uid_finalize(void)
{
    atomic_store(&leaving, true);
    oshm_boot_launcher_ops.finalize();
    if (threads_started) {
        /* Rank 0 hosts the rendezvous: it stays until every rank has left. */
        oshm_boot_uid_serve_wait();
        pthread_join(watcher, NULL);
    }
    threads_started = false;
    close(watch_fd);
    watch_fd = -1;
}

int oshm_boot_uid_init(void)
{
    if (!pending.armed)
        return 1;
    pending.armed = false;
    const struct uid_wire *u = &pending.uid;
    if (pending.rank == 0) {
        if (listen_fd < 0 || strcmp(made.secret, u->secret) != 0 || made.port != u->port) {
            fprintf(stderr, "shmem: rank 0 must start from the unique id that its own "
                            "shmemd_get_uniqueid made\n");
            return -1;
        }
        serve_fd = listen_fd;
        listen_fd = -1;
    }
    char addr[96];
    snprintf(addr, sizeof addr, "tcp:%s:%u", u->host, u->port);
    int fd = oshm_boot_launcher_connect(addr, u->secret, pending.rank, pending.size,
                                        "rank 0 (the unique id's rendezvous)");
    if (fd < 0)
        return -1;
    uid_ops = oshm_boot_launcher_ops;
    uid_ops.name = "unique id";
    uid_ops.fence = uid_fence;
    uid_ops.finalize = uid_finalize;
    uid_ops.abort = uid_abort;
    /* Rank 0's rendezvous judges no exits: it waits for every FINALIZE. */
    uid_ops.teardown = NULL;
    oshm_boot.ops = &uid_ops;
    atomic_store(&leaving, false);
    threads_started = false;
    watch_fd = dup(fd);
    if (watch_fd < 0) {
        fprintf(stderr, "shmem: cannot watch the connection to rank 0: %m\n");
        return -1;
    }
    return 0;
}
