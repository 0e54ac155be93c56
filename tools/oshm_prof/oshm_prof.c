/*
 * oshm_prof: reads a profile directory that SHMEM_PROFILE_DIR filled
 * (src/prof/prof_files.h) and prints the job's table again, compares two
 * runs, writes the charts, or merges the PEs' traces.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prof/prof_files.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: oshm_prof DIR                 the job's table again (every PE's pe<N>.csv)\n"
            "       oshm_prof compare DIR_A DIR_B which routines got faster or slower from A to B\n"
            "       oshm_prof chart DIR [OUT_DIR] comm.svg (bytes from PE to PE) and time.svg\n"
            "                                     (time per routine) from DIR's files\n"
            "       oshm_prof merge DIR           trace.json from DIR's trace.pe<N>.json\n"
            "DIR is the SHMEM_PROFILE_DIR of a run with SHMEM_PROFILE=summary or trace.\n");
}

static int fail(const char *why)
{
    fprintf(stderr, "oshm_prof: %s\n", why);
    return 1;
}

static int summary(const char *dir)
{
    struct prof_pe *pes;
    char why[512];
    int n = prof_read_dir(dir, &pes, why, sizeof why);
    if (n < 0)
        return fail(why);
    prof_print_summary(stdout, pes, n);
    prof_pes_free(pes, n);
    return 0;
}

static int compare(const char *a, const char *b)
{
    struct prof_pe *pa, *pb;
    char why[512];
    int na = prof_read_dir(a, &pa, why, sizeof why);
    if (na < 0)
        return fail(why);
    int nb = prof_read_dir(b, &pb, why, sizeof why);
    if (nb < 0) {
        prof_pes_free(pa, na);
        return fail(why);
    }
    prof_print_compare(stdout, a, pa, na, b, pb, nb);
    prof_pes_free(pa, na);
    prof_pes_free(pb, nb);
    return 0;
}

/* Says where a chart went, or why it did not (RC: its writer's). 1 if not. */
static int told(const char *path, int rc)
{
    if (rc != 0) {
        fprintf(stderr, "oshm_prof: cannot write %s: %s\n", path, strerror(errno));
        return 1;
    }
    printf("%s\n", path);
    return 0;
}

static int chart(const char *dir, const char *out)
{
    struct prof_pe *pes;
    char why[512], path[4096];
    int n = prof_read_dir(dir, &pes, why, sizeof why);
    if (n < 0)
        return fail(why);
    int n_pes = pes[0].n_pes > n ? pes[0].n_pes : n;
    struct prof_cell *cells;
    snprintf(path, sizeof path, "%s/comm.csv", dir);
    long nc = prof_read_cells(path, &cells, why, sizeof why);
    int rc = 0;
    if (nc < 0) {
        rc = fail(why);
    } else if (prof_make_dir(out) != 0) {
        fprintf(stderr, "oshm_prof: cannot make %s: %s\n", out, strerror(errno));
        rc = 1;
    } else {
        snprintf(path, sizeof path, "%s/comm.svg", out);
        rc |= told(path, prof_write_heatmap(path, cells, (size_t)nc, n_pes));
        snprintf(path, sizeof path, "%s/time.svg", out);
        rc |= told(path, prof_write_time_chart(path, pes, n));
    }
    free(cells);
    prof_pes_free(pes, n);
    return rc;
}

static int merge(const char *dir)
{
    struct prof_pe *pes;
    char why[512], path[4096];
    int n = prof_read_dir(dir, &pes, why, sizeof why);
    if (n < 0)
        return fail(why);
    int n_pes = pes[0].n_pes > n ? pes[0].n_pes : n;
    prof_pes_free(pes, n);
    snprintf(path, sizeof path, "%s/trace.json", dir);
    int merged = prof_merge_traces(dir, n_pes, path, NULL, stderr);
    if (merged < 0) {
        fprintf(stderr, "oshm_prof: cannot write %s: %s\n", path, strerror(errno));
        return 1;
    }
    if (merged == 0)
        return fail("no trace.pe<N>.json: was the run's SHMEM_PROFILE trace?");
    printf("%s: %d of %d PEs\n", path, merged, n_pes);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
        usage(stdout);
        return 0;
    }
    if (argc == 2 && argv[1][0] != '-')
        return summary(argv[1]);
    if (argc == 4 && !strcmp(argv[1], "compare"))
        return compare(argv[2], argv[3]);
    if ((argc == 3 || argc == 4) && !strcmp(argv[1], "chart"))
        return chart(argv[2], argc == 4 ? argv[3] : argv[2]);
    if (argc == 3 && !strcmp(argv[1], "merge"))
        return merge(argv[2]);
    usage(stderr);
    return 2;
}
