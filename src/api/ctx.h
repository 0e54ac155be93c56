/*
 * What a shmem_ctx_t points to, and the per-call work every context-taking
 * routine does: find the channel, turn a team PE number into a world one.
 */
#ifndef OSHM_API_CTX_H
#define OSHM_API_CTX_H

#include <shmem/shmem.h>

#include "hcomm/hcomm.h"
#include "team/team.h"
#include "util/prof.h"
#include "util/routine.h"
#include "util/state.h"

struct shmem_ctx_impl {
    struct hcomm_channel *channel;
    long options;
    shmem_team_t team;
    /* A session's hints (src/api/session.c): options OR-ed over the starts
     * since the last stop. */
    long session_options;
    bool in_session;
    struct shmem_ctx_impl *prev_live, *next_live; /* contexts the program created */
};

/* By the last shmem_finalize: destroys every context the program left. */
void oshm_ctx_fini(void);

_Noreturn void oshm_bad_ctx(const char *routine);
_Noreturn void oshm_bad_team_pe(shmem_ctx_t ctx, int pe, const char *routine);

static inline struct hcomm_channel *oshm_channel(shmem_ctx_t ctx, const char *routine)
{
    if (__builtin_expect(ctx == SHMEM_CTX_INVALID, 0))
        oshm_bad_ctx(routine);
    return ctx->channel;
}

/* Entry of a routine that reaches other PEs' memory (RMA, AMOs, signals):
 * the library must be running (one predictable branch on a global word),
 * the routine is recorded for the fault handler's message, and the
 * context's channel is returned. oshm_leave on the way out. */
static inline struct hcomm_channel *oshm_enter(shmem_ctx_t ctx, const char *routine)
{
    oshm_require_init(routine);
    oshm_routine_enter(routine);
    return oshm_channel(ctx, routine);
}

static inline void oshm_leave(void) { oshm_routine_leave(); }

/* A hot routine's work: inlined into its fast path and into its slow one. */
#define OSHM_ALWAYS_INLINE static inline __attribute__((always_inline))

/* oshm_enter for a routine that tested oshm_fast (util/state.h) instead of
 * the running state: its fast path knows the library runs. */
static inline struct hcomm_channel *oshm_enter_fast(shmem_ctx_t ctx, const char *routine)
{
    oshm_routine_enter(routine);
    return oshm_channel(ctx, routine);
}

/* A hot routine's work under a summary profiler (util/prof.h), in its
 * body: PROF, the calling thread's counters where the routine's unlikely
 * branch (oshm_fast false) counted this call inline (oshm_prof_leaf), gets
 * the call's matrix cell: ROUTE, BYTES to world PE WORLD, once the body has
 * checked CTX and PE and translated the PE (the fast path's work, done
 * once). NULL: nothing to add (the fast path, a constant there; the slow
 * path, which counts itself). */
OSHM_ALWAYS_INLINE void oshm_prof_body(struct oshm_prof_thread *prof, unsigned route, size_t bytes,
                                       int world)
{
    if (prof) {
        if (world < 0)
            __builtin_unreachable(); /* a team's PE, checked: one test fewer */
        oshm_prof_add_cells(prof, route, bytes, world);
    }
}

/* The slow path of a hot routine (oshm_fast false, and oshm_prof_leaf
 * NULL): the library is not running (a fatal error), or a profiler
 * listens and this call is one to time. STMT, the fast path's work, as one
 * call of FAMILY that reaches world PE WORLD (-1: none), evaluated after
 * the running check and before STMT. Such a call is a leaf (it makes no
 * other profiled call): oshm_prof_count counts it in one step unless it is
 * one to time, which is wrapped (util/prof.h). */
#define OSHM_SLOW_PATH(FAMILY, ROUTINE, BYTES, WORLD, STMT)                                        \
    do {                                                                                           \
        oshm_require_init(ROUTINE);                                                                \
        int w_ = (WORLD);                                                                          \
        if (!oshm_prof.active || oshm_prof_count(FAMILY, BYTES, w_)) {                             \
            STMT;                                                                                  \
        } else {                                                                                   \
            struct oshm_prof_span s_;                                                              \
            oshm_prof_begin(&s_, FAMILY);                                                          \
            STMT;                                                                                  \
            oshm_prof_end(&s_, ROUTINE, BYTES, w_);                                                \
        }                                                                                          \
    } while (0)

/* The world PE of PE in the context's team. */
static inline int oshm_ctx_pe(shmem_ctx_t ctx, int pe, const char *routine)
{
    const struct oshm_pe_set *s = &ctx->team->set;
    if (__builtin_expect((unsigned)pe >= (unsigned)s->size, 0))
        oshm_bad_team_pe(ctx, pe, routine);
    return s->start + pe * s->stride;
}

/* The world PE a routine on CTX reaches: CTX and PE checked, with errors
 * naming ROUTINE (a slow path's, before its work checks them again). */
static inline int oshm_ctx_world(shmem_ctx_t ctx, int pe, const char *routine)
{
    oshm_channel(ctx, routine);
    return oshm_ctx_pe(ctx, pe, routine);
}

/* The channel mode the thread level gives a context without options (and
 * the default context): shared by threads at once under
 * SHMEM_THREAD_MULTIPLE, otherwise used by one thread at a time, but not
 * always the same one (SHMEM_THREAD_SERIALIZED; the device runtime's
 * threads, which make it shared when they start). */
static inline enum hcomm_chan_mode oshm_chan_mode_for_level(int level)
{
    return level == SHMEM_THREAD_MULTIPLE ? HCOMM_CHAN_SHARED : HCOMM_CHAN_SERIALIZED;
}

/* Plain routines are their context form on SHMEM_CTX_DEFAULT. */
#define OSHM_PLAIN_VOID(NAME, PARAMS, ARGS) \
    OSHM_FN(void, shmem_##NAME, PARAMS) { pshmem_ctx_##NAME ARGS; }
#define OSHM_PLAIN_RET(RET, NAME, PARAMS, ARGS) \
    OSHM_FN(RET, shmem_##NAME, PARAMS) { return pshmem_ctx_##NAME ARGS; }

#endif
