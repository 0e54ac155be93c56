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
 * thread's own counters, inline in the hot routines (oshm_prof_leaf): no
 * function call, lock, atomic or clock read. A clock read costs more than
 * a put over shared memory, so a family whose calls take under
 * SHMEM_PROFILE_EVERY on average has one call in SHMEM_PROFILE_SAMPLE timed
 * and its total estimated from them; slower families have every call
 * timed. A trace times every call.
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
/* Backends the report tells apart (hcomm's indices, HCOMM_MAX_BACKENDS).
 * The matrix records a cell per PE and class: a peer's backends are fixed
 * at start-up, so the report reads them from hcomm then. */
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

/* One family on one thread. Its calls fall in two sets: those timed one
 * by one (the first, which pays for cold caches and connections, and every
 * call while the family's average is above SHMEM_PROFILE_EVERY), and the
 * sampled ones, of which one in PERIOD is timed. PERIOD starts at
 * SHMEM_PROFILE_SAMPLE and doubles after every 1,024 samples (up to
 * 65,536; never from 1, which times every call), so that a long run's clock reads vanish beside its calls and
 * its estimate still rests on at least 1,024 of them; each sample weighs
 * the calls it stands for. The family's time is the first set's plus the
 * sampled calls' count times the weighted mean of their samples. The words
 * a counted call reads and writes come first. */
struct oshm_prof_slot {
    uint64_t calls, bytes;
    /* The call whose number (calls before it) has none of these bits set
     * is timed: PERIOD - 1 while sampling, 0 while every call is timed (the
     * first, under every, in a trace, and while no summary profiler
     * listens). */
    uint64_t mask;
    uint32_t period;   /* 0 until the first call */
    uint32_t level;    /* samples taken at this period */
    bool every;        /* time every call: the average is above SHMEM_PROFILE_EVERY */
    uint64_t timed, max;
    uint64_t exact;    /* ticks of the calls timed one by one */
    /* The sampled calls timed and their ticks; the sampled calls are the
     * calls less those timed one by one (timed - s_timed). Weighted: each
     * sample's ticks times its period, and the periods summed. */
    uint64_t s_timed, s_ticks;
    double s_wticks, s_weight;
};

/* One cell of the communication matrix. */
struct oshm_prof_cell {
    uint64_t ops, bytes;
};

/* A thread's counters: only the thread writes them, and the report sums
 * every thread's at finalize. A thread keeps its block for its life (over
 * the library's lives too, emptied at each finalize), then leaves it to
 * the next new thread, so that the blocks are as many as the threads that
 * ran at once; each thread has a trace track of its own. */
struct oshm_prof_thread {
    /* n_pes x OSHM_PROF_NCLASSES, NULL between
     * the library's lives: the pages a thread never reaches are never
     * touched. */
    struct oshm_prof_cell *cells;
    /* Calls open on this thread that hold no others (every kind but SPAN):
     * a routine that another calls inside the library is part of the
     * outer call, never a call of its own. */
    int depth;
    int track;
    bool free;
    struct oshm_prof_thread *next;
    struct oshm_prof_slot slot[OSHM_PROF_NFAMILIES];
};

/* The calling thread's block; until its first profiled call in this life
 * of the library, one without cells, never written. */
extern _Thread_local struct oshm_prof_thread *oshm_prof_self
    __attribute__((tls_model("initial-exec")));
/* The block the hot routines count in (oshm_prof_leaf): the thread's own
 * while it may count a call inline, else one whose every mask is 0, never
 * written (before the thread's first call of this life, inside another
 * call of the thread). With every mask 0 whenever no summary profiler
 * listens (a trace times every call; oshm_prof_stop and _release zero
 * them), a family's mask and calls are all that test reads. */
extern _Thread_local struct oshm_prof_thread *oshm_prof_leaf_self
    __attribute__((tls_model("initial-exec")));

/* Where a family's calls go in the matrix (its CLASS in util/prof_table.h),
 * one byte: the class + 1 (0: none) in the low bits, OSHM_PROF_ROUTE_THEN_SIGNAL
 * where a signal
 * follows its data (PUT_SIGNAL counts as PUT, and its signal as SIGNAL).
 * The hot routines name theirs, a constant; the rest read the table. */
#define OSHM_PROF_ROUTE_CLASS 0x7u
#define OSHM_PROF_ROUTE_THEN_SIGNAL 0x10u
#define OSHM_PROF_ROUTE_NONE 0u
#define OSHM_PROF_ROUTE_PUT (OSHM_PROF_CLASS_PUT + 1u)
#define OSHM_PROF_ROUTE_GET (OSHM_PROF_CLASS_GET + 1u)
#define OSHM_PROF_ROUTE_AMO (OSHM_PROF_CLASS_AMO + 1u)
#define OSHM_PROF_ROUTE_SIGNAL (OSHM_PROF_CLASS_SIGNAL + 1u)
#define OSHM_PROF_ROUTE_PUT_SIGNAL (OSHM_PROF_CLASS_PUT + 1u + OSHM_PROF_ROUTE_THEN_SIGNAL)
extern const uint8_t oshm_prof_family_route[OSHM_PROF_NFAMILIES];

_Static_assert(OSHM_PROF_NCLASSES == 4, "OSHM_PROF_CELL indexes with a shift");
#define OSHM_PROF_CELL(pe, cls) (((size_t)(pe) << 2) | (unsigned)(cls))

/* The matrix's part of a call whose ROUTE moved BYTES to world PE PE
 * (-1: none), added to T's cells. */
static inline __attribute__((always_inline)) void
oshm_prof_add_cells(struct oshm_prof_thread *t, unsigned route, size_t bytes, int pe)
{
    unsigned cls = route & OSHM_PROF_ROUTE_CLASS;
    if (pe < 0 || cls == 0)
        return;
    struct oshm_prof_cell *c = &t->cells[OSHM_PROF_CELL(pe, cls - 1)];
    c->ops++;
    c->bytes += bytes;
    if (route & OSHM_PROF_ROUTE_THEN_SIGNAL) {
        c = &t->cells[OSHM_PROF_CELL(pe, OSHM_PROF_CLASS_SIGNAL)];
        c->ops++;
        c->bytes += sizeof(uint64_t);
    }
}

/* A call of FAMILY (whose route is ROUTE), moving BYTES to world PE PE
 * (-1: none), added to T's counters and matrix. */
static inline __attribute__((always_inline)) void
oshm_prof_add(struct oshm_prof_thread *t, enum oshm_prof_family family, unsigned route,
              size_t bytes, int pe)
{
    struct oshm_prof_slot *sl = &t->slot[family];
    sl->calls++;
    sl->bytes += bytes;
    oshm_prof_add_cells(t, route, bytes, pe);
}

/* The counting of a leaf call (one that makes no other profiled call),
 * inline in the hot routines' unlikely branch (oshm_fast false): counts
 * this call of FAMILY, moving BYTES, in the calling thread's block and
 * returns it, when the call is one to count without timing it (the
 * routine adds the matrix cell with oshm_prof_add_cells once it knows its
 * PE); else NULL, counting nothing, which sends the call to the slow path:
 * no summary profiler listens (none, a trace, the library not running),
 * the thread has no block in this life yet, the call is inside another, or
 * it is one to time (oshm_prof_count, begin and end). A thread-local load,
 * a test and two additions: no lock, no atomic, no clock. */
static inline __attribute__((always_inline)) struct oshm_prof_thread *
oshm_prof_leaf(enum oshm_prof_family family, size_t bytes)
{
    struct oshm_prof_thread *t = oshm_prof_leaf_self;
    struct oshm_prof_slot *sl = &t->slot[family];
    uint64_t calls = sl->calls;
    if (__builtin_expect((calls & sl->mask) == 0, 0))
        return NULL;
    sl->calls = calls + 1;
    sl->bytes += bytes;
    return t;
}

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
/* The call of ROUTINE ended; it moved BYTES, to world PE PE (-1: none). */
void oshm_prof_end(const struct oshm_prof_span *s, const char *routine, size_t bytes, int pe);

/* The start of a leaf call that oshm_prof_leaf did not take: attaches the
 * thread, and counts the call now unless it is one to time, which it
 * leaves to begin and end (false). A call inside another counts for
 * nothing (true). */
bool oshm_prof_count(enum oshm_prof_family family, size_t bytes, int pe);

/* STMT as one call of FAMILY: profiled while a profiler listens. BYTES and
 * PE are evaluated after STMT, which may set them. */
#define OSHM_PROFILED(FAMILY, ROUTINE, BYTES, PE, STMT)                                       \
    do {                                                                                      \
        if (__builtin_expect(oshm_prof.active, 0)) {                                          \
            struct oshm_prof_span oshm_prof_span_;                                            \
            oshm_prof_begin(&oshm_prof_span_, FAMILY);                                        \
            STMT;                                                                             \
            oshm_prof_end(&oshm_prof_span_, ROUTINE, BYTES, PE);                              \
        } else {                                                                              \
            STMT;                                                                             \
        }                                                                                     \
    } while (0)
/* The same for a call that reaches no PE. */
#define OSHM_PROFILED_LOCAL(FAMILY, ROUTINE, BYTES, STMT) \
    OSHM_PROFILED(FAMILY, ROUTINE, BYTES, -1, STMT)

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

/* This PE's matrix, every thread's together: FN for each cell with calls
 * (CLS: enum oshm_prof_class). */
void oshm_prof_cells(void (*fn)(void *arg, int dst, int cls, uint64_t ops, uint64_t bytes),
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
/* The first sampling period (SHMEM_PROFILE_SAMPLE rounded up to a power
 * of two). */
unsigned long oshm_prof_sample(void);

#endif
