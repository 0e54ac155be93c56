/*
 * A job that runs too long (--timeout, SHMEM_TIMEOUT) and a PE that stops
 * answering (--heartbeat, SHMEM_HEARTBEAT). Each PE's bootstrap watcher
 * (src/boot/boot_launcher.c) sends a heartbeat every interval oshrun asks
 * for, naming the OpenSHMEM routine the program is in; a stopped PE (SIGSTOP,
 * a debugger) or one on a hung node sends none. oshrun then says, for each
 * PE still running, what it was last doing, and ends the job.
 */
#include <stdio.h>
#include <string.h>

#include "oshrun.h"

/* Reports of the routine for --timeout alone: what a PE was doing is at
 * most this old. */
#define REPORT_MS 1000
/* --heartbeat S: a heartbeat every S/3, so that two lost in a row are not
 * yet a silence of S. */
#define BEATS_PER_LIMIT 3
#define MIN_BEAT_MS 100
/* Lines of a report beyond which PEs are counted, not listed. */
#define REPORT_LINES 32

static long started, limit_at = -1;
/* When oshrun first heard a heartbeat of any PE (-1: not yet): from then
 * on a PE that has sent none is silent too. Every PE sends its first
 * heartbeat at its first exchange of shmem_init, where they all wait for
 * the slowest: a PE that is not there a --heartbeat limit after the first
 * one is stopped, or hangs. */
static long first_beat = -1;

unsigned liveness_heartbeat_ms(void)
{
    unsigned ms = 0;
    if (opt.heartbeat_s) {
        unsigned long beat = opt.heartbeat_s * 1000 / BEATS_PER_LIMIT;
        ms = beat < MIN_BEAT_MS ? MIN_BEAT_MS : (unsigned)beat;
    }
    if (opt.timeout_s && (!ms || ms > REPORT_MS))
        ms = REPORT_MS;
    return ms;
}

void liveness_start(void)
{
    started = now_ms();
    if (opt.timeout_s)
        limit_at = started + (long)opt.timeout_s * 1000;
}

/* A PE of this machine that is stopped (state T in /proc/PID/stat). */
static bool stopped(pid_t pid)
{
    char path[64], buf[256];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    /* "pid (comm) S ...": comm may hold anything, the state follows its last ')' */
    const char *paren = strrchr(buf, ')');
    return paren && paren[1] == ' ' && (paren[2] == 'T' || paren[2] == 't');
}

/* A routine's name as the PE sent it: letters, digits and '_' only. */
static void routine_name(const char *in, char *out, size_t size)
{
    size_t n = 0;
    for (; *in && n + 1 < size; in++)
        if ((*in >= 'a' && *in <= 'z') || (*in >= 'A' && *in <= 'Z') ||
            (*in >= '0' && *in <= '9') || *in == '_')
            out[n++] = *in;
    out[n] = '\0';
}

void liveness_describe(int rank, char *out, size_t size)
{
    const struct pe *p = &pes[rank];
    const struct host *h = host_of(rank);
    bool local = !h || h->local;
    long heard;
    const char *routine;
    bool beating;
    char what[160], name[64];
    if (!p->connected) {
        snprintf(what, sizeof what, "not in shmem_init yet");
    } else if (p->finalized) {
        snprintf(what, sizeof what, "finished shmem_finalize, still running");
    } else if (!server_member(rank, &heard, &routine, &beating) || !beating) {
        snprintf(what, sizeof what, "in shmem_init (no report yet)");
    } else {
        long ago = now_ms() - heard;
        routine_name(routine, name, sizeof name);
        const char *in = name[0] ? name : "the program, in no OpenSHMEM routine";
        if (ago <= 2 * (long)liveness_heartbeat_ms() + 500)
            snprintf(what, sizeof what, "in %s", in);
        else
            snprintf(what, sizeof what, "silent for %.1f s; last in %s", ago / 1000.0, in);
    }
    snprintf(out, size, "PE %d (pid %d%s%s%s): %s", rank, (int)p->pid,
             local ? "" : " of the launch agent, on ", local ? "" : h->name,
             local && stopped(p->pid) ? ", stopped" : "", what);
}

/* Every PE still running, one line each. */
static void report_running(void)
{
    int listed = 0, more = 0;
    char line[320];
    for (int r = 0; r < opt.npes; r++) {
        if (!pes[r].running)
            continue;
        if (listed == REPORT_LINES) {
            more++;
            continue;
        }
        liveness_describe(r, line, sizeof line);
        fprintf(stderr, "oshrun:   %s\n", line);
        listed++;
    }
    if (more)
        fprintf(stderr, "oshrun:   and %d more PEs\n", more);
}

/* The first PE silent for the --heartbeat limit: since its last heartbeat,
 * or, one that never sent any, since the first PE's. */
static int silent_pe(long now, long *next)
{
    long limit = (long)opt.heartbeat_s * 1000;
    int never = -1;
    for (int r = 0; r < opt.npes; r++) {
        long heard;
        const char *routine;
        bool beating = false;
        if (!pes[r].running || pes[r].finalized)
            continue;
        if (!pes[r].connected || !server_member(r, &heard, &routine, &beating) || !beating) {
            if (never < 0)
                never = r;
            continue;
        }
        if (first_beat < 0)
            first_beat = now;
        if (now - heard >= limit)
            return r;
        if (*next < 0 || heard + limit < *next)
            *next = heard + limit;
    }
    if (never >= 0 && first_beat >= 0) {
        if (now - first_beat >= limit)
            return never;
        if (*next < 0 || first_beat + limit < *next)
            *next = first_beat + limit;
    }
    return -1;
}

int liveness_tick(void)
{
    if (ending)
        return -1;
    long now = now_ms(), next = -1;
    if (limit_at >= 0 && now >= limit_at) {
        fprintf(stderr, "oshrun: the job ran past its time limit of %lu s (--timeout); ending "
                        "it. PEs still running:\n", opt.timeout_s);
        report_running();
        job_end(124);
        return -1;
    }
    if (limit_at >= 0)
        next = limit_at;
    if (opt.heartbeat_s) {
        int r = silent_pe(now, &next);
        if (r >= 0) {
            char line[320];
            liveness_describe(r, line, sizeof line);
            fprintf(stderr, "oshrun: PE %d has not answered for %lu s (--heartbeat)%s: it is "
                            "stopped, or its node hangs; ending the job\n", r, opt.heartbeat_s,
                    pes[r].connected ? "" : ", nor joined the job");
            fprintf(stderr, "oshrun:   %s\n", line);
            job_end(1);
            return -1;
        }
        /* Silences are checked at least once a heartbeat. */
        long beat = now + (long)liveness_heartbeat_ms();
        if (next < 0 || beat < next)
            next = beat;
    }
    return next < 0 ? -1 : (int)(next - now);
}
