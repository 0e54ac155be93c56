/*
 * The profile's report at shmem_finalize (report.h).
 */
#include "prof/report.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hcomm/hcomm.h"
#include "heap/heap.h"
#include "prof/prof_files.h"
#include "team/team.h"
#include "util/env.h"
#include "util/log.h"
#include "util/prof.h"

/* What one PE hands PE 0: this head, then NCELLS cells. */
struct gather_head {
    int32_t pe, ncells;
    /* The job's time 0 on this PE's clock: written by PE 0, so that every
     * PE's trace starts from the same instant. */
    int64_t origin_ns;
    uint64_t init_begin_ns, init_end_ns, run_ns, events, dropped, sample;
    char host[64];
    char backend[OSHM_PROF_MAX_BACKENDS][16];
    struct oshm_prof_total totals[OSHM_PROF_NFAMILIES];
};

struct gather_cell {
    int32_t dst;
    uint8_t backend, cls;
    uint64_t ops, bytes;
};

#define MAX_CELLS(n_pes) ((size_t)(n_pes) * OSHM_PROF_MAX_BACKENDS * OSHM_PROF_NCLASSES)

static struct {
    struct gather_head *block; /* symmetric; NULL: no room, this PE reports alone */
    const char *dir;           /* NULL: no files */
} r;

static const char *kind_name(enum oshm_prof_kind k)
{
    static const char *const names[] = {"data", "wait", "other", "span"};
    return names[k];
}

void oshm_prof_reserve(void)
{
    r.block = NULL;
    r.dir = NULL;
    if (oshm_env.profile == OSHM_PROF_OFF)
        return;
    /* Every PE asks for the same size at the same point: the same address
     * everywhere, or no room on every PE alike. */
    size_t size = sizeof(struct gather_head) + MAX_CELLS(hcomm.n_pes) * sizeof(struct gather_cell);
    r.block = oshm_heap_alloc(size, 64);
    if (!r.block && hcomm.my_pe == 0)
        oshm_warn("SHMEM_PROFILE: no room for %zu bytes in the symmetric heap: each PE reports "
                  "its own profile only", size);
    const char *dir = oshm_env.profile_dir;
    if (!dir && oshm_env.profile == OSHM_PROF_TRACE)
        dir = "oshm-profile";
    if (dir) {
        char probe[4096];
        snprintf(probe, sizeof probe, "%s/.oshm-probe.%d.%ld", dir, hcomm.my_pe, (long)getpid());
        FILE *f = NULL;
        if (prof_make_dir(dir) != 0 || !(f = fopen(probe, "w")))
            oshm_warn("SHMEM_PROFILE_DIR=%s cannot be written (%s): the profile goes to standard "
                      "output only", dir, strerror(errno));
        else
            r.dir = dir;
        if (f) {
            fclose(f);
            remove(probe);
        }
    }
}

/* The backend of a cell: the peer's for its class, fixed since start-up. */
static void add_cell(void *arg, int dst, int cls, uint64_t ops, uint64_t bytes)
{
    int backend = cls == OSHM_PROF_CLASS_PUT || cls == OSHM_PROF_CLASS_GET ? hcomm.eps[dst].rma
                                                                           : hcomm.eps[dst].amo;
    struct gather_head *h = arg;
    struct gather_cell *c = (struct gather_cell *)(h + 1);
    c[h->ncells++] = (struct gather_cell){.dst = dst, .backend = (uint8_t)backend,
                                          .cls = (uint8_t)cls, .ops = ops, .bytes = bytes};
}

static void fill_head(struct gather_head *h, uint64_t events, uint64_t dropped)
{
    memset(h, 0, sizeof *h);
    h->pe = hcomm.my_pe;
    oshm_prof_init_times(&h->init_begin_ns, &h->init_end_ns);
    h->run_ns = oshm_prof_run_ns();
    h->events = events;
    h->dropped = dropped;
    h->sample = oshm_prof_sample();
    if (gethostname(h->host, sizeof h->host - 1) != 0)
        snprintf(h->host, sizeof h->host, "-");
    for (int b = 0; b < hcomm.n_backends && b < OSHM_PROF_MAX_BACKENDS; b++)
        snprintf(h->backend[b], sizeof h->backend[b], "%s", hcomm.backend[b]->name);
    oshm_prof_totals(h->totals);
    oshm_prof_cells(add_cell, h);
}

/* The rows of a head as the files have them (families with calls only). */
static struct prof_pe pe_of(const struct gather_head *h, struct prof_row *rows)
{
    struct prof_pe pe = {.pe = h->pe, .n_pes = hcomm.n_pes, .run_ns = h->run_ns,
                         .sample = (unsigned long)h->sample, .events = h->events,
                         .dropped = h->dropped, .rows = rows};
    snprintf(pe.host, sizeof pe.host, "%s", h->host);
    for (int f = 0; f < OSHM_PROF_NFAMILIES; f++) {
        const struct oshm_prof_total *t = &h->totals[f];
        if (!t->calls)
            continue;
        struct prof_row *row = &rows[pe.nrows++];
        *row = (struct prof_row){.calls = t->calls, .bytes = t->bytes, .timed = t->timed,
                                 .time_ns = t->time_ns, .max_ns = t->max_ns};
        snprintf(row->name, sizeof row->name, "%s", oshm_prof_family_name[f]);
        snprintf(row->kind, sizeof row->kind, "%s", kind_name(oshm_prof_family_kind[f]));
    }
    return pe;
}

static void file_path(char *path, size_t len, const char *name, int pe)
{
    if (pe >= 0)
        snprintf(path, len, "%s/%s%d.%s", r.dir, name, pe, strchr(name, '.') ? "json" : "csv");
    else
        snprintf(path, len, "%s/%s", r.dir, name);
}

static void cannot_write(const char *path)
{
    oshm_warn("profile: cannot write %s: %s", path, strerror(errno));
}

/* ---- the trace ---- */

static void track_name(int track, char *out, size_t len)
{
    if (track >= OSHM_PROF_DEVICE_TRACK_BASE) {
        int b = (track - OSHM_PROF_DEVICE_TRACK_BASE) / 1024;
        int t = (track - OSHM_PROF_DEVICE_TRACK_BASE) % 1024;
        if (t == 0)
            snprintf(out, len, "device block %d", b);
        else
            snprintf(out, len, "device block %d thread %d", b, t);
    } else {
        snprintf(out, len, track == 0 ? "host thread %d (first)" : "host thread %d", track);
    }
}

static int by_track(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* One PE's timeline as Chrome trace-event JSON, one event a line (the
 * merge relies on it): metadata naming the PE and its tracks, then one
 * complete event ("X") per call, by start. */
static int write_trace(const char *path, const struct gather_head *h,
                       const struct oshm_prof_event *ev, size_t n, int64_t origin_ns)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    int me = h->pe;
    fprintf(f, "{\"traceEvents\":[\n");
    fprintf(f, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":0,"
               "\"args\":{\"name\":\"PE %d (%s)\"}},\n", me, me, h->host);
    fprintf(f, "{\"name\":\"process_sort_index\",\"ph\":\"M\",\"pid\":%d,\"tid\":0,"
               "\"args\":{\"sort_index\":%d}}", me, me);
    /* The tracks that have events, each named once. */
    int *tracks = malloc((n ? n : 1) * sizeof *tracks);
    size_t nt = 0;
    if (tracks) {
        for (size_t i = 0; i < n; i++)
            tracks[i] = ev[i].track;
        qsort(tracks, n, sizeof *tracks, by_track);
        for (size_t i = 0; i < n; i++)
            if (i == 0 || tracks[i] != tracks[i - 1])
                tracks[nt++] = tracks[i];
    }
    for (size_t i = 0; i < nt; i++) {
        char name[64];
        track_name(tracks[i], name, sizeof name);
        fprintf(f, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,"
                   "\"args\":{\"name\":\"%s\"}}", me, tracks[i], name);
        fprintf(f, ",\n{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,"
                   "\"args\":{\"sort_index\":%d}}", me, tracks[i], tracks[i]);
    }
    free(tracks);
    if (h->dropped && n)
        fprintf(f, ",\n{\"name\":\"%" PRIu64 " earlier events dropped (SHMEM_PROFILE_EVENTS)\","
                   "\"ph\":\"i\",\"s\":\"p\",\"ts\":%.3f,\"pid\":%d,\"tid\":%d}",
                h->dropped, (double)((int64_t)ev[0].start_ns - origin_ns) / 1e3, me, ev[0].track);
    for (size_t i = 0; i < n; i++) {
        const struct oshm_prof_event *e = &ev[i];
        fprintf(f, ",\n{\"name\":\"%s\",\"cat\":\"%s\",\"ph\":\"X\",\"ts\":%.3f,\"dur\":%.3f,"
                   "\"pid\":%d,\"tid\":%d,\"args\":{\"bytes\":%" PRIu64,
                e->routine, oshm_prof_family_name[e->family],
                (double)((int64_t)e->start_ns - origin_ns) / 1e3, (double)e->dur_ns / 1e3, me,
                e->track, e->bytes);
        if (e->pe >= 0)
            fprintf(f, ",\"pe\":%d", e->pe);
        fputs("}}", f);
    }
    fprintf(f, "\n],\n\"displayTimeUnit\":\"ns\",\n\"otherData\":{\"oshm_pe\":%d,\"events\":%zu,"
               "\"dropped_events\":%" PRIu64 "}}\n", me, n, h->dropped);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad)
        return -1;
    return 0;
}

/* ---- PE 0's part ---- */

/* Every PE's head and cells, read from their blocks. */
static struct gather_head *gather(struct gather_cell **cells_out)
{
    int n = hcomm.n_pes;
    struct gather_head *heads = calloc((size_t)n, sizeof *heads);
    struct gather_cell *cells = malloc(MAX_CELLS(n) * n * sizeof *cells);
    if (!heads || !cells) {
        free(heads);
        free(cells);
        return NULL;
    }
    for (int pe = 0; pe < n; pe++) {
        hcomm_get(&hcomm.default_channel, &heads[pe], r.block, sizeof *heads, pe, false,
                  "profile");
        if (heads[pe].ncells < 0 || (size_t)heads[pe].ncells > MAX_CELLS(n))
            heads[pe].ncells = 0;
        if (heads[pe].ncells)
            hcomm_get(&hcomm.default_channel, &cells[MAX_CELLS(n) * pe], r.block + 1,
                      (size_t)heads[pe].ncells * sizeof *cells, pe, false, "profile");
    }
    *cells_out = cells;
    return heads;
}

/* The job's time 0 on each PE's clock: the earliest start of an init. PEs
 * on PE 0's host share its clock; on other hosts, the end of init (every
 * PE leaves start-up's last exchange at once) stands for the same instant. */
static void origins(struct gather_head *heads, int n, int64_t *origin)
{
    int64_t earliest = INT64_MAX;
    int64_t *shift = malloc((size_t)n * sizeof *shift); /* this PE's clock -> PE 0's */
    if (!shift)
        return;
    for (int pe = 0; pe < n; pe++) {
        bool same = !strcmp(heads[pe].host, heads[0].host);
        shift[pe] = same ? 0 : (int64_t)heads[0].init_end_ns - (int64_t)heads[pe].init_end_ns;
        int64_t begin = (int64_t)heads[pe].init_begin_ns + shift[pe];
        earliest = begin < earliest ? begin : earliest;
    }
    for (int pe = 0; pe < n; pe++)
        origin[pe] = earliest - shift[pe];
    free(shift);
}

static void print_and_write(struct gather_head *heads, struct gather_cell *cells, int n)
{
    struct prof_pe *pes = calloc((size_t)n, sizeof *pes);
    struct prof_row *rows = calloc((size_t)n * OSHM_PROF_NFAMILIES, sizeof *rows);
    struct prof_cell *all = malloc(MAX_CELLS(n) * n * sizeof *all);
    if (!pes || !rows || !all) {
        oshm_warn("profile: out of memory for the job's table");
        goto out;
    }
    size_t ncells = 0;
    for (int pe = 0; pe < n; pe++) {
        pes[pe] = pe_of(&heads[pe], &rows[(size_t)pe * OSHM_PROF_NFAMILIES]);
        for (int i = 0; i < heads[pe].ncells; i++) {
            const struct gather_cell *c = &cells[MAX_CELLS(n) * pe + i];
            struct prof_cell *o = &all[ncells++];
            *o = (struct prof_cell){.src = pe, .dst = c->dst, .ops = c->ops, .bytes = c->bytes};
            snprintf(o->backend, sizeof o->backend, "%s",
                     c->backend < OSHM_PROF_MAX_BACKENDS && heads[pe].backend[c->backend][0]
                         ? heads[pe].backend[c->backend]
                         : "?");
            snprintf(o->cls, sizeof o->cls, "%s", oshm_prof_class_name[c->cls % OSHM_PROF_NCLASSES]);
        }
    }
    prof_print_summary(stdout, pes, n);
    fflush(stdout);
    if (!r.dir)
        goto out;
    char path[4096];
    file_path(path, sizeof path, "summary.txt", -1);
    FILE *f = fopen(path, "w");
    if (f) {
        prof_print_summary(f, pes, n);
        if (fclose(f) != 0)
            cannot_write(path);
    } else {
        cannot_write(path);
    }
    file_path(path, sizeof path, "comm.csv", -1);
    if (prof_write_cells(path, all, ncells) != 0)
        cannot_write(path);
    file_path(path, sizeof path, "comm.svg", -1);
    if (prof_write_heatmap(path, all, ncells, n) != 0)
        cannot_write(path);
    file_path(path, sizeof path, "time.svg", -1);
    if (prof_write_time_chart(path, pes, n) != 0)
        cannot_write(path);
out:
    free(pes);
    free(rows);
    free(all);
}

/* oshrun merges the traces of DIR once every PE has ended (it says so in
 * OSHM_TRACE_MERGE_DIR), a PE that failed after others wrote theirs
 * included; other launchers (mpirun, srun) leave it to PE 0 here. Each
 * directory is merged once: by oshrun where it names this one, else here. */
static bool launcher_merges(const char *dir)
{
    const char *by = oshm_env.trace_merge_dir;
    if (!by || !*by)
        return false;
    char *mine = realpath(dir, NULL), *its = realpath(by, NULL);
    bool same = mine && its && strcmp(mine, its) == 0;
    free(mine);
    free(its);
    return same;
}

void oshm_prof_report(void)
{
    if (oshm_prof.mode == OSHM_PROF_OFF)
        return;
    bool trace = oshm_prof.mode == OSHM_PROF_TRACE;
    oshm_prof_stop();
    struct oshm_prof_event *ev = NULL;
    uint64_t dropped = 0;
    size_t nev = trace ? oshm_prof_events(&ev, &dropped) : 0;
    struct gather_head *mine = r.block;
    if (!mine) {
        mine = malloc(sizeof *mine + MAX_CELLS(hcomm.n_pes) * sizeof(struct gather_cell));
        if (!mine) {
            oshm_warn("profile: out of memory for this PE's report");
            free(ev);
            oshm_prof_release();
            return;
        }
    }
    fill_head(mine, nev, dropped);
    char path[4096];
    struct prof_row rows[OSHM_PROF_NFAMILIES];
    struct prof_pe pe = pe_of(mine, rows);
    if (r.dir) {
        file_path(path, sizeof path, "pe", hcomm.my_pe);
        if (prof_write_pe(path, &pe) != 0)
            cannot_write(path);
    }
    int me = hcomm.my_pe, n = hcomm.n_pes;
    struct gather_head *heads = NULL;
    struct gather_cell *cells = NULL;
    if (r.block) {
        oshm_sync_world(); /* every block is filled */
        if (me == 0) {
            heads = gather(&cells);
            if (!heads)
                oshm_warn("profile: out of memory for the other PEs' counters");
            int64_t *origin = heads ? malloc((size_t)n * sizeof *origin) : NULL;
            if (origin) {
                origins(heads, n, origin);
                for (int p = 0; p < n; p++)
                    hcomm_put(&hcomm.default_channel, &r.block->origin_ns, &origin[p],
                              sizeof *origin, p, false, "profile");
                hcomm_quiet(&hcomm.default_channel);
            }
            free(origin);
        }
        oshm_sync_world(); /* every origin is in place */
    } else {
        mine->origin_ns = (int64_t)mine->init_begin_ns;
        if (me == 0)
            prof_print_summary(stdout, &pe, 1);
    }
    if (trace && r.dir) {
        file_path(path, sizeof path, "trace.pe", me);
        if (write_trace(path, mine, ev, nev, mine->origin_ns) != 0)
            cannot_write(path);
    }
    free(ev);
    if (r.block) {
        oshm_sync_world(); /* every trace is written */
        if (me == 0 && heads) {
            print_and_write(heads, cells, n);
            if (trace && r.dir && !launcher_merges(r.dir)) {
                file_path(path, sizeof path, "trace.json", -1);
                if (prof_merge_traces(r.dir, n, path, NULL, stderr) < 0)
                    cannot_write(path);
            }
        }
        free(heads);
        free(cells);
        oshm_sync_world(); /* PE 0 has read every block */
    } else {
        free(mine);
    }
    oshm_prof_release();
}
