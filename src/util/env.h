/*
 * Environment variables, read once at start-up from the table of
 * util/env_table.h into typed fields of oshm_env.
 */
#ifndef OSHM_UTIL_ENV_H
#define OSHM_UTIL_ENV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "util/env_table.h"

/* SHMEM_TRANSPORT: how PEs reach each other (the order of its choices). */
enum oshm_transport_choice {
    OSHM_TRANSPORT_AUTO, /* shared memory within a node, UCX (else libfabric) between nodes */
    OSHM_TRANSPORT_SHM,  /* shared memory only: the job must fit on one node */
    OSHM_TRANSPORT_UCX,  /* UCX to every other PE, even on the same node */
    OSHM_TRANSPORT_OFI,  /* libfabric to every other PE, even on the same node */
};

/* SHMEM_REMOTE_TRANSPORT: the backend between nodes under SHMEM_TRANSPORT=auto. */
enum oshm_remote_transport_choice {
    OSHM_REMOTE_AUTO, /* UCX, unless only libfabric has a fabric (transport/choose.h) */
    OSHM_REMOTE_UCX,
    OSHM_REMOTE_OFI,
};

/* SHMEM_COLL_FCOLLECT (the order of its choices). */
enum oshm_coll_fcollect_choice {
    OSHM_FCOLLECT_AUTO,
    OSHM_FCOLLECT_DIRECT, /* every PE puts its block to every PE */
    OSHM_FCOLLECT_RDBL,   /* recursive doubling (power-of-two sets; others: Bruck) */
    OSHM_FCOLLECT_BRUCK,  /* Bruck's log-step allgather, any PE count */
    OSHM_FCOLLECT_RING,   /* each PE passes blocks on to the next, n - 1 steps */
};

/* SHMEM_COLL_REDUCE (the order of its choices). */
enum oshm_coll_reduce_choice {
    OSHM_REDUCE_AUTO,
    OSHM_REDUCE_GROUPED, /* small vectors in groups of about sqrt(n) PEs */
};

enum oshm_env_type {
    OSHM_ENV_TYPE_FLAG,
    OSHM_ENV_TYPE_BOOL,
    OSHM_ENV_TYPE_SIZE,
    OSHM_ENV_TYPE_UINT,
    OSHM_ENV_TYPE_CHOICE,
    OSHM_ENV_TYPE_STRING,
};

#define OSHM_ENV_CTYPE_FLAG bool
#define OSHM_ENV_CTYPE_BOOL bool
#define OSHM_ENV_CTYPE_SIZE size_t
#define OSHM_ENV_CTYPE_UINT unsigned long
#define OSHM_ENV_CTYPE_CHOICE int
#define OSHM_ENV_CTYPE_STRING const char * /* NULL when unset or empty */

struct oshm_env {
#define OSHM_ENV_X_FIELD(name, field, type, ...) OSHM_ENV_CTYPE_##type field;
    OSHM_ENV_TABLE(OSHM_ENV_X_FIELD)
#undef OSHM_ENV_X_FIELD
};

extern struct oshm_env oshm_env;

/* One row of the table. */
struct oshm_env_var {
    const char *name;
    enum oshm_env_type type;
    const char *type_name; /* "size", "bool", ... */
    bool launch;           /* set by a launcher, not by people; never printed */
    const char *def;       /* "" when it has none */
    const char *accepted;
    const char *alias;     /* "" when it has none */
    const char *reader;
    const char *meaning;
    size_t offset;         /* of its field in struct oshm_env */
};

extern const struct oshm_env_var oshm_env_vars[OSHM_ENV_COUNT];

/* What one parse found, besides the values. */
struct oshm_env_result {
    struct oshm_env env;
    const char *value[OSHM_ENV_COUNT]; /* the text in effect: the environment's or the default */
    const char *from[OSHM_ENV_COUNT];  /* the variable it came from; NULL: the default */
    char error[512];  /* when the parse fails: names the variable, value, what is accepted */
    char notes[2048]; /* warnings, one a line: unknown names, deprecated names */
};

/* Parses the NAME=VALUE strings of ENVP (NULL-terminated) into R.
 * Returns 0, or -1 with R->error set. */
int oshm_env_parse(char *const *envp, struct oshm_env_result *r);

/* Reads the process environment into oshm_env; a malformed value is a
 * fatal error naming it. */
void oshm_env_read(void);
/* Prints the notes of oshm_env_read (unknown and deprecated names) as
 * warnings; one PE does, so that a job says each once. */
void oshm_env_warn_notes(void);
/* Prints the SHMEM_INFO table (people's variables, value, default, meaning). */
void oshm_env_print_info(FILE *out);

/* "1..4E" for SIZE; "a, b or c" for CHOICE... in words, for people. */
void oshm_env_describe_accepted(const struct oshm_env_var *v, char *buf, size_t len);
/* Levenshtein distance between two names (case-insensitive). */
size_t oshm_env_distance(const char *a, const char *b);
/* The known name (or deprecated alias) closest to NAME, or NULL if none is
 * close enough to be a likely misspelling. */
const char *oshm_env_closest(const char *name);

const char *oshm_transport_name(int t);

/* Parses "<number>[.<fraction>][kKmMgGtTpPeE][bB]" into bytes, rounding a
 * fraction of a byte up. Returns 0 on success, -1 on a malformed or
 * overflowing value. */
int oshm_parse_size(const char *text, size_t *bytes);
/* Parses a boolean word: 1, y, yes, true, on -> 1; 0, n, no, false, off -> 0;
 * anything else (or NULL) -> -1. Case-insensitive. */
int oshm_parse_bool_word(const char *text);
/* True unless the value is NULL, empty, or a false word (FLAG's rule). */
bool oshm_parse_bool(const char *text);

#endif
