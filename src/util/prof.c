/*
 * The profiler's recording (util/prof.h): per-thread counters, the matrix,
 * the trace ring, and the clock.
 */
#include "util/prof.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/clock.h"
#include "util/env.h"
#include "util/log.h"
#include "util/state.h"

struct oshm_prof oshm_prof;
_Thread_local int oshm_prof_track __attribute__((tls_model("initial-exec"))) = -1;

const char *const oshm_prof_family_name[OSHM_PROF_NFAMILIES] = {
#define OSHM_PROF_X_NAME(id, kind, cls) #id,
    OSHM_PROF_FAMILY_TABLE(OSHM_PROF_X_NAME)
#undef OSHM_PROF_X_NAME
};
const enum oshm_prof_kind oshm_prof_family_kind[OSHM_PROF_NFAMILIES] = {
#define OSHM_PROF_X_KIND(id, kind, cls) OSHM_PROF_KIND_##kind,
    OSHM_PROF_FAMILY_TABLE(OSHM_PROF_X_KIND)
#undef OSHM_PROF_X_KIND
};
const char *const oshm_prof_class_name[OSHM_PROF_NCLASSES] = {"put", "get", "amo", "signal"};

#if UINTPTR_MAX == UINT64_MAX
_Static_assert(sizeof(struct oshm_prof_event) == 48, "SHMEM_PROFILE_EVENTS says 48 bytes an event");
#endif

const uint8_t oshm_prof_family_route[OSHM_PROF_NFAMILIES] = {
#define OSHM_PROF_X_ROUTE(id, kind, cls) OSHM_PROF_ROUTE_##cls,
    OSHM_PROF_FAMILY_TABLE(OSHM_PROF_X_ROUTE)
#undef OSHM_PROF_X_ROUTE
};
/* The depth a call adds: 1, but 0 for SPAN families, whose calls hold
 * others. */
#define NESTS_DATA 1
#define NESTS_WAIT 1
#define NESTS_OTHER 1
#define NESTS_SPAN 0
/* Sampling (struct oshm_prof_slot): samples taken at a period before it
 * doubles, and the longest period. */
#define SAMPLES_PER_PERIOD 1024u
#define MAX_PERIOD 65536u
static const uint8_t family_nests[OSHM_PROF_NFAMILIES] = {
#define OSHM_PROF_X_NESTS(id, kind, cls) NESTS_##kind,
    OSHM_PROF_FAMILY_TABLE(OSHM_PROF_X_NESTS)
#undef OSHM_PROF_X_NESTS
};

static struct {
    int my_pe, n_pes;
    uint32_t sample;     /* SHMEM_PROFILE_SAMPLE */
    uint64_t every_ticks; /* SHMEM_PROFILE_EVERY */
    /* ticks -> ns: ns = ns0 + (t - tick0) * ns_per_tick */
    bool tsc;
    uint64_t tick0, ns0;
    double ns_per_tick;
    uint64_t init_begin_ns, run_begin_ns, run_end_ns;
    pthread_mutex_t lock; /* threads */
    struct oshm_prof_thread *threads;
    int next_track;
    pthread_key_t exit_key;
    bool key_made;
    /* the trace ring */
    struct oshm_prof_event *ring;
    uint64_t ring_mask;
    _Atomic uint64_t ring_head;
} p = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* What oshm_prof_self points to before a thread's first call: no cells,
 * which sends the call to thread_attach (the hot test is one word fewer). */
static struct oshm_prof_thread no_thread;
_Thread_local struct oshm_prof_thread *oshm_prof_self
    __attribute__((tls_model("initial-exec"))) = &no_thread;
_Thread_local struct oshm_prof_thread *oshm_prof_leaf_self
    __attribute__((tls_model("initial-exec"))) = &no_thread;

/* ---- clock ---- */

uint64_t oshm_prof_clock_ns(void) { return oshm_clock_ns(); }

/* The time stamp counter where it ticks at one rate on every core and
 * never stops (a third of clock_gettime's cost here); else the clock. */
static inline uint64_t ticks(void)
{
#ifdef OSHM_CLOCK_HAVE_TSC
    if (p.tsc)
        return oshm_ticks();
#endif
    return oshm_prof_clock_ns();
}

static bool tsc_usable(void)
{
#ifdef OSHM_CLOCK_HAVE_TSC
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return false;
    char line[4096];
    bool constant = false, nonstop = false;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "flags", 5) != 0)
            continue;
        constant = strstr(line, " constant_tsc") != NULL;
        nonstop = strstr(line, " nonstop_tsc") != NULL;
        break;
    }
    fclose(f);
    return constant && nonstop;
#else
    return false;
#endif
}

/* The tick rate against the clock over [tick0, now]; a first guess from a
 * short wait at start. */
static void calibrate(void)
{
    uint64_t t = ticks(), ns = oshm_prof_clock_ns();
    if (p.tsc && t > p.tick0)
        p.ns_per_tick = (double)(ns - p.ns0) / (double)(t - p.tick0);
}

static uint64_t ticks_to_ns(uint64_t t)
{
    return p.ns0 + (uint64_t)((double)(int64_t)(t - p.tick0) * p.ns_per_tick);
}

static uint64_t ticks_to_dur_ns(uint64_t t) { return (uint64_t)((double)t * p.ns_per_tick); }

/* ---- threads ---- */

/* At a thread's end (its _Thread_local words still readable): its block is
 * free for the next new thread, its counts kept for the report. */
static void thread_ended(void *arg)
{
    struct oshm_prof_thread *t = arg;
    pthread_mutex_lock(&p.lock);
    t->free = true;
    pthread_mutex_unlock(&p.lock);
}

/* The calling thread's block for this life of the library: its own from an
 * earlier life, or a free one, or a new one; a new track each life. */
static __attribute__((noinline)) struct oshm_prof_thread *thread_attach(void)
{
    struct oshm_prof_thread *t = oshm_prof_self;
    pthread_mutex_lock(&p.lock);
    if (t == &no_thread) {
        for (t = p.threads; t && !t->free; t = t->next)
            ;
        if (t) {
            t->free = false;
        } else if ((t = calloc(1, sizeof *t)) != NULL) {
            t->next = p.threads;
            p.threads = t;
        }
    }
    if (t)
        t->track = p.next_track++; /* the counters are shared, never the track */
    pthread_mutex_unlock(&p.lock);
    if (t && !t->cells)
        t->cells =
            calloc((size_t)p.n_pes * OSHM_PROF_NCLASSES, sizeof *t->cells);
    if (!t || !t->cells)
        oshm_fatal("profile: out of memory for a thread's counters (%d PEs)", p.n_pes);
    if (p.key_made)
        pthread_setspecific(p.exit_key, t);
    oshm_prof_self = t;
    oshm_prof_leaf_self = t->depth == 0 ? t : &no_thread;
    return t;
}

/* ---- recording ---- */

void oshm_prof_begin(struct oshm_prof_span *s, enum oshm_prof_family family)
{
    struct oshm_prof_thread *t = oshm_prof_self;
    if (__builtin_expect(!t->cells, 0))
        t = thread_attach();
    s->thread = t;
    s->family = family;
    s->inner = t->depth != 0;
    if (__builtin_expect(s->inner, 0))
        return;
    if (family_nests[family]) {
        t->depth += family_nests[family];
        oshm_prof_leaf_self = &no_thread; /* the calls inside count for nothing */
    }
    struct oshm_prof_slot *sl = &t->slot[family];
    /* Most calls of a fast family: counted at the end, not timed. */
    if (__builtin_expect((sl->calls & sl->mask) != 0, 1)) {
        s->exact = s->timed = false;
        return;
    }
    s->exact = oshm_prof.mode == OSHM_PROF_TRACE || sl->every || sl->calls == 0;
    s->timed = true;
    s->t0 = ticks();
}

static void push_event(const struct oshm_prof_span *s, uint64_t dur, const char *routine,
                       size_t bytes, int pe)
{
    uint64_t i = atomic_fetch_add_explicit(&p.ring_head, 1, memory_order_relaxed);
    struct oshm_prof_event *e = &p.ring[i & p.ring_mask];
    /* Ticks for now; oshm_prof_events converts with the final rate. */
    *e = (struct oshm_prof_event){.start_ns = s->t0, .dur_ns = dur, .routine = routine,
                                  .bytes = bytes, .pe = pe, .family = s->family,
                                  .track = oshm_prof_track >= 0 ? oshm_prof_track
                                                                : s->thread->track};
}

bool oshm_prof_count(enum oshm_prof_family family, size_t bytes, int pe)
{
    struct oshm_prof_thread *t = oshm_prof_self;
    if (__builtin_expect(!t->cells, 0))
        t = thread_attach();
    if (__builtin_expect(t->depth != 0, 0))
        return true;
    if ((t->slot[family].calls & t->slot[family].mask) == 0)
        return false;
    oshm_prof_add(t, family, oshm_prof_family_route[family], bytes, pe);
    return true;
}

void oshm_prof_end(const struct oshm_prof_span *s, const char *routine, size_t bytes, int pe)
{
    if (__builtin_expect(s->inner, 0))
        return;
    uint64_t t1 = s->timed ? ticks() : 0;
    enum oshm_prof_family f = s->family;
    struct oshm_prof_thread *t = s->thread;
    struct oshm_prof_slot *sl = &t->slot[f];
    if (family_nests[f]) {
        t->depth -= family_nests[f];
        if (t->depth == 0)
            oshm_prof_leaf_self = t;
    }
    oshm_prof_add(t, f, oshm_prof_family_route[f], bytes, pe);
    if (!s->timed)
        return;
    uint64_t d = t1 - s->t0;
    if (oshm_prof.mode == OSHM_PROF_TRACE)
        push_event(s, d, routine, bytes, pe);
    sl->timed++;
    if (!sl->period)
        sl->period = p.sample;
    if (s->exact) {
        sl->exact += d;
    } else {
        sl->s_timed++;
        sl->s_ticks += d;
        sl->s_wticks += (double)d * sl->period;
        sl->s_weight += sl->period;
        /* SHMEM_PROFILE_SAMPLE=1 times every call, always. */
        if (++sl->level >= SAMPLES_PER_PERIOD && sl->period > 1 && sl->period < MAX_PERIOD) {
            sl->period *= 2;
            sl->level = 0;
        }
    }
    if (d > sl->max)
        sl->max = d;
    /* Re-judged at each timed call: a slow first call must not leave a
     * fast family timed at every call. A trace times every call, always. */
    sl->every = sl->exact + sl->s_ticks > p.every_ticks * sl->timed;
    sl->mask = sl->every || oshm_prof.mode == OSHM_PROF_TRACE ? 0 : sl->period - 1u;
}

/* ---- life ---- */

void oshm_prof_start(int my_pe, int n_pes, uint64_t init_begin_ns)
{
    uint64_t init_end_ns = oshm_prof_clock_ns();
    oshm_prof.mode = (enum oshm_prof_mode)oshm_env.profile;
    if (oshm_prof.mode == OSHM_PROF_OFF)
        return;
    p.my_pe = my_pe;
    p.n_pes = n_pes;
    /* A power of two: the hot routines test the call count's low bits. */
    p.sample = 1;
    while (p.sample < oshm_env.profile_sample && p.sample < MAX_PERIOD)
        p.sample *= 2;
    p.next_track = 0;
    p.tsc = tsc_usable();
    p.ns0 = oshm_prof_clock_ns();
    p.tick0 = ticks();
    p.ns_per_tick = 1.0;
    if (p.tsc) {
        /* A first rate, for SHMEM_PROFILE_EVERY until finalize measures it
         * over the whole run: 200 us of waiting, under profiling only. */
        while (oshm_prof_clock_ns() - p.ns0 < 200000)
            ;
        calibrate();
    }
    p.every_ticks = (uint64_t)((double)oshm_env.profile_every / p.ns_per_tick);
    if (!p.key_made && pthread_key_create(&p.exit_key, thread_ended) == 0)
        p.key_made = true;
    if (oshm_prof.mode == OSHM_PROF_TRACE) {
        uint64_t n = 1;
        while (n < oshm_env.profile_events)
            n <<= 1;
        p.ring = malloc(n * sizeof *p.ring);
        if (!p.ring)
            oshm_fatal("profile: out of memory for %llu trace events (SHMEM_PROFILE_EVENTS)",
                       (unsigned long long)n);
        p.ring_mask = n - 1;
        atomic_store(&p.ring_head, 0);
    }
    /* The first call: init, timed in ns before the profiler existed. */
    struct oshm_prof_thread *t = thread_attach();
    struct oshm_prof_slot *sl = &t->slot[OSHM_PROF_init];
    uint64_t dur = init_end_ns - init_begin_ns;
    uint64_t dur_ticks = (uint64_t)((double)dur / p.ns_per_tick);
    sl->calls = sl->timed = 1;
    sl->exact = sl->max = dur_ticks;
    if (oshm_prof.mode == OSHM_PROF_TRACE) {
        struct oshm_prof_span s = {.thread = t, .family = OSHM_PROF_init,
                                   .t0 = p.tick0 - (uint64_t)((double)(p.ns0 - init_begin_ns) /
                                                              p.ns_per_tick)};
        push_event(&s, dur_ticks, "shmem_init", 0, -1);
    }
    p.init_begin_ns = init_begin_ns;
    p.run_begin_ns = init_end_ns;
    oshm_prof.active = true;
    oshm_state_update();
}

void oshm_prof_listen(bool listen)
{
    if (oshm_prof.mode == OSHM_PROF_OFF)
        return;
    __atomic_store_n(&oshm_prof.active, listen, __ATOMIC_RELAXED);
    oshm_state_update();
}

void oshm_prof_stop(void)
{
    if (oshm_prof.mode == OSHM_PROF_OFF)
        return;
    oshm_prof.active = false;
    oshm_state_update();
    /* No call counts inline from now on (oshm_prof_leaf): the library is
     * still running, every call takes its fast path until finalize ends,
     * and then its slow path, which says the library is not running. */
    pthread_mutex_lock(&p.lock);
    for (struct oshm_prof_thread *t = p.threads; t; t = t->next)
        for (int f = 0; f < OSHM_PROF_NFAMILIES; f++)
            t->slot[f].mask = 0;
    pthread_mutex_unlock(&p.lock);
    p.run_end_ns = oshm_prof_clock_ns();
    calibrate();
}

void oshm_prof_release(void)
{
    /* The blocks stay, each with its thread, for a later life: emptied,
     * and without cells, which sends each thread's next call to
     * thread_attach. */
    pthread_mutex_lock(&p.lock);
    for (struct oshm_prof_thread *t = p.threads; t; t = t->next) {
        free(t->cells); /* the next life's PE count may differ */
        t->cells = NULL;
        memset(t->slot, 0, sizeof t->slot);
        t->depth = 0;
    }
    pthread_mutex_unlock(&p.lock);
    free(p.ring);
    p.ring = NULL;
    oshm_prof.mode = OSHM_PROF_OFF;
    oshm_prof.active = false;
    oshm_state_update();
}

/* ---- reading ---- */

void oshm_prof_totals(struct oshm_prof_total totals[OSHM_PROF_NFAMILIES])
{
    memset(totals, 0, sizeof *totals * OSHM_PROF_NFAMILIES);
    for (int f = 0; f < OSHM_PROF_NFAMILIES; f++) {
        uint64_t exact = 0, s_timed = 0, max = 0;
        double s_wticks = 0, s_weight = 0;
        struct oshm_prof_total *o = &totals[f];
        for (struct oshm_prof_thread *t = p.threads; t; t = t->next) {
            const struct oshm_prof_slot *sl = &t->slot[f];
            o->calls += sl->calls;
            o->bytes += sl->bytes;
            o->timed += sl->timed;
            exact += sl->exact;
            s_timed += sl->s_timed;
            s_wticks += sl->s_wticks;
            s_weight += sl->s_weight;
            if (sl->max > max)
                max = sl->max;
        }
        /* The calls not timed one by one are the sampled ones. */
        uint64_t s_calls = o->calls - (o->timed - s_timed);
        double ticks = (double)exact;
        if (s_weight > 0)
            ticks += s_wticks * (double)s_calls / s_weight;
        o->time_ns = ticks_to_dur_ns((uint64_t)ticks);
        o->max_ns = ticks_to_dur_ns(max);
    }
}

void oshm_prof_cells(void (*fn)(void *arg, int dst, int cls, uint64_t ops, uint64_t bytes),
                     void *arg)
{
    size_t n = (size_t)p.n_pes * OSHM_PROF_NCLASSES;
    for (size_t i = 0; i < n; i++) {
        uint64_t ops = 0, bytes = 0;
        for (struct oshm_prof_thread *t = p.threads; t; t = t->next)
            if (t->cells) {
                ops += t->cells[i].ops;
                bytes += t->cells[i].bytes;
            }
        if (ops)
            fn(arg, (int)(i / OSHM_PROF_NCLASSES), (int)(i % OSHM_PROF_NCLASSES), ops, bytes);
    }
}

static int by_start(const void *a, const void *b)
{
    const struct oshm_prof_event *x = a, *y = b;
    if (x->start_ns != y->start_ns)
        return x->start_ns < y->start_ns ? -1 : 1;
    /* The outer span first, so that a viewer nests the inner one in it. */
    if (x->dur_ns != y->dur_ns)
        return x->dur_ns > y->dur_ns ? -1 : 1;
    return 0;
}

size_t oshm_prof_events(struct oshm_prof_event **events, uint64_t *dropped)
{
    uint64_t head = atomic_load(&p.ring_head), size = p.ring ? p.ring_mask + 1 : 0;
    uint64_t n = head < size ? head : size;
    *dropped = head - n;
    *events = malloc((n ? n : 1) * sizeof **events);
    if (!*events) {
        *dropped = head;
        return 0;
    }
    for (uint64_t i = 0; i < n; i++) {
        struct oshm_prof_event e = p.ring[(head - n + i) & p.ring_mask];
        uint64_t end = ticks_to_ns(e.start_ns + e.dur_ns);
        e.start_ns = ticks_to_ns(e.start_ns);
        e.dur_ns = end - e.start_ns;
        (*events)[i] = e;
    }
    qsort(*events, n, sizeof **events, by_start);
    return n;
}

uint64_t oshm_prof_run_ns(void) { return p.run_end_ns - p.run_begin_ns; }

void oshm_prof_init_times(uint64_t *begin_ns, uint64_t *end_ns)
{
    *begin_ns = p.init_begin_ns;
    *end_ns = p.run_begin_ns;
}
unsigned long oshm_prof_sample(void) { return p.sample; }
