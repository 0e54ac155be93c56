/*
 * oshrun's side of the bootstrap: the job's secret and id, and the
 * bootstrap server (src/boot/boot_server.c, shared with the unique id's
 * rendezvous) whose events become the PEs' lives (job.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boot/boot_auth.h"
#include "boot/boot_server.h"
#include "boot/boot_wire.h"
#include "oshrun.h"

char job_secret[BOOT_WIRE_SECRET_LEN + 1];
char job_id_hex[2 * BOOT_WIRE_JOB_LEN + 1];

static struct boot_server *server;

static void on_joined(void *arg, int rank)
{
    (void)arg;
    job_pe_connected(rank);
}

static void on_abort(void *arg, int rank, int32_t status, uint32_t flags, const char *text,
                     size_t len)
{
    (void)arg;
    job_pe_aborted(rank, status, flags & BOOT_WIRE_ABORT_GLOBAL_EXIT, text, len);
}

static void on_teardown(void *arg, int rank)
{
    (void)arg;
    job_pe_tearing_down(rank);
}

static void on_finalized(void *arg, int rank, uint32_t flags)
{
    (void)arg;
    job_pe_finalized(rank, flags & BOOT_WIRE_FINALIZE_AT_EXIT);
}

static void on_failed(void *arg)
{
    (void)arg;
    job_end(1);
}

static const struct boot_server_events events = {
    .joined = on_joined,
    .abort = on_abort,
    .teardown = on_teardown,
    .finalized = on_finalized,
    .failed = on_failed,
};

int server_init(int listen_fd)
{
    unsigned char raw[BOOT_WIRE_SECRET_LEN / 2], job[BOOT_WIRE_JOB_LEN];
    if (boot_auth_random(raw, sizeof raw) != 0 || boot_auth_random(job, sizeof job) != 0) {
        perror("oshrun: getrandom");
        exit(1);
    }
    boot_auth_hex(raw, sizeof raw, job_secret);
    boot_auth_hex(job, sizeof job, job_id_hex);
    struct boot_server_config cfg = {.listen_fd = listen_fd, .size = opt.npes,
                                     .secret = job_secret, .job = job, .name = "oshrun",
                                     .heartbeat_ms = liveness_heartbeat_ms(),
                                     .events = &events};
    server = boot_server_new(&cfg);
    return server ? 0 : -1;
}

void server_fini(void)
{
    boot_server_free(server);
    server = NULL;
}

size_t server_nfds(void) { return boot_server_nfds(server); }
size_t server_fill(struct pollfd *p) { return boot_server_fill(server, p); }
void server_handle(const struct pollfd *p, size_t n) { boot_server_handle(server, p, n); }
int server_tick(void) { return boot_server_tick(server); }
void server_drain(int rank) { boot_server_drain(server, rank); }
void server_shutdown(void) { boot_server_shutdown(server); }

bool server_member(int rank, long *heard, const char **routine, bool *beating)
{
    return boot_server_member(server, rank, heard, routine, beating);
}
