/*
 * The profile's files (prof_files.h): per-PE rows, the job-wide table, the
 * comparison of two runs, the communication matrix and its heat map, the
 * time chart, and the merge of the PEs' traces.
 */
#include "prof/prof_files.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- per-PE rows ---- */

int prof_write_pe(const char *path, const struct prof_pe *pe)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f,
            "# oshm-profile pe=%d npes=%d host=%s run_ns=%" PRIu64 " sample=%lu events=%" PRIu64
            " dropped=%" PRIu64 "\n",
            pe->pe, pe->n_pes, pe->host[0] ? pe->host : "-", pe->run_ns, pe->sample, pe->events,
            pe->dropped);
    fprintf(f, "routine,kind,calls,bytes,timed,time_ns,max_ns\n");
    for (int i = 0; i < pe->nrows; i++) {
        const struct prof_row *r = &pe->rows[i];
        fprintf(f, "%s,%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", r->name,
                r->kind, r->calls, r->bytes, r->timed, r->time_ns, r->max_ns);
    }
    int bad = ferror(f);
    if (fclose(f) != 0 || bad)
        return -1;
    return 0;
}

/* KEY=value of the header line, as a number; DEF when absent. */
static uint64_t header_value(const char *line, const char *key, uint64_t def)
{
    char pat[32];
    snprintf(pat, sizeof pat, " %s=", key);
    const char *v = strstr(line, pat);
    return v ? strtoull(v + strlen(pat), NULL, 10) : def;
}

int prof_read_pe(const char *path, struct prof_pe *pe, char *why, size_t whylen)
{
    memset(pe, 0, sizeof *pe);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(why, whylen, "%s: %s", path, strerror(errno));
        return -1;
    }
    char line[512];
    int rc = -1;
    if (!fgets(line, sizeof line, f) || strncmp(line, "# oshm-profile ", 15) != 0) {
        snprintf(why, whylen, "%s: not a profile of oshm (no '# oshm-profile' line)", path);
        goto out;
    }
    pe->pe = (int)header_value(line, "pe", 0);
    pe->n_pes = (int)header_value(line, "npes", 0);
    pe->run_ns = header_value(line, "run_ns", 0);
    pe->sample = (unsigned long)header_value(line, "sample", 1);
    pe->events = header_value(line, "events", 0);
    pe->dropped = header_value(line, "dropped", 0);
    const char *h = strstr(line, " host=");
    if (h)
        sscanf(h + 6, "%63s", pe->host);
    if (!fgets(line, sizeof line, f) || strncmp(line, "routine,", 8) != 0) {
        snprintf(why, whylen, "%s: no 'routine,...' header line", path);
        goto out;
    }
    int cap = 0;
    while (fgets(line, sizeof line, f)) {
        struct prof_row r = {0};
        if (sscanf(line, "%31[^,],%7[^,],%" SCNu64 ",%" SCNu64 ",%" SCNu64 ",%" SCNu64 ",%" SCNu64,
                   r.name, r.kind, &r.calls, &r.bytes, &r.timed, &r.time_ns, &r.max_ns) != 7) {
            snprintf(why, whylen, "%s: a line is not routine,kind,calls,bytes,timed,time_ns,max_ns:"
                     " %.60s", path, line);
            goto out;
        }
        if (pe->nrows == cap) {
            cap = cap ? 2 * cap : 64;
            struct prof_row *grown = realloc(pe->rows, (size_t)cap * sizeof *grown);
            if (!grown) {
                snprintf(why, whylen, "out of memory");
                goto out;
            }
            pe->rows = grown;
        }
        pe->rows[pe->nrows++] = r;
    }
    rc = 0;
out:
    fclose(f);
    if (rc != 0)
        prof_pe_free(pe);
    return rc;
}

void prof_pe_free(struct prof_pe *pe)
{
    free(pe->rows);
    pe->rows = NULL;
    pe->nrows = 0;
}

static int by_pe(const void *a, const void *b)
{
    const struct prof_pe *x = a, *y = b;
    return (x->pe > y->pe) - (x->pe < y->pe);
}

int prof_read_dir(const char *dir, struct prof_pe **pes, char *why, size_t whylen)
{
    *pes = NULL;
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(why, whylen, "%s: %s", dir, strerror(errno));
        return -1;
    }
    int n = 0, cap = 0, rc = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        unsigned pe;
        char tail[8];
        if (sscanf(e->d_name, "pe%u.%7s", &pe, tail) != 2 || strcmp(tail, "csv") != 0)
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 16;
            struct prof_pe *grown = realloc(*pes, (size_t)cap * sizeof *grown);
            if (!grown) {
                snprintf(why, whylen, "out of memory");
                rc = -1;
                break;
            }
            *pes = grown;
        }
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (prof_read_pe(path, &(*pes)[n], why, whylen) != 0) {
            rc = -1;
            break;
        }
        n++;
    }
    closedir(d);
    if (rc == 0 && n == 0) {
        snprintf(why, whylen, "%s has no pe<N>.csv: not a profile directory (SHMEM_PROFILE_DIR)",
                 dir);
        rc = -1;
    }
    if (rc != 0) {
        prof_pes_free(*pes, n);
        *pes = NULL;
        return -1;
    }
    qsort(*pes, (size_t)n, sizeof **pes, by_pe);
    return n;
}

void prof_pes_free(struct prof_pe *pes, int n)
{
    for (int i = 0; i < n; i++)
        prof_pe_free(&pes[i]);
    free(pes);
}

/* ---- the job-wide table ---- */

struct job_row {
    char name[32];
    char kind[8];
    uint64_t calls, bytes, timed, time_ns, max_ns;
    int max_pe;
};

/* Every PE's rows of one name together, in the order they first appear. */
static int job_rows(const struct prof_pe *pes, int n, struct job_row **out)
{
    int count = 0, cap = 0;
    struct job_row *rows = NULL;
    for (int p = 0; p < n; p++)
        for (int i = 0; i < pes[p].nrows; i++) {
            const struct prof_row *r = &pes[p].rows[i];
            int k;
            for (k = 0; k < count && strcmp(rows[k].name, r->name) != 0; k++)
                ;
            if (k == count) {
                if (count == cap) {
                    cap = cap ? 2 * cap : 64;
                    struct job_row *grown = realloc(rows, (size_t)cap * sizeof *grown);
                    if (!grown)
                        break;
                    rows = grown;
                }
                memset(&rows[count], 0, sizeof rows[count]);
                snprintf(rows[count].name, sizeof rows[count].name, "%s", r->name);
                snprintf(rows[count].kind, sizeof rows[count].kind, "%s", r->kind);
                rows[count].max_pe = pes[p].pe;
                count++;
            }
            struct job_row *j = &rows[k];
            j->calls += r->calls;
            j->bytes += r->bytes;
            j->timed += r->timed;
            j->time_ns += r->time_ns;
            if (r->max_ns > j->max_ns) {
                j->max_ns = r->max_ns;
                j->max_pe = pes[p].pe;
            }
        }
    *out = rows;
    return count;
}

static double pct(uint64_t part, uint64_t whole) { return whole ? 100.0 * part / whole : 0; }

void prof_print_summary(FILE *f, const struct prof_pe *pes, int n)
{
    struct job_row *rows;
    int count = job_rows(pes, n, &rows);
    int n_pes = n ? pes[0].n_pes : 0;
    uint64_t run = 0, kinds[3] = {0, 0, 0}, events = 0, dropped = 0;
    bool sampled = false;
    for (int p = 0; p < n; p++) {
        run += pes[p].run_ns;
        events += pes[p].events;
        dropped += pes[p].dropped;
    }
    fprintf(f, "oshm profile: %d PE%s", n, n == 1 ? "" : "s");
    if (n_pes > n)
        fprintf(f, " of %d (the others' files are elsewhere)", n_pes);
    fprintf(f, "; time is every PE's together\n");
    fprintf(f, "%-20s %12s %14s %12s %11s %11s %7s\n", "routine", "calls", "bytes", "total ms",
            "mean us", "max us", "max PE");
    const struct job_row *init = NULL;
    for (int i = 0; i < count; i++) {
        const struct job_row *r = &rows[i];
        if (!strcmp(r->name, "init")) {
            init = r;
            continue;
        }
        bool estimate = r->timed < r->calls;
        sampled |= estimate;
        fprintf(f, "%-20s %12" PRIu64 " %14" PRIu64 " %12.3f %11.3f %11.3f %7d%s\n", r->name,
                r->calls, r->bytes, r->time_ns / 1e6, r->calls ? r->time_ns / 1e3 / r->calls : 0,
                r->max_ns / 1e3, r->max_pe, estimate ? " ~" : "");
        if (!strcmp(r->kind, "data"))
            kinds[0] += r->time_ns;
        else if (!strcmp(r->kind, "wait"))
            kinds[1] += r->time_ns;
        else if (!strcmp(r->kind, "other"))
            kinds[2] += r->time_ns;
    }
    if (init && init->calls)
        fprintf(f, "time in shmem_init: mean %.3f ms, max %.3f ms (PE %d)\n",
                init->time_ns / 1e6 / init->calls, init->max_ns / 1e6, init->max_pe);
    fprintf(f,
            "time in routines: moving data %.3f ms (%.1f%%), waiting %.3f ms (%.1f%%), "
            "other %.3f ms (%.1f%%), of %.3f ms from init to finalize\n",
            kinds[0] / 1e6, pct(kinds[0], run), kinds[1] / 1e6, pct(kinds[1], run),
            kinds[2] / 1e6, pct(kinds[2], run), run / 1e6);
    if (sampled && n)
        fprintf(f,
                "~ estimated: 1 call in %lu timed, fewer as calls accumulate "
                "(SHMEM_PROFILE_SAMPLE=1 times every call)\n",
                pes[0].sample);
    if (events || dropped)
        fprintf(f, "trace: %" PRIu64 " events kept, %" PRIu64 " dropped%s\n", events, dropped,
                dropped ? " (the oldest; SHMEM_PROFILE_EVENTS keeps more)" : "");
    free(rows);
}

void prof_print_compare(FILE *f, const char *name_a, const struct prof_pe *a, int na,
                        const char *name_b, const struct prof_pe *b, int nb)
{
    struct job_row *ra, *rb;
    int ca = job_rows(a, na, &ra), cb = job_rows(b, nb, &rb);
    fprintf(f, "A: %s (%d PEs)\nB: %s (%d PEs)\n", name_a, na, name_b, nb);
    fprintf(f, "%-20s %11s %11s %11s %11s %7s\n", "routine", "calls A", "calls B", "mean A us",
            "mean B us", "B/A");
    /* A's rows, then those only B has. */
    for (int pass = 0; pass < 2; pass++) {
        int count = pass ? cb : ca;
        for (int i = 0; i < count; i++) {
            const struct job_row *row = pass ? &rb[i] : &ra[i];
            const struct job_row *x = pass ? NULL : row, *y = NULL;
            const char *name = row->name;
            for (int k = 0; k < (pass ? ca : cb); k++)
                if (!strcmp((pass ? ra : rb)[k].name, name)) {
                    if (pass)
                        x = &ra[k];
                    else
                        y = &rb[k];
                }
            if (pass) {
                if (x)
                    continue; /* printed in the first pass */
                y = &rb[i];
            }
            double ma = x && x->calls ? x->time_ns / 1e3 / x->calls : 0;
            double mb = y && y->calls ? y->time_ns / 1e3 / y->calls : 0;
            fprintf(f, "%-20s %11" PRIu64 " %11" PRIu64 " %11.3f %11.3f", name,
                    x ? x->calls : 0, y ? y->calls : 0, ma, mb);
            if (x && y && ma > 0) {
                double ratio = mb / ma;
                fprintf(f, " %7.2f  %s\n", ratio,
                        ratio < 0.9 ? "faster" : ratio > 1.1 ? "slower" : "same");
            } else {
                fprintf(f, " %7s  %s\n", "-", !x ? "only in B" : !y ? "only in A" : "");
            }
        }
    }
    uint64_t runa = 0, runb = 0;
    for (int i = 0; i < na; i++)
        runa += a[i].run_ns;
    for (int i = 0; i < nb; i++)
        runb += b[i].run_ns;
    fprintf(f, "from init to finalize: A %.3f ms, B %.3f ms (every PE's together)\n", runa / 1e6,
            runb / 1e6);
    free(ra);
    free(rb);
}

/* ---- the communication matrix ---- */

int prof_write_cells(const char *path, const struct prof_cell *cells, size_t n)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f, "src,dst,backend,class,ops,bytes\n");
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%d,%d,%s,%s,%" PRIu64 ",%" PRIu64 "\n", cells[i].src, cells[i].dst,
                cells[i].backend, cells[i].cls, cells[i].ops, cells[i].bytes);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad)
        return -1;
    return 0;
}

long prof_read_cells(const char *path, struct prof_cell **cells, char *why, size_t whylen)
{
    *cells = NULL;
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(why, whylen, "%s: %s", path, strerror(errno));
        return -1;
    }
    char line[256];
    long n = 0, cap = 0;
    if (!fgets(line, sizeof line, f) || strncmp(line, "src,dst,backend,class,ops,bytes", 31)) {
        snprintf(why, whylen, "%s: no 'src,dst,backend,class,ops,bytes' header", path);
        fclose(f);
        return -1;
    }
    while (fgets(line, sizeof line, f)) {
        struct prof_cell c = {0};
        if (sscanf(line, "%d,%d,%15[^,],%7[^,],%" SCNu64 ",%" SCNu64, &c.src, &c.dst, c.backend,
                   c.cls, &c.ops, &c.bytes) != 6 || c.src < 0 || c.dst < 0) {
            snprintf(why, whylen, "%s: a line is not src,dst,backend,class,ops,bytes: %.60s", path,
                     line);
            free(*cells);
            *cells = NULL;
            fclose(f);
            return -1;
        }
        if (n == cap) {
            cap = cap ? 2 * cap : 256;
            struct prof_cell *grown = realloc(*cells, (size_t)cap * sizeof *grown);
            if (!grown) {
                snprintf(why, whylen, "out of memory");
                free(*cells);
                *cells = NULL;
                fclose(f);
                return -1;
            }
            *cells = grown;
        }
        (*cells)[n++] = c;
    }
    fclose(f);
    return n;
}

/* log2(X) to within 0.09, X >= 1: enough to place a colour, and the library
 * needs no libm for it. */
static double approx_log2(uint64_t x)
{
    int e = 63 - __builtin_clzll(x | 1);
    return e + ((double)x / (double)(1ull << e) - 1.0);
}

/* A sequential colour scale, light to dark, for T in [0, 1]. */
static void heat_colour(double t, char *out, size_t len)
{
    static const unsigned char stops[][3] = {
        {255, 247, 188}, {254, 196, 79}, {236, 112, 20}, {153, 52, 4}, {68, 20, 2}};
    double x = t * 4;
    int i = x >= 4 ? 3 : (int)x;
    double u = x - i;
    unsigned char c[3];
    for (int k = 0; k < 3; k++)
        c[k] = (unsigned char)(stops[i][k] + (stops[i + 1][k] - stops[i][k]) * u + 0.5);
    snprintf(out, len, "#%02x%02x%02x", c[0], c[1], c[2]);
}

static void human_bytes(uint64_t b, char *out, size_t len)
{
    static const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = (double)b;
    int u = 0;
    while (v >= 1024 && u < 4) {
        v /= 1024;
        u++;
    }
    snprintf(out, len, u ? "%.1f %s" : "%.0f %s", v, units[u]);
}

int prof_write_heatmap(const char *path, const struct prof_cell *cells, size_t n, int n_pes)
{
    /* The backends, in order of first appearance; a panel each. */
    char backends[8][16];
    int nb = 0;
    for (size_t i = 0; i < n; i++) {
        int k;
        for (k = 0; k < nb && strcmp(backends[k], cells[i].backend); k++)
            ;
        if (k == nb && nb < 8)
            snprintf(backends[nb++], sizeof backends[0], "%s", cells[i].backend);
        if (cells[i].src >= n_pes)
            n_pes = cells[i].src + 1;
        if (cells[i].dst >= n_pes)
            n_pes = cells[i].dst + 1;
    }
    if (n_pes < 1)
        n_pes = 1;
    if (nb == 0)
        snprintf(backends[nb++], sizeof backends[0], "%s", "(no traffic)");
    size_t np = (size_t)n_pes;
    uint64_t *bytes = calloc((size_t)nb * np * np, sizeof *bytes);
    uint64_t *ops = calloc((size_t)nb * np * np, sizeof *ops);
    if (!bytes || !ops) {
        free(bytes);
        free(ops);
        errno = ENOMEM;
        return -1;
    }
    uint64_t max = 0, min = UINT64_MAX;
    for (size_t i = 0; i < n; i++) {
        int k;
        for (k = 0; k < nb && strcmp(backends[k], cells[i].backend); k++)
            ;
        if (k == nb)
            continue;
        size_t at = ((size_t)k * np + (size_t)cells[i].src) * np + (size_t)cells[i].dst;
        bytes[at] += cells[i].bytes;
        ops[at] += cells[i].ops;
    }
    for (size_t i = 0; i < (size_t)nb * np * np; i++)
        if (bytes[i]) {
            max = bytes[i] > max ? bytes[i] : max;
            min = bytes[i] < min ? bytes[i] : min;
        }
    double cell = n_pes <= 8 ? 40 : n_pes <= 32 ? 16 : n_pes <= 128 ? 4 : 2;
    double side = cell * n_pes, margin = 60, gap = 50, top = 70;
    double width = margin + nb * side + (nb - 1) * gap + 30, height = top + side + 90;
    if (width < 600)
        width = 600; /* the title and the scale's words */
    FILE *f = fopen(path, "w");
    if (!f) {
        free(bytes);
        free(ops);
        return -1;
    }
    fprintf(f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
            "font-family=\"sans-serif\" font-size=\"12\">\n"
            "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
            "<text x=\"%.0f\" y=\"20\" font-size=\"15\">Bytes each PE (row) moved to or from "
            "each PE (column), %d PEs</text>\n",
            width, height, margin, n_pes);
    int label_every = n_pes <= 16 ? 1 : (n_pes + 15) / 16;
    for (int k = 0; k < nb; k++) {
        double x0 = margin + k * (side + gap);
        fprintf(f, "<text x=\"%.1f\" y=\"%.0f\" font-weight=\"bold\">%s</text>\n", x0, top - 25,
                backends[k]);
        for (int s = 0; s < n_pes; s++)
            for (int d = 0; d < n_pes; d++) {
                size_t at = ((size_t)k * np + (size_t)s) * np + (size_t)d;
                char colour[8] = "#f2f2f2", amount[32];
                if (bytes[at]) {
                    double t = max > min ? (approx_log2(bytes[at]) - approx_log2(min)) /
                                               (approx_log2(max) - approx_log2(min))
                                         : 1;
                    heat_colour(t, colour, sizeof colour);
                }
                human_bytes(bytes[at], amount, sizeof amount);
                fprintf(f,
                        "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" "
                        "stroke=\"white\" stroke-width=\"%s\"><title>PE %d on PE %d over %s: %s "
                        "in %" PRIu64 " operations</title></rect>\n",
                        x0 + d * cell, top + s * cell, cell, cell, colour,
                        cell >= 8 ? "1" : "0", s, d, backends[k], amount, ops[at]);
            }
        for (int i = 0; i < n_pes; i += label_every) {
            fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"10\">%d"
                       "</text>\n", x0 + (i + 0.5) * cell, top - 6, i);
            if (k == 0)
                fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" font-size=\"10\">%d"
                           "</text>\n", x0 - 6, top + (i + 0.5) * cell + 4, i);
        }
    }
    fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\" transform=\"rotate(-90 %.0f "
               "%.0f)\">calling PE</text>\n", margin - 35, top + side / 2, margin - 35,
            top + side / 2);
    /* The scale: logarithmic, from the smallest amount to the largest. */
    double ly = top + side + 30, lw = 200;
    fprintf(f, "<defs><linearGradient id=\"scale\">");
    for (int i = 0; i <= 4; i++) {
        char colour[8];
        heat_colour(i / 4.0, colour, sizeof colour);
        fprintf(f, "<stop offset=\"%d%%\" stop-color=\"%s\"/>", i * 25, colour);
    }
    char lo[32], hi[32];
    human_bytes(max ? min : 0, lo, sizeof lo);
    human_bytes(max, hi, sizeof hi);
    fprintf(f,
            "</linearGradient></defs>\n"
            "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"12\" fill=\"url(#scale)\"/>\n"
            "<text x=\"%.0f\" y=\"%.0f\">%s</text>\n"
            "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\">%s</text>\n"
            "<text x=\"%.0f\" y=\"%.0f\" fill=\"#555\">bytes (log scale); grey: none; target PE "
            "along the top</text>\n</svg>\n",
            margin, ly, lw, margin, ly + 26, lo, margin + lw, ly + 26, hi, margin, ly + 44);
    free(bytes);
    free(ops);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad)
        return -1;
    return 0;
}

int prof_write_time_chart(const char *path, const struct prof_pe *pes, int n)
{
    struct job_row *rows;
    int count = job_rows(pes, n, &rows);
    uint64_t max = 1;
    for (int i = 0; i < count; i++)
        max = rows[i].time_ns > max ? rows[i].time_ns : max;
    double bar_h = 18, left = 170, w = 420, top = 40;
    FILE *f = fopen(path, "w");
    if (!f) {
        free(rows);
        return -1;
    }
    fprintf(f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
            "font-family=\"sans-serif\" font-size=\"12\">\n"
            "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
            "<text x=\"10\" y=\"22\" font-size=\"15\">Time per routine family, %d PEs together "
            "(blue: moving data, orange: waiting, grey: other)</text>\n",
            left + w + 120, top + count * (bar_h + 4) + 20, n);
    for (int i = 0; i < count; i++) {
        const struct job_row *r = &rows[i];
        const char *colour = !strcmp(r->kind, "data")   ? "#3b75af"
                             : !strcmp(r->kind, "wait") ? "#ef8636"
                                                        : "#9a9a9a";
        double y = top + i * (bar_h + 4), len = w * (double)r->time_ns / (double)max;
        fprintf(f,
                "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n"
                "<rect x=\"%.0f\" y=\"%.1f\" width=\"%.1f\" height=\"%.0f\" fill=\"%s\"><title>%s: "
                "%" PRIu64 " calls, %.3f ms</title></rect>\n"
                "<text x=\"%.1f\" y=\"%.1f\">%.3f ms</text>\n",
                left - 8, y + 13, r->name, left, y, len > 0.5 ? len : 0.5, bar_h, colour, r->name,
                r->calls, r->time_ns / 1e6, left + len + 6, y + 13, r->time_ns / 1e6);
    }
    fprintf(f, "</svg>\n");
    free(rows);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad)
        return -1;
    return 0;
}

/* ---- traces ---- */

/* DIR/trace.pe<PE>.json opened, or NULL where it is missing or older
 * than SINCE (NULL: any age). */
static FILE *open_trace(const char *dir, int pe, const struct timespec *since)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/trace.pe%d.json", dir, pe);
    FILE *f = fopen(path, "r");
    struct stat st;
    if (f && since &&
        (fstat(fileno(f), &st) != 0 || st.st_mtim.tv_sec < since->tv_sec ||
         (st.st_mtim.tv_sec == since->tv_sec && st.st_mtim.tv_nsec < since->tv_nsec))) {
        fclose(f);
        return NULL;
    }
    return f;
}

int prof_merge_traces(const char *dir, int n_pes, const char *out, const struct timespec *since,
                      FILE *err)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", out);
    FILE *o = NULL;
    int merged = 0, missing = 0, first_missing = -1;
    bool first = true;
    char *line = NULL;
    size_t cap = 0;
    for (int pe = 0; pe < n_pes; pe++) {
        FILE *f = open_trace(dir, pe, since);
        if (!f) {
            if (!missing++)
                first_missing = pe;
            continue;
        }
        /* Opened at the first PE's file: no file, no trace.json. */
        if (!o) {
            o = fopen(tmp, "w");
            if (!o) {
                int e = errno;
                fclose(f);
                free(line);
                errno = e;
                return -1;
            }
            fprintf(o, "{\"traceEvents\":[\n");
        }
        merged++;
        ssize_t len;
        while ((len = getline(&line, &cap, f)) > 0) {
            /* Our files hold one event a line. */
            if (strncmp(line, "{\"name\"", 7) != 0)
                continue;
            while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == ','))
                line[--len] = '\0';
            fprintf(o, "%s%s", first ? "" : ",\n", line);
            first = false;
        }
        fclose(f);
    }
    free(line);
    if (!o)
        return 0;
    fprintf(o, "\n],\n\"displayTimeUnit\":\"ns\",\n\"otherData\":{\"oshm_pes\":%d,"
               "\"merged_pes\":%d}}\n", n_pes, merged);
    int bad = ferror(o);
    if (fclose(o) != 0 || bad || rename(tmp, out) != 0) {
        int e = errno;
        remove(tmp);
        errno = e;
        return -1;
    }
    if (missing && err)
        fprintf(err,
                "%s lacks %d PE%s (PE %d first): %s/trace.pe<N>.json not here (PEs on other "
                "hosts write their own, and a PE that ended before shmem_finalize none; copy "
                "them here and run oshm_prof merge %s)\n",
                out, missing, missing == 1 ? "" : "s", first_missing, dir, dir);
    return merged;
}

int prof_make_dir(const char *dir)
{
    char path[4096];
    if (snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    for (char *p = path + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            if (mkdir(path, 0777) != 0 && errno != EEXIST)
                return -1;
            *p = '/';
        }
    if (mkdir(path, 0777) != 0 && errno != EEXIST)
        return -1;
    struct stat st;
    if (stat(path, &st) != 0)
        return -1;
    if (!S_ISDIR(st.st_mode)) {
        errno = ENOTDIR;
        return -1;
    }
    return 0;
}
