/*
 * Bootstrap through oshrun's built-in launcher (and, with another server at
 * the other end, through the unique id's rendezvous, boot_uid.c): one
 * socket to the server; puts are kept locally and exchanged as one
 * allgather at the fence. The connection proves itself with the challenge
 * and HELLO of boot_wire.h, and every message after carries its tag.
 *
 * From the first fence on a thread watches the connection: when the server
 * closes it (oshrun or rank 0 is gone, killed or ended the job) this PE
 * leaves at once, wherever its other threads are waiting, so that no PE
 * outlives its job even where no parent-death signal reaches it (a PE
 * started through ssh or another launch agent). When the server asks for
 * heartbeats, the same thread sends one every interval, saying which
 * OpenSHMEM routine the program is in: the launcher reports a PE that
 * stops sending them, and what each PE was doing when a job runs too long.
 */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include "boot/boot.h"
#include "boot/boot_auth.h"
#include "boot/boot_wire.h"
#include "boot/kvstore.h"
#include "util/env.h"
#include "util/routine.h"
#include "util/spin.h"
#include "util/state.h"

static int launcher_fd = -1;
static char *pending;      /* this PE's puts since the last fence, serialized */
static size_t pending_len;
/* Read by a thread that reaches a peer for the first time (hcomm) while
 * another may be in a fence of a heap growth: under STORE_LOCK. */
static struct oshm_kvstore store;
static pthread_mutex_t store_lock = PTHREAD_MUTEX_INITIALIZER;
/* Values of other PEs came inline (copied into the store) since the last
 * forget: retaining them would keep a copy per PE. */
static bool inline_values;
static const char *peer_name = "oshrun"; /* the server's end, in messages */

/* The proof: kept until the HELLO is sent (rank 0 of a unique id sends it
 * at its first fence), then wiped. */
static char secret[BOOT_WIRE_SECRET_LEN + 1];
static unsigned char job[BOOT_WIRE_JOB_LEN];
static bool job_known, hello_done;
static struct boot_auth_session keys;
static uint32_t heartbeat_ms;

/* Messages go out whole: the watcher's heartbeats and the program's
 * messages share the socket and the message counter. */
static pthread_mutex_t send_lock = PTHREAD_MUTEX_INITIALIZER;

/* The watcher, and what the program's thread is in (the thread that called
 * shmem_init: its record of the routine, util/routine.h). */
static pthread_t watcher;
static bool watching;
static int watch_fd = -1;
/* That thread may end before the library does (a program that called
 * shmem_init from a thread of its own): its record goes with it, under
 * this lock, by the destructor of a key set in it. */
static _Atomic(const char *) *program_routine;
static pthread_mutex_t routine_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_key_t routine_key;
static pthread_once_t routine_once = PTHREAD_ONCE_INIT;
/* This process leaves by itself (finalize, or an abort whose own status it
 * exits with): the server closing the connection then is no news. */
static atomic_bool leaving, aborting;

static int send_msg_locked(uint32_t type, const void *payload, size_t len)
{
    struct boot_wire_hdr h = {.type = type, .rank = (uint32_t)oshm_boot.rank, .len = len};
    unsigned char digest[BOOT_WIRE_MAC_LEN];
    char *msg = malloc(sizeof h + len + BOOT_WIRE_MAC_LEN);
    if (!msg)
        return -1;
    boot_auth_digest(payload, len, digest);
    memcpy(msg, &h, sizeof h);
    if (len)
        memcpy(msg + sizeof h, payload, len);
    boot_auth_tag(keys.up, keys.up_seq++, &h, digest,
                  (unsigned char *)msg + sizeof h + len);
    /* A server that refused this PE closes the connection: an error to
     * report (boot_wire_send_all), not a SIGPIPE. */
    int rc = boot_wire_send_all(launcher_fd, msg, sizeof h + len + BOOT_WIRE_MAC_LEN);
    free(msg);
    return rc;
}

static int send_msg(uint32_t type, const void *payload, size_t len)
{
    pthread_mutex_lock(&send_lock);
    int rc = send_msg_locked(type, payload, len);
    pthread_mutex_unlock(&send_lock);
    return rc;
}

/* A message from the server of type TYPE or ALT, verified: its payload
 * (malloc'd, LEN bytes and a NUL) and its type in *GOT, or NULL with *WHY
 * saying what went wrong. A descriptor passed with it goes to *PASSED
 * when PASSED is not NULL (-1: none), else is closed. */
static char *recv_msg_ex(uint32_t type, uint32_t alt, uint32_t *got, int *passed, size_t *len,
                         const char **why)
{
    struct boot_wire_hdr h;
    unsigned char tag[BOOT_WIRE_MAC_LEN], digest[BOOT_WIRE_MAC_LEN], want[BOOT_WIRE_MAC_LEN];
    int fd = -1;
    char *p = NULL;
    *why = "lost the connection to";
    if (boot_wire_read_all_fd(launcher_fd, &h, sizeof h, &fd) != 0)
        goto fail;
    *why = "got a malformed bootstrap message from";
    if ((h.type != type && h.type != alt) ||
        h.len > BOOT_WIRE_MAX_PAYLOAD * (size_t)(oshm_boot.size + 1))
        goto fail;
    p = malloc(h.len + 1);
    *why = "lost the connection to";
    if (!p || boot_wire_read_all(launcher_fd, p, h.len) != 0 ||
        boot_wire_read_all(launcher_fd, tag, sizeof tag) != 0)
        goto fail;
    p[h.len] = '\0';
    boot_auth_digest(p, h.len, digest);
    boot_auth_tag(keys.down, keys.down_seq++, &h, digest, want);
    if (!boot_auth_equal(want, tag, sizeof want)) {
        *why = "got a bootstrap message that does not verify (forged, or damaged on the way) "
               "from";
        goto fail;
    }
    *len = h.len;
    *got = h.type;
    if (passed)
        *passed = fd;
    else if (fd >= 0)
        close(fd);
    return p;
fail:
    free(p);
    if (fd >= 0)
        close(fd);
    return NULL;
}

static char *recv_msg(uint32_t type, size_t *len, const char **why)
{
    uint32_t got;
    return recv_msg_ex(type, type, &got, NULL, len, why);
}

/* An ALLGATHER_SHARED's data (boot_wire.h): the sealed memfd FD holding
 * the LEN (8) bytes of PAYLOAD's length, mapped read-only into the store.
 * 0, or -1 when it is not what it says (FD is closed either way). */
static int adopt_shared(int fd, const char *payload, size_t len)
{
    const unsigned need = F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE;
    uint64_t dlen;
    struct stat st;
    void *base = MAP_FAILED;
    if (fd < 0 || len != sizeof dlen)
        goto bad;
    memcpy(&dlen, payload, sizeof dlen);
    int seals = fcntl(fd, F_GET_SEALS);
    if (dlen == 0 || dlen > BOOT_WIRE_MAX_PAYLOAD * (uint64_t)(oshm_boot.size + 1) ||
        fstat(fd, &st) != 0 || (uint64_t)st.st_size != dlen || seals < 0 ||
        ((unsigned)seals & need) != need)
        goto bad;
    base = mmap(NULL, dlen, PROT_READ, MAP_SHARED, fd, 0);
    if (base == MAP_FAILED)
        goto bad;
    pthread_mutex_lock(&store_lock);
    int rc = oshm_kv_adopt(&store, oshm_boot.size, base, dlen, dlen);
    pthread_mutex_unlock(&store_lock);
    if (rc != 0)
        goto bad;
    close(fd);
    return 0;
bad:
    if (base != MAP_FAILED)
        munmap(base, dlen);
    if (fd >= 0)
        close(fd);
    fprintf(stderr, "shmem[PE %d]: malformed bootstrap data from %s\n", oshm_boot.rank, peer_name);
    return -1;
}

/* The challenge, the HELLO, the welcome. 0, or -1 after saying why. */
static int handshake(void)
{
    struct boot_wire_hdr h;
    unsigned char challenge[BOOT_WIRE_CHALLENGE_LEN];
    if (boot_wire_read_all(launcher_fd, &h, sizeof h) != 0 || h.type != BOOT_WIRE_CHALLENGE ||
        h.len != sizeof challenge ||
        boot_wire_read_all(launcher_fd, challenge, sizeof challenge) != 0) {
        fprintf(stderr, "shmem[PE %d]: %s sent no bootstrap challenge: the address is not "
                        "this job's server, or it is gone\n", oshm_boot.rank, peer_name);
        return -1;
    }
    if (job_known && memcmp(challenge, job, BOOT_WIRE_JOB_LEN) != 0) {
        fprintf(stderr, "shmem[PE %d]: the server at %s's address serves another job\n",
                oshm_boot.rank, peer_name);
        return -1;
    }
    struct boot_auth_hello hello = {.rank = (uint32_t)oshm_boot.rank,
                                    .size = (uint32_t)oshm_boot.size};
    memcpy(hello.job, challenge, BOOT_WIRE_JOB_LEN);
    memcpy(hello.server_nonce, challenge + BOOT_WIRE_JOB_LEN, BOOT_WIRE_NONCE_LEN);
    if (boot_auth_random(hello.pe_nonce, sizeof hello.pe_nonce) != 0) {
        fprintf(stderr, "shmem[PE %d]: no random bytes for the bootstrap: %m\n", oshm_boot.rank);
        return -1;
    }
    struct {
        struct boot_wire_hdr h;
        unsigned char nonce[BOOT_WIRE_NONCE_LEN], mac[BOOT_WIRE_MAC_LEN];
    } msg = {.h = {.type = BOOT_WIRE_HELLO, .rank = hello.rank, .len = BOOT_WIRE_HELLO_LEN}};
    memcpy(msg.nonce, hello.pe_nonce, sizeof msg.nonce);
    boot_auth_hello_mac(secret, &hello, msg.mac);
    boot_auth_session_keys(secret, &hello, &keys);
    const char *why;
    size_t len = 0;
    char *welcome = NULL;
    if (boot_wire_send_all(launcher_fd, &msg, sizeof msg) != 0 ||
        !(welcome = recv_msg(BOOT_WIRE_WELCOME, &len, &why)) || len < BOOT_WIRE_WELCOME_LEN) {
        fprintf(stderr, "shmem[PE %d]: %s refused PE %d of %d (see its message: the job's "
                        "secret, the rank or the number of PEs is not its own)\n",
                oshm_boot.rank, peer_name, oshm_boot.rank, oshm_boot.size);
        free(welcome);
        return -1;
    }
    memcpy(&heartbeat_ms, welcome, 4);
    free(welcome);
    memset(secret, 0, sizeof secret);
    hello_done = true;
    return 0;
}

static int launcher_put(const char *key, const void *value, size_t len)
{
    if (oshm_kv_append_record(&pending, &pending_len, key, value, len) != 0)
        return -1;
    pthread_mutex_lock(&store_lock);
    int rc = oshm_kv_set(&store, oshm_boot.rank, key, value, len);
    pthread_mutex_unlock(&store_lock);
    return rc;
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

static void *watch(void *arg);

static void program_thread_ended(void *its_routine)
{
    pthread_mutex_lock(&routine_lock);
    if (program_routine == its_routine)
        program_routine = NULL;
    pthread_mutex_unlock(&routine_lock);
}

static void make_routine_key(void) { pthread_key_create(&routine_key, program_thread_ended); }

/* The calling thread's routine is the program's. */
static void watch_this_thread(void)
{
    pthread_once(&routine_once, make_routine_key);
    pthread_mutex_lock(&routine_lock);
    program_routine = &oshm_routine;
    pthread_mutex_unlock(&routine_lock);
    pthread_setspecific(routine_key, (void *)&oshm_routine);
}

/* What the program's thread is in, "" when none (or when it ended). */
static const char *program_routine_now(void)
{
    pthread_mutex_lock(&routine_lock);
    const char *r =
        program_routine ? atomic_load_explicit(program_routine, memory_order_relaxed) : NULL;
    pthread_mutex_unlock(&routine_lock);
    return r ? r : "";
}

/* The watcher starts at the first fence, once start-up has remapped the
 * program's data (heap/symdata.c): a thread writing the program's globals
 * (a static libshmem's, a static libc's malloc state) while they are copied
 * would lose its writes. */
static int start_watcher(void)
{
    watch_fd = dup(launcher_fd);
    if (watch_fd < 0 || pthread_create(&watcher, NULL, watch, NULL) != 0) {
        fprintf(stderr, "shmem[PE %d]: cannot watch the connection to %s\n", oshm_boot.rank,
                peer_name);
        return -1;
    }
    watching = true;
    return 0;
}

static int launcher_fence(void)
{
    if (!hello_done && handshake() != 0)
        return -1;
    if (!watching && start_watcher() != 0)
        return -1;
    if (send_msg(BOOT_WIRE_ALLGATHER, pending, pending_len) != 0)
        goto lost;
    free(pending);
    pending = NULL;
    pending_len = 0;
    if (wait_reply() != 0)
        goto lost;
    const char *why;
    size_t total;
    uint32_t got;
    int shared = -1;
    char *all = recv_msg_ex(BOOT_WIRE_ALLGATHER, BOOT_WIRE_ALLGATHER_SHARED, &got, &shared, &total,
                            &why);
    if (!all) {
        fprintf(stderr, "shmem[PE %d]: %s %s\n", oshm_boot.rank, why, peer_name);
        return -1;
    }
    if (got == BOOT_WIRE_ALLGATHER_SHARED) {
        int rc = adopt_shared(shared, all, total);
        free(all);
        return rc;
    }
    if (shared >= 0)
        close(shared);
    size_t pos = 0;
    int rc = 0;
    pthread_mutex_lock(&store_lock);
    for (int r = 0; r < oshm_boot.size && rc == 0; r++) {
        uint64_t len;
        if (total - pos < 8)
            break;
        memcpy(&len, all + pos, 8);
        pos += 8;
        if (total - pos < len || oshm_kv_load_records(&store, r, all + pos, len) != 0)
            rc = -1;
        inline_values |= len > 0 && r != oshm_boot.rank;
        pos += len;
    }
    pthread_mutex_unlock(&store_lock);
    free(all);
    if (rc != 0)
        fprintf(stderr, "shmem: malformed bootstrap data from %s\n", peer_name);
    return rc;
lost:
    fprintf(stderr, "shmem[PE %d]: lost the connection to %s\n", oshm_boot.rank, peer_name);
    return -1;
}

static int launcher_get(int rank, const char *key, void *value, size_t len)
{
    pthread_mutex_lock(&store_lock);
    int rc = oshm_kv_get(&store, rank, key, value, len);
    pthread_mutex_unlock(&store_lock);
    return rc;
}

static void launcher_forget(void)
{
    pthread_mutex_lock(&store_lock);
    oshm_kv_forget(&store);
    inline_values = false;
    pthread_mutex_unlock(&store_lock);
}

static int launcher_retain(void)
{
    pthread_mutex_lock(&store_lock);
    int rc = inline_values ? -1 : oshm_kv_retain(&store);
    pthread_mutex_unlock(&store_lock);
    return rc;
}

static _Noreturn void launcher_abort(int status, unsigned flags, const char *message)
{
    /* The server ends the job when it hears of the abort and may close
     * this connection before this process exits with STATUS. */
    atomic_store(&aborting, true);
    size_t mlen = message ? strlen(message) : 0;
    if (mlen > BOOT_WIRE_MAX_TEXT)
        mlen = BOOT_WIRE_MAX_TEXT;
    char *payload = malloc(8 + mlen);
    /* Before its HELLO (rank 0 of a unique id before its first fence) this
     * PE is no member yet: its exit is what the others hear. */
    if (payload && launcher_fd >= 0 && hello_done) {
        int32_t s = status;
        uint32_t f = flags & OSHM_BOOT_GLOBAL_EXIT ? BOOT_WIRE_ABORT_GLOBAL_EXIT : 0;
        memcpy(payload, &s, 4);
        memcpy(payload + 4, &f, 4);
        if (mlen)
            memcpy(payload + 8, message, mlen);
        send_msg(BOOT_WIRE_ABORT, payload, 8 + mlen);
    }
    free(payload);
    /* The server ends every PE; this one leaves at once either way. */
    _exit(status);
}

static void launcher_teardown(void)
{
    if (launcher_fd >= 0 && hello_done)
        send_msg(BOOT_WIRE_TEARDOWN, NULL, 0);
}

static void stop_watcher(void)
{
    if (!watching)
        return;
    /* Wakes it: it sees LEAVING and returns. */
    shutdown(watch_fd, SHUT_RD);
    pthread_join(watcher, NULL);
    watching = false;
}

static void launcher_finalize(void)
{
    if (launcher_fd < 0)
        return;
    atomic_store(&leaving, true);
    uint32_t flags = oshm_state.finalize_at_exit ? BOOT_WIRE_FINALIZE_AT_EXIT : 0;
    if (hello_done)
        send_msg(BOOT_WIRE_FINALIZE, &flags, sizeof flags);
    stop_watcher();
    if (watch_fd >= 0)
        close(watch_fd);
    watch_fd = -1;
    close(launcher_fd);
    launcher_fd = -1;
    hello_done = false;
    oshm_kv_clear(&store);
    inline_values = false;
}

const struct oshm_boot_ops oshm_boot_launcher_ops = {
    .name = "oshrun",
    .put = launcher_put,
    .fence = launcher_fence,
    .retain = launcher_retain,
    .get = launcher_get,
    .forget = launcher_forget,
    .abort = launcher_abort,
    .teardown = launcher_teardown,
    .finalize = launcher_finalize,
};

static void *watch(void *arg)
{
    (void)arg;
    struct pollfd p = {.fd = watch_fd, .events = POLLRDHUP};
    int interval = heartbeat_ms ? (int)heartbeat_ms : -1;
    /* The first heartbeat at once: the server hears from every PE that
     * reached its first exchange. */
    int r = heartbeat_ms ? 0 : poll(&p, 1, interval);
    for (;; r = poll(&p, 1, interval)) {
        if (r < 0 && errno == EINTR)
            continue;
        if (atomic_load(&leaving))
            return NULL;
        if (r != 0)
            break;
        if (atomic_load(&aborting))
            continue;
        const char *routine = program_routine_now();
        if (send_msg(BOOT_WIRE_HEARTBEAT, routine, strlen(routine)) != 0)
            break;
    }
    /* The aborting thread is about to _exit with its status: a watcher that
     * returned would be a finished thread nobody joins. */
    while (atomic_load(&aborting))
        pause();
    if (!atomic_load(&leaving)) {
        fprintf(stderr, "shmem[PE %d]: %s closed the bootstrap connection: the job ended or "
                        "%s is gone; leaving\n", oshm_boot.rank, peer_name, peer_name);
        _exit(1);
    }
    return NULL;
}

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
        /* The server's host may vanish without a FIN: keepalive finds out. */
        int one = 1, idle = 10, intvl = 5, cnt = 3;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof one);
        setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof idle);
        setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &intvl, sizeof intvl);
        setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &cnt, sizeof cnt);
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

int oshm_boot_launcher_connect(const char *addr, const char *proof, const unsigned char *job_id,
                               int rank, int size, const char *whom, bool defer_hello)
{
    oshm_boot.rank = rank;
    oshm_boot.size = size;
    peer_name = whom;
    hello_done = false;
    atomic_store(&leaving, false);
    atomic_store(&aborting, false);
    /* This thread called shmem_init: its routine is the program's. */
    watch_this_thread();
    if (strlen(proof) != BOOT_WIRE_SECRET_LEN) {
        fprintf(stderr, "shmem: the job's secret for %s is not %d characters long\n", whom,
                BOOT_WIRE_SECRET_LEN);
        return -1;
    }
    memcpy(secret, proof, sizeof secret);
    job_known = job_id != NULL;
    if (job_id)
        memcpy(job, job_id, sizeof job);
    launcher_fd = strncmp(addr, "tcp:", 4) == 0 ? connect_tcp(addr) : connect_unix(addr);
    if (launcher_fd < 0) {
        fprintf(stderr, "shmem: cannot connect to %s at %s: %m\n", whom, addr);
        return -1;
    }
    oshm_boot.ops = &oshm_boot_launcher_ops;
    if (!defer_hello && handshake() != 0) {
        close(launcher_fd);
        launcher_fd = -1;
        return -1;
    }
    return launcher_fd;
}

int oshm_boot_launcher_init(void)
{
    const char *addr = oshm_env.oshrun_addr;
    const char *env_secret = oshm_env.oshrun_secret;
    const char *secret_fd = oshm_env.oshrun_secret_fd;
    const char *job_hex = oshm_env.oshrun_job;
    const char *rank = oshm_env.oshrun_rank;
    const char *size = oshm_env.oshrun_size;
    /* Kept for the process's life: after the last shmem_finalize a new
     * shmem_init connects again (OpenSHMEM 1.6), and by then the secret is
     * gone from the environment and from the descriptor. */
    static char secret_buf[BOOT_WIRE_SECRET_LEN + 8];
    static unsigned char job_buf[BOOT_WIRE_JOB_LEN];
    static bool have_job;
    if (!addr)
        return 1;
    const char *proof = NULL;
    if (!env_secret && secret_buf[0])
        proof = secret_buf;
    else if (!env_secret && secret_fd && read_secret(secret_fd, secret_buf, sizeof secret_buf) == 0)
        proof = secret_buf;
    else if (env_secret && strlen(env_secret) < sizeof secret_buf)
        proof = strcpy(secret_buf, env_secret);
    if (job_hex && boot_auth_unhex(job_hex, job_buf, sizeof job_buf) == 0)
        have_job = true;
    if (!proof || !rank || !size || !have_job) {
        fprintf(stderr, "shmem: incomplete oshrun environment (%s, %s or %s, %s, %s, %s)\n",
                OSHRUN_ENV_ADDR, OSHRUN_ENV_SECRET, OSHRUN_ENV_SECRET_FD, OSHRUN_ENV_JOB,
                OSHRUN_ENV_RANK, OSHRUN_ENV_SIZE);
        return -1;
    }
    if (atoi(size) < 1 || atoi(rank) < 0 || atoi(rank) >= atoi(size)) {
        fprintf(stderr, "shmem: bad oshrun rank %s of %s\n", rank, size);
        return -1;
    }
    /* Children of this PE are not members of the job. */
    unsetenv(OSHRUN_ENV_SECRET);
    unsetenv(OSHRUN_ENV_SECRET_FD);
    if (oshm_boot_launcher_connect(addr, proof, job_buf, atoi(rank), atoi(size), "oshrun",
                                   false) < 0)
        return -1;
    return 0;
}
