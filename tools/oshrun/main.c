/*
 * oshrun: the built-in launcher.
 *
 *   oshrun -np N [--host H[:SLOTS],...] [-x VAR[=VALUE]]... [--] program [args...]
 *   (oshrun --help lists every option: Open MPI's, with hydra's spellings)
 *
 * Starts N PEs, on this machine or, given hosts, on each host in turn
 * through a launch agent (ssh by default; "ip netns exec" for network
 * namespaces). Serves their bootstrap (rank, size, allgather) on a private
 * abstract unix socket, or on TCP when a PE runs elsewhere, each connection
 * proven with a per-job secret that never crosses it (docs/security.md);
 * forwards their output line by line without ever waiting for its reader,
 * and ends the job as soon as one PE fails, runs past --timeout or stops
 * answering (--heartbeat): the others get SIGTERM, then SIGKILL one second
 * later. Exits with the first failure's status (128+signal for a PE killed
 * by a signal, 124 past --timeout), or 0.
 *
 * One poll loop drives everything: signals arrive through a signalfd, so
 * they are handled here, never in the middle of an update.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "oshrun.h"

static int min_timeout(int a, int b)
{
    if (a < 0)
        return b;
    if (b < 0)
        return a;
    return a < b ? a : b;
}

static void handle_signals(int sigfd)
{
    struct signalfd_siginfo si;
    while (read(sigfd, &si, sizeof si) == (ssize_t)sizeof si) {
        if (si.ssi_signo == SIGCHLD) {
            job_reap();
        } else if (!ending) {
            fprintf(stderr, "oshrun: received signal %u (%s); ending the job\n", si.ssi_signo,
                    strsignal((int)si.ssi_signo));
            job_end(128 + (int)si.ssi_signo);
        }
    }
}

static void run(int sigfd)
{
    struct pollfd *pfd = NULL;
    size_t room = 0;
    while (job_alive()) {
        int timeout = min_timeout(min_timeout(job_tick(), server_tick()), liveness_tick());
        if (ending)
            timeout = min_timeout(timeout, output_tick());
        size_t want = 3 + 2 * (size_t)opt.npes + server_nfds();
        if (want > room) {
            struct pollfd *grown = realloc(pfd, want * sizeof *pfd);
            if (!grown) {
                fprintf(stderr, "oshrun: out of memory\n");
                job_end(1);
                continue;
            }
            pfd = grown;
            room = want;
        }
        size_t n = 0;
        pfd[n++] = (struct pollfd){.fd = sigfd, .events = POLLIN};
        size_t sink_base = n;
        n += output_fill(pfd + n);
        size_t out_base = n;
        /* A PE whose output waits for a slow reader is not read: its own
         * writes wait in turn. */
        for (int r = 0; r < opt.npes; r++)
            for (int k = 0; k < 2; k++)
                pfd[n++] = (struct pollfd){
                    .fd = output_wants_read(&pes[r].out[k]) ? pes[r].out[k].fd : -1,
                    .events = POLLIN};
        size_t server_base = n;
        n += server_fill(pfd + n);

        int ready = poll(pfd, (nfds_t)n, timeout);
        if (ready < 0 && errno != EINTR) {
            perror("oshrun: poll");
            job_end(1);
        }
        if (ready <= 0)
            continue;
        /* Signals first: a PE that died is handled before any output. */
        if (pfd[0].revents & POLLIN)
            handle_signals(sigfd);
        output_handle(pfd + sink_base);
        for (int r = 0; r < opt.npes; r++)
            for (int k = 0; k < 2; k++) {
                struct pollfd *p = &pfd[out_base + 2 * (size_t)r + (size_t)k];
                if (p->fd >= 0 && p->fd == pes[r].out[k].fd &&
                    (p->revents & (POLLIN | POLLHUP | POLLERR)))
                    output_read(&pes[r].out[k]);
            }
        server_handle(pfd + server_base, n - server_base);
    }
    free(pfd);
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--bound-exec"))
        return bind_exec_main(argc, argv);
    options_parse(argc, argv);
    slurm_handover();
    profile_prepare();
    place_pes();
    program_find();
    bind_plan();
    limits_check();

    sigset_t mask, oldmask;
    sigemptyset(&mask);
    sigaddset(&mask, SIGCHLD);
    sigaddset(&mask, SIGINT);
    sigaddset(&mask, SIGTERM);
    sigaddset(&mask, SIGHUP);
    sigprocmask(SIG_BLOCK, &mask, &oldmask);
    signal(SIGPIPE, SIG_IGN);
    int sigfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
    if (sigfd < 0) {
        perror("oshrun: signalfd");
        return 1;
    }
    output_init();
    resources_init();
    char addr[96];
    int lfd = listen_bootstrap(addr, sizeof addr);
    if (lfd < 0)
        return 1;
    if (job_init() != 0 || server_init(lfd) != 0) {
        fprintf(stderr, "oshrun: out of memory\n");
        return 1;
    }
    liveness_start();
    for (int r = 0; r < opt.npes && !ending; r++)
        spawn(r, addr, &oldmask);
    run(sigfd);
    profile_merge(); /* every PE has ended; its words go out with the rest */

    server_fini();
    /* A job that failed does not wait for a reader that stopped; one that
     * succeeded delivers everything, as any program would (a signal, no
     * longer caught, still ends the wait). Before job_fini: the PEs'
     * buffers count what of theirs waits. */
    sigprocmask(SIG_SETMASK, &oldmask, NULL);
    output_finish(ending);
    job_fini();
    bind_fini();
    place_fini();
    options_free();
    close(sigfd);
    return exit_status;
}
