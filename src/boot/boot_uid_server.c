/*
 * Rank 0's rendezvous for the unique-id bootstrap: a thread that drives the
 * bootstrap server (boot_server.c, the one oshrun drives too) for the job's
 * members, rank 0 included. When a member aborts or leaves without
 * finalizing, the job ends: rank 0 exits and every member's socket closes
 * (their watchers end them, boot_launcher.c). Once every member finalized,
 * the thread ends.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "boot/boot.h"
#include "boot/boot_server.h"
#include "boot/boot_wire.h"

#define NAME "shmem: the unique id's rendezvous"

struct rendezvous {
    struct boot_server *server;
    int size, finalized;
};

static pthread_t server_thread;
static bool serving;

static _Noreturn void end_job(struct rendezvous *r, int status)
{
    boot_server_shutdown(r->server);
    fflush(NULL);
    _exit(status);
}

static void on_abort(void *arg, int rank, int32_t status, uint32_t flags, const char *text,
                     size_t len)
{
    char quoted[256];
    boot_server_quote(text, len, quoted, sizeof quoted);
    if (flags & BOOT_WIRE_ABORT_GLOBAL_EXIT)
        fprintf(stderr, "%s: rank %d called shmem_global_exit with status %d: the job was "
                        "aborted\n", NAME, rank, (int)status);
    else
        fprintf(stderr, "%s: rank %d aborted the job (status %d); its message: %s\n", NAME,
                rank, (int)status, quoted);
    /* Only shmem_global_exit(0) is a clean end. */
    end_job(arg, status || (flags & BOOT_WIRE_ABORT_GLOBAL_EXIT) ? (int)status : 1);
}

static void on_finalized(void *arg, int rank, uint32_t flags)
{
    (void)rank, (void)flags;
    struct rendezvous *r = arg;
    r->finalized++;
}

static void on_left(void *arg, int rank, bool finalized)
{
    if (finalized)
        return;
    fprintf(stderr, "%s: rank %d left the job without shmem_finalize; ending it\n", NAME, rank);
    end_job(arg, 1);
}

static void on_failed(void *arg) { end_job(arg, 1); }

static const struct boot_server_events events = {
    .abort = on_abort,
    .finalized = on_finalized,
    .left = on_left,
    .failed = on_failed,
};

static void *serve(void *arg)
{
    struct rendezvous *r = arg;
    struct pollfd *p = NULL;
    size_t room = 0;
    while (r->finalized < r->size) {
        int timeout = boot_server_tick(r->server);
        size_t want = boot_server_nfds(r->server);
        if (want > room) {
            struct pollfd *grown = realloc(p, want * sizeof *p);
            if (!grown)
                end_job(r, 1);
            p = grown;
            room = want;
        }
        size_t n = boot_server_fill(r->server, p);
        int ready = poll(p, (nfds_t)n, timeout);
        if (ready < 0 && errno != EINTR)
            end_job(r, 1);
        if (ready > 0)
            boot_server_handle(r->server, p, n);
    }
    free(p);
    boot_server_free(r->server);
    free(r);
    return NULL;
}

int oshm_boot_uid_serve(int listen_fd, int size, const char *secret, const unsigned char *job)
{
    struct rendezvous *r = calloc(1, sizeof *r);
    if (!r)
        return -1;
    r->size = size;
    struct boot_server_config cfg = {.listen_fd = listen_fd, .size = size, .secret = secret,
                                     .job = job, .name = NAME, .events = &events, .arg = r};
    r->server = boot_server_new(&cfg);
    if (!r->server) {
        free(r);
        return -1;
    }
    if (pthread_create(&server_thread, NULL, serve, r) != 0) {
        fprintf(stderr, "shmem: cannot start the unique id's rendezvous thread\n");
        boot_server_free(r->server);
        free(r);
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
