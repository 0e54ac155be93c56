/*
 * Bootstrap from a unique id, for processes no launcher of ours started
 * (mpirun without PMIx, a test driver's fork/exec, a scheduler's own
 * spawner): as NVSHMEM's uid bootstrap does, rank 0 opens a TCP socket and
 * its id names that socket; every rank, rank 0 included, connects to it and
 * speaks oshrun's launcher protocol (boot_wire.h), with rank 0's thread in
 * the launcher's place (boot_uid_server.c, on oshrun's server).
 *
 * Only holders of the id may join: it carries a job id and a random secret
 * that each connection's HELLO proves, as oshrun's PEs prove OSHRUN_SECRET;
 * the secret itself never crosses the network (the id does: it is as
 * secret as the channel the program hands it over, docs/security.md). The
 * socket listens on the one address the id names, not on every interface.
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
#include "boot/boot_auth.h"
#include "boot/boot_wire.h"

#define UID_MAGIC "oshmuid1"

/* The id's bytes (OSHM_BOOT_UID_LEN in all). */
struct uid_wire {
    char magic[8];
    char host[64];                          /* numeric IPv4 or IPv6 address */
    uint16_t port;                          /* host byte order */
    char secret[BOOT_WIRE_SECRET_LEN + 1];  /* hex, NUL-terminated */
    unsigned char job[BOOT_WIRE_JOB_LEN];   /* public: which job the rendezvous serves */
    char pad[OSHM_BOOT_UID_LEN - 8 - 64 - 2 - BOOT_WIRE_SECRET_LEN - 1 - BOOT_WIRE_JOB_LEN];
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

/* A socket listening on HOST (numeric IPv4), non-blocking for the
 * rendezvous's server; its port in *PORT. -1 when HOST is none of this
 * machine's addresses. */
static int listen_on(const char *host, uint16_t *port)
{
    struct sockaddr_in sa = {.sin_family = AF_INET};
    socklen_t slen = sizeof sa;
    if (inet_pton(AF_INET, host, &sa.sin_addr) != 1)
        return -1;
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0)
        return -1;
    if (bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(fd, 1024) != 0 ||
        getsockname(fd, (struct sockaddr *)&sa, &slen) != 0) {
        close(fd);
        return -1;
    }
    *port = ntohs(sa.sin_port);
    return fd;
}

int oshm_boot_uid_create(void *uid)
{
    unsigned char raw[BOOT_WIRE_SECRET_LEN / 2];
    if (boot_auth_random(raw, sizeof raw) != 0) {
        fprintf(stderr, "shmem: shmemd_get_uniqueid: no random bytes for the secret: %m\n");
        return -1;
    }
    if (listen_fd < 0) {
        memset(&made, 0, sizeof made);
        memcpy(made.magic, UID_MAGIC, 8);
        host_address(made.host, sizeof made.host);
        int fd = listen_on(made.host, &made.port);
        if (fd < 0 && strcmp(made.host, "127.0.0.1") != 0) {
            /* The host name resolves to no address of this machine: the
             * job can only be one of this machine. */
            snprintf(made.host, sizeof made.host, "127.0.0.1");
            fd = listen_on(made.host, &made.port);
        }
        if (fd < 0) {
            fprintf(stderr, "shmem: shmemd_get_uniqueid: cannot open a TCP socket on %s: %m\n",
                    made.host);
            return -1;
        }
        listen_fd = fd;
    }
    /* A new id, a new job and secret: an older id of this process stops
     * working. */
    boot_auth_hex(raw, sizeof raw, made.secret);
    if (boot_auth_random(made.job, sizeof made.job) != 0) {
        fprintf(stderr, "shmem: shmemd_get_uniqueid: no random bytes for the job: %m\n");
        return -1;
    }
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

/* Rank 0's rendezvous thread starts at its first fence, once start-up has
 * remapped the program's data (heap/symdata.c), which a thread must not
 * write meanwhile: the other ranks wait for its challenge until then. */
static int serve_fd = -1;
static unsigned char serve_job[BOOT_WIRE_JOB_LEN];
static char serve_secret[BOOT_WIRE_SECRET_LEN + 1];
static bool serving;

static int uid_fence(void)
{
    if (serve_fd >= 0) {
        int rc = oshm_boot_uid_serve(serve_fd, oshm_boot.size, serve_secret, serve_job);
        memset(serve_secret, 0, sizeof serve_secret);
        /* The server owns the socket now; a later id makes a new one. */
        serve_fd = -1;
        if (rc != 0)
            return -1;
        serving = true;
    }
    return oshm_boot_launcher_ops.fence();
}

static void uid_finalize(void)
{
    oshm_boot_launcher_ops.finalize();
    /* Rank 0 hosts the rendezvous: it stays until every rank has left. */
    if (serving)
        oshm_boot_uid_serve_wait();
    serving = false;
}

int oshm_boot_uid_init(void)
{
    if (!pending.armed)
        return 1;
    pending.armed = false;
    const struct uid_wire *u = &pending.uid;
    if (pending.rank == 0) {
        if (listen_fd < 0 || strcmp(made.secret, u->secret) != 0 || made.port != u->port ||
            memcmp(made.job, u->job, sizeof made.job) != 0) {
            fprintf(stderr, "shmem: rank 0 must start from the unique id that its own "
                            "shmemd_get_uniqueid made\n");
            return -1;
        }
        serve_fd = listen_fd;
        listen_fd = -1;
        memcpy(serve_job, u->job, sizeof serve_job);
        memcpy(serve_secret, u->secret, sizeof serve_secret);
    }
    char addr[96];
    snprintf(addr, sizeof addr, "tcp:%s:%u", u->host, u->port);
    /* Rank 0 proves itself to its own rendezvous once that runs (its first
     * fence); the others at once, waiting for the rendezvous to start. */
    int fd = oshm_boot_launcher_connect(addr, u->secret, u->job, pending.rank, pending.size,
                                        "rank 0 (the unique id's rendezvous)", pending.rank == 0);
    memset(pending.uid.secret, 0, sizeof pending.uid.secret);
    if (fd < 0)
        return -1;
    uid_ops = oshm_boot_launcher_ops;
    uid_ops.name = "unique id";
    uid_ops.fence = uid_fence;
    uid_ops.finalize = uid_finalize;
    /* Rank 0's rendezvous judges no exits: it waits for every FINALIZE. */
    uid_ops.teardown = NULL;
    oshm_boot.ops = &uid_ops;
    serving = false;
    return 0;
}
