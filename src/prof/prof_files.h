/*
 * The profile's files and what is computed from them, shared by the
 * library's report at shmem_finalize (prof/report.c) and by oshm_prof,
 * which reads a profile directory again. Plain C and libc only: oshm_prof
 * compiles this file without the library.
 *
 * A profile directory holds
 *   pe<N>.csv        one PE's rows: "# oshm-profile pe=N npes=.. host=..
 *                    run_ns=.. sample=.. events=.. dropped=..", then
 *                    routine,kind,calls,bytes,timed,time_ns,max_ns
 *   summary.txt      the job-wide table PE 0 printed
 *   comm.csv         src,dst,backend,class,ops,bytes: the communication
 *                    matrix, one line per pair, backend and class with calls
 *   comm.svg         the matrix as a heat map, a panel per backend
 *   trace.pe<N>.json one PE's timeline; trace.json: every PE's, merged
 */
#ifndef OSHM_PROF_FILES_H
#define OSHM_PROF_FILES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

/* One routine family on one PE. */
struct prof_row {
    char name[32];
    char kind[8]; /* data, wait, other, span */
    uint64_t calls, bytes;
    uint64_t timed;   /* calls timed; fewer than calls: time_ns is an estimate */
    uint64_t time_ns; /* every call's together */
    uint64_t max_ns;
};

struct prof_pe {
    int pe, n_pes;
    char host[64];
    uint64_t run_ns; /* init's end to finalize */
    unsigned long sample;
    uint64_t events, dropped; /* trace events kept and overwritten */
    int nrows;
    struct prof_row *rows;
};

/* One cell of the communication matrix. */
struct prof_cell {
    int src, dst;
    char backend[16];
    char cls[8]; /* put, get, amo, signal */
    uint64_t ops, bytes;
};

/* 0, or -1 with errno set. */
int prof_write_pe(const char *path, const struct prof_pe *pe);
/* 0, or -1 with a reason in WHY. */
int prof_read_pe(const char *path, struct prof_pe *pe, char *why, size_t whylen);
void prof_pe_free(struct prof_pe *pe);

/* Every pe<N>.csv of DIR, in PE order, into a new array (prof_pes_free).
 * The count, or -1 with a reason in WHY. */
int prof_read_dir(const char *dir, struct prof_pe **pes, char *why, size_t whylen);
void prof_pes_free(struct prof_pe *pes, int n);

/* The job-wide table of N PEs' rows. */
void prof_print_summary(FILE *f, const struct prof_pe *pes, int n);
/* What changed from run A to run B, routine by routine. */
void prof_print_compare(FILE *f, const char *name_a, const struct prof_pe *a, int na,
                        const char *name_b, const struct prof_pe *b, int nb);

int prof_write_cells(const char *path, const struct prof_cell *cells, size_t n);
/* The count, or -1 with a reason in WHY. */
long prof_read_cells(const char *path, struct prof_cell **cells, char *why, size_t whylen);
/* The matrix of N_PES PEs as an SVG heat map of bytes. 0, or -1 with errno. */
int prof_write_heatmap(const char *path, const struct prof_cell *cells, size_t n, int n_pes);
/* Time per routine family, every PE's together, as an SVG bar chart. */
int prof_write_time_chart(const char *path, const struct prof_pe *pes, int n);

/* Merges DIR/trace.pe<N>.json of PEs 0..N_PES-1 into OUT; the PEs whose
 * file is missing, or older than SINCE (NULL: any age; oshrun's: a file
 * from an earlier run), are said on ERR. The PEs merged (0: no file, and
 * OUT is not written), or -1 with errno. */
int prof_merge_traces(const char *dir, int n_pes, const char *out, const struct timespec *since,
                      FILE *err);

/* mkdir -p. 0, or -1 with errno. */
int prof_make_dir(const char *dir);

#endif
