/*
 * The PEs' lives. oshrun ends the job as soon as one PE fails, and also
 * when one ends in a way that leaves the others waiting for it forever:
 *   - it exits with status 0 without calling shmem_init while other PEs
 *     did (they wait for it in the start-up exchange);
 *   - it exits after shmem_init without shmem_finalize;
 *   - it completes shmem_finalize and exits while others stay in theirs:
 *     its finalize met something else than theirs (typically the library's
 *     implicit finalize at exit of a PE that never called shmem_finalize,
 *     meeting the others' shmem_barrier_all);
 *   - a PE whose finalize did meet the others' (TEARDOWN) is given much
 *     longer for its own teardown, which a loaded node can slow to seconds.
 * The others get SIGTERM (and SIGCONT, should one be stopped), then SIGKILL
 * a second later. An abort a PE sent (shmem_global_exit, or the library
 * giving up) ends the job too, with its status; only shmem_global_exit(0)
 * ends it with status 0.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "boot/boot_server.h"
#include "oshrun.h"

#define KILL_GRACE_MS 1000
/* Between the moment the first PE leaves shmem_finalize and the moment the
 * last one has told oshrun so, there is only each PE's teardown; the margin
 * is for a node with far more PEs than cores. */
#define FINALIZE_WAIT_MS 5000
#define FINALIZE_WAIT_PER_PE_MS 20
/* A PE past its finalize's barrier only closes its network endpoints and
 * unmaps: seconds at most, even starved of CPU; beyond a minute it hangs. */
#define TEARDOWN_WAIT_MS 60000
/* A PE started through a launch agent: the agent's exit may overtake the
 * PE's last messages, which travel on their own connection. */
#define EXIT_SETTLE_MS 2000

struct pe *pes;
bool ending;
int exit_status;

static long kill_deadline;
static bool connections_closed;
static int settling; /* PEs whose exit waits for their connection (EXIT_SETTLE_MS) */
static long finalize_deadline = -1; /* armed when a finalized PE left */
static int finalize_first = -1;     /* that PE */
static long finalize_first_ms;      /* when oshrun saw it exit */
static int nconnected;

long now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000L + t.tv_nsec / 1000000L;
}

int job_init(void)
{
    pes = calloc((size_t)opt.npes, sizeof *pes);
    if (!pes)
        return -1;
    for (int r = 0; r < opt.npes; r++)
        pes[r].out[0].fd = pes[r].out[1].fd = -1;
    return 0;
}

void job_fini(void)
{
    free(pes);
    pes = NULL;
}

void job_end(int status)
{
    if (ending)
        return;
    ending = true;
    exit_status = status;
    for (int i = 0; i < opt.npes; i++)
        if (pes[i].running) {
            kill(pes[i].pid, SIGTERM);
            /* A stopped PE takes its SIGTERM once continued. */
            kill(pes[i].pid, SIGCONT);
        }
    kill_deadline = now_ms() + KILL_GRACE_MS;
}

void job_pe_aborted(int rank, int status, bool global_exit, const char *text, size_t len)
{
    if (ending)
        return;
    if (global_exit) {
        fprintf(stderr, "oshrun: PE %d called shmem_global_exit with status %d: the job was "
                        "aborted\n", rank, status);
        job_end(status);
        return;
    }
    /* The PE's words, as data: they cannot pass for oshrun's. */
    char quoted[512];
    boot_server_quote(text, len, quoted, sizeof quoted);
    fprintf(stderr, "oshrun: PE %d aborted the job with status %d; its message: %s\n", rank,
            status, quoted);
    job_end(status ? status : 1);
}

static int rank_of_pid(pid_t pid)
{
    for (int i = 0; i < opt.npes; i++)
        if (pes[i].pid == pid)
            return i;
    return -1;
}

/* A PE that left before shmem_init is fatal once any PE called it: they all
 * wait for it in the start-up exchange. */
static void check_left_before_init(void)
{
    if (ending || nconnected == 0)
        return;
    for (int r = 0; r < opt.npes; r++)
        if (pes[r].left_before_init) {
            fprintf(stderr, "oshrun: PE %d (pid %d) exited with status 0 without calling "
                            "shmem_init, while other PEs did and wait for it; ending the job\n",
                    r, (int)pes[r].pid);
            job_end(1);
            return;
        }
}

void job_pe_connected(int rank)
{
    /* Again after a finalize: a new life, to be finalized in turn. */
    if (pes[rank].connected) {
        pes[rank].tearing_down = false;
        pes[rank].finalized = false;
        pes[rank].finalize_at_exit = false;
        return;
    }
    pes[rank].connected = true;
    nconnected++;
    check_left_before_init();
}

void job_pe_tearing_down(int rank) { pes[rank].tearing_down = true; }

void job_pe_finalized(int rank, bool at_exit)
{
    pes[rank].finalized = true;
    pes[rank].finalize_at_exit = at_exit;
}

static void exited_zero(int r)
{
    struct pe *p = &pes[r];
    if (!p->connected) {
        p->left_before_init = true;
        check_left_before_init();
    } else if (!p->finalized) {
        fprintf(stderr, "oshrun: PE %d (pid %d) exited without shmem_finalize; ending the job\n",
                r, (int)p->pid);
        job_end(1);
    } else if (finalize_deadline < 0) {
        finalize_first = r;
        finalize_first_ms = now_ms();
        finalize_deadline =
            finalize_first_ms + FINALIZE_WAIT_MS + (long)FINALIZE_WAIT_PER_PE_MS * opt.npes;
    }
}

void job_reap(void)
{
    int status;
    pid_t pid;
    while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
        int r = rank_of_pid(pid);
        if (r < 0)
            continue;
        pes[r].running = false;
        /* What it sent before it ended (an abort, a finalize) may still be
         * queued: it decides how the exit is reported. */
        server_drain(r);
        if (ending)
            continue;
        if (WIFSIGNALED(status)) {
            int sig = WTERMSIG(status);
            fprintf(stderr, "oshrun: PE %d (pid %d) was killed by signal %d (%s)%s; "
                            "ending the job\n", r, (int)pid, sig, strsignal(sig),
                    resources_killed_note(sig));
            job_end(128 + sig);
        } else if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
            fprintf(stderr, "oshrun: PE %d (pid %d) exited with status %d; ending the job\n", r,
                    (int)pid, WEXITSTATUS(status));
            job_end(WEXITSTATUS(status));
        } else if (WIFEXITED(status)) {
            long heard;
            const char *routine;
            bool beating;
            if (pes[r].connected && !pes[r].finalized &&
                server_member(r, &heard, &routine, &beating)) {
                pes[r].settle_deadline = now_ms() + EXIT_SETTLE_MS;
                settling++;
            } else {
                exited_zero(r);
            }
        }
    }
}

/* Up to 8 ranks "1, 4, 6 and 3 more" of the PEs still in shmem_finalize
 * (all of them, or only those not tearing down); their number. */
static int list_unfinalized(bool only_not_tearing_down, char *list, size_t size)
{
    size_t len = 0;
    int n = 0;
    list[0] = 0;
    for (int r = 0; r < opt.npes; r++) {
        const struct pe *p = &pes[r];
        if (!p->running || !p->connected || p->finalized ||
            (only_not_tearing_down && p->tearing_down))
            continue;
        if (n++ < 8 && len < size)
            len += (size_t)snprintf(list + len, size - len, "%s%d", n > 1 ? ", " : "", r);
    }
    if (n > 8 && len < size)
        snprintf(list + len, size - len, " and %d more", n - 8);
    return n;
}

/* The PEs still in shmem_finalize long after one left it. */
static void check_finalize(void)
{
    char list[160];
    const struct pe *first = &pes[finalize_first];
    finalize_deadline = -1;
    int unmet = list_unfinalized(true, list, sizeof list);
    if (unmet) {
        fprintf(stderr, "oshrun: PE %d (pid %d) completed shmem_finalize%s and exited, but PE%s %s "
                        "did not complete theirs: the PEs did not meet in shmem_finalize; ending "
                        "the job\n",
                finalize_first, (int)first->pid,
                first->finalize_at_exit ? " (at exit: the program did not call it)" : "",
                unmet > 1 ? "s" : "", list);
        job_end(1);
        return;
    }
    int tearing = list_unfinalized(false, list, sizeof list);
    if (!tearing)
        return;
    long until = finalize_first_ms + TEARDOWN_WAIT_MS;
    if (now_ms() < until) {
        finalize_deadline = until;
        return;
    }
    fprintf(stderr, "oshrun: PE%s %s met the others in shmem_finalize but did not complete "
                    "%s teardown within %d s after PE %d left; ending the job\n",
            tearing > 1 ? "s" : "", list, tearing > 1 ? "their" : "its", TEARDOWN_WAIT_MS / 1000,
            finalize_first);
    job_end(1);
}

/* Judges the exits that waited for their connection: it delivered (a
 * FINALIZE, or its end), or the wait is over. Returns the next deadline. */
static long settle(long now)
{
    long next = -1;
    for (int r = 0; settling && r < opt.npes; r++) {
        struct pe *p = &pes[r];
        long heard;
        const char *routine;
        bool beating;
        if (!p->settle_deadline)
            continue;
        if (ending || p->finalized || now >= p->settle_deadline ||
            !server_member(r, &heard, &routine, &beating)) {
            p->settle_deadline = 0;
            settling--;
            if (!ending)
                exited_zero(r);
        } else if (next < 0 || p->settle_deadline < next) {
            next = p->settle_deadline;
        }
    }
    return next;
}

int job_tick(void)
{
    long now = now_ms();
    long settle_next = settle(now);
    if (ending) {
        if (now >= kill_deadline) {
            for (int r = 0; r < opt.npes; r++)
                if (pes[r].running)
                    kill(pes[r].pid, SIGKILL);
            /* PEs beyond the reach of signals (started through a launch
             * agent, which is what died) leave when their connection
             * closes (src/boot/boot_launcher.c). */
            if (!connections_closed)
                server_shutdown();
            connections_closed = true;
            kill_deadline = now + KILL_GRACE_MS; /* and again, not in a busy loop */
        }
        return (int)(kill_deadline - now);
    }
    if (finalize_deadline >= 0 && now >= finalize_deadline)
        check_finalize();
    if (ending)
        return 0;
    long next = finalize_deadline;
    if (settle_next >= 0 && (next < 0 || settle_next < next))
        next = settle_next;
    return next >= 0 ? (int)(next - now) : -1;
}

bool job_alive(void)
{
    if (settling)
        return true;
    bool output = output_pending();
    for (int r = 0; r < opt.npes; r++) {
        if (pes[r].running)
            return true;
        output |= pes[r].out[0].fd >= 0 || pes[r].out[1].fd >= 0;
    }
    /* Every PE is gone: what they wrote is still forwarded, unless the job
     * failed and the reader stopped reading (output.c). */
    if (output && ending && output_stalled()) {
        for (int r = 0; r < opt.npes; r++)
            for (int k = 0; k < 2; k++)
                if (pes[r].out[k].fd >= 0) {
                    close(pes[r].out[k].fd);
                    pes[r].out[k].fd = -1;
                }
        return false;
    }
    return output;
}
