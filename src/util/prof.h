/*
 * The built-in profiler's recording side (SHMEM_PROFILE; the report at
 * shmem_finalize is src/prof). Every routine of the API and of the device
 * is a call of one family (util/prof_table.h); while a profiler listens,
 * each call adds to its thread's counters (calls, bytes, time) and to the
 * communication matrix, and under SHMEM_PROFILE=trace becomes an event of
 * this PE's ring buffer.
 *
 * Cost while off: the hottest routines (RMA, AMOs, signals, quiet, fence,
 * barrier_all) test nothing new: oshm_state.fast (util/state.h), the word
 * their running check already loads, is false while a profiler listens,
 * and sends them to their slow path, which profiles. Every other routine
 * takes one branch on oshm_prof.active (OSHM_PROFILED).
 *
 * Cost while on (summary): counting is plain additions to the calling
 * thread's own counters; a clock read costs more than a put over shared
 * memory, so a family whose calls take under SHMEM_PROFILE_SAMPLE's
 * threshold on average has one call in SHMEM_PROFILE_SAMPLE timed and its
 * total estimated from them; slower families have every call timed. A trace
 * times every call.
 */
#ifndef OSHM_UTIL_PROF_H
#define OSHM_UTIL_PROF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/prof_table.h"

enum oshm_prof_family {
#define OSHM_PROF_X_ID(id, kind, cls) OSHM_PROF_##id,
    OSHM_PROF_FAMILY_TABLE(OSHM_PROF_X_ID)
#undef OSHM_PROF_X_ID
    OSHM_PROF_NFAMILIES
};

enum oshm_prof_kind { OSHM_PROF_KIND_DATA, OSHM_PROF_KIND_WAIT, OSHM_PROF_KIND_OTHER, OSHM_PROF_KIND_SPAN };
/* The matrix's classes (comm.csv's class column). */
enum oshm_prof_class { OSHM_PROF_CLASS_PUT, OSHM_PROF_CLASS_GET, OSHM_PROF_CLASS_AMO,
                       OSHM_PROF_CLASS_SIGNAL, OSHM_PROF_NCLASSES };
/* Backends a matrix row tells apart: hcomm's indices (HCOMM_MAX_BACKENDS). */
#define OSHM_PROF_MAX_BACKENDS 4

/* SHMEM_PROFILE's choices, in their order. */
enum oshm_prof_mode { OSHM_PROF_OFF, OSHM_PROF_SUMMARY, OSHM_PROF_TRACE };

struct oshm_prof {
    /* A profiler listens: the mode is on and shmem_pcontrol has not paused
     * it. The word OSHM_PROFILED tests. */
    bool active;
    enum oshm_prof_mode mode; /* for this life of the library */
};
extern struct oshm_prof oshm_prof;

extern const char *const oshm_prof_family_name[OSHM_PROF_NFAMILIES];
extern const enum oshm_prof_kind oshm_prof_family_kind[OSHM_PROF_NFAMILIES];
extern const char *const oshm_prof_class_name[OSHM_PROF_NCLASSES];

/* The trace track of the calling thread when it is not a plain host
 * thread: a device kernel thread's (OSHM_PROF_DEVICE_TRACK), set by the
 * device for the thread's life; -1 otherwise. */
extern _Thread_local int oshm_prof_track __attribute__((tls_model("initial-exec")));
#define OSHM_PROF_DEVICE_TRACK_BASE (1 << 20)
#define OSHM_PROF_DEVICE_TRACK(block, thread) \
    (OSHM_PROF_DEVICE_TRACK_BASE + (int)(block) * 1024 + (int)(thread))

/* One call being profiled. */
struct oshm_prof_span {
    struct oshm_prof_thread *thread;
    enum oshm_prof_family family;
    bool inner; /* inside another call of this thread: not a call of its own */
    bool exact; /* timed one by one, not a sample */
    bool timed;
    uint64_t t0;
};

void oshm_prof_begin(struct oshm_prof_span *s, enum oshm_prof_family family);
/* The call of ROUTINE ended; it moved BYTES, to world PE PE (-1: none)
 * through hcomm backend RMA_BACKEND (PUT and GET classes) or AMO_BACKEND
 * (AMO and SIGNAL). */
void oshm_prof_end(const struct oshm_prof_span *s, const char *routine, size_t bytes, int pe,
                   int rma_backend, int amo_backend);

/* The cheap start of a leaf call (one that makes no other profiled call):
 * counts the call now, to world PE PE (-1: none), unless it is one to
 * time, which it leaves to begin and end (false). A call inside another
 * counts for nothing (true). */
bool oshm_prof_count(enum oshm_prof_family family, size_t bytes, int pe, int rma_backend,
                     int amo_backend);

/* STMT as one call of FAMILY: profiled while a profiler listens. BYTES, PE
 * and the backends are evaluated after STMT, which may set them. */
#define OSHM_PROFILED(FAMILY, ROUTINE, BYTES, PE, RMA_BACKEND, AMO_BACKEND, STMT)             \
    do {                                                                                      \
        if (__builtin_expect(oshm_prof.active, 0)) {                                          \
            struct oshm_prof_span oshm_prof_span_;                                            \
            oshm_prof_begin(&oshm_prof_span_, FAMILY);                                        \
            STMT;                                                                             \
            oshm_prof_end(&oshm_prof_span_, ROUTINE, BYTES, PE, RMA_BACKEND, AMO_BACKEND);    \
        } else {                                                                              \
            STMT;                                                                             \
        }                                                                                     \
    } while (0)
/* The same for a call that reaches no PE. */
#define OSHM_PROFILED_LOCAL(FAMILY, ROUTINE, BYTES, STMT) \
    OSHM_PROFILED(FAMILY, ROUTINE, BYTES, -1, 0, 0, STMT)

/* CLOCK_MONOTONIC in ns (shmem_init's start, before the profiler is set). */
uint64_t oshm_prof_clock_ns(void);

/* ---- life (core/init.c, shmem_pcontrol, src/prof) ---- */

/* After start-up, with the environment read: sets the profiler up for
 * this life of the library when SHMEM_PROFILE asks for one, recording the
 * init that started at INIT_BEGIN_NS as its first call. */
void oshm_prof_start(int my_pe, int n_pes, uint64_t init_begin_ns);
/* shmem_pcontrol: LISTEN false pauses the profiler, true resumes it. */
void oshm_prof_listen(bool listen);
/* At finalize, before the report: nothing is recorded from now on. */
void oshm_prof_stop(void);
/* After the report: releases everything. */
void oshm_prof_release(void);

/* ---- what the report reads (after oshm_prof_stop) ---- */

struct oshm_prof_total {
    uint64_t calls, bytes;
    uint64_t timed;   /* calls whose time was measured */
    uint64_t time_ns; /* all calls' time: measured, or estimated from the timed ones */
    uint64_t max_ns;  /* the longest timed call */
};
/* This PE's totals, every thread's together. */
void oshm_prof_totals(struct oshm_prof_total totals[OSHM_PROF_NFAMILIES]);

/* This PE's matrix, every thread's together: FN for each cell with calls. */
void oshm_prof_cells(void (*fn)(void *arg, int dst, int backend, int cls, uint64_t ops,
                                uint64_t bytes),
                     void *arg);

struct oshm_prof_event {
    uint64_t start_ns, dur_ns; /* CLOCK_MONOTONIC */
    const char *routine;
    uint64_t bytes;
    int32_t pe; /* -1: none */
    int32_t track;
    uint32_t family;
};
/* This PE's trace events in a new array (free() it), by start, the outer
 * of two that start together first; *DROPPED: the older ones the ring
 * overwrote. */
size_t oshm_prof_events(struct oshm_prof_event **events, uint64_t *dropped);

/* Life of this PE in the library's hands: init's end to oshm_prof_stop. */
uint64_t oshm_prof_run_ns(void);
/* When shmem_init began and ended (CLOCK_MONOTONIC). */
void oshm_prof_init_times(uint64_t *begin_ns, uint64_t *end_ns);
/* The sampling period in effect (SHMEM_PROFILE_SAMPLE). */
unsigned long oshm_prof_sample(void);

#endif
