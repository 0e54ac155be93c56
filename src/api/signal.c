/*
 * Put-with-signal, signal fetch and wait. The backend delivers the signal
 * after the data of the same put, so a PE that sees the signal sees the data.
 */
#include "api/api.h"
#include "api/ctx.h"
#include "api/p2p.h"
#include "util/log.h"
#include "util/spin.h"
#include "util/state.h"

/* The fast path's work, the counted path's (PROF, api/ctx.h) and the slow
 * path's (util/prof.h). */
OSHM_ALWAYS_INLINE void put_signal_body(struct oshm_prof_thread *prof, shmem_ctx_t ctx, void *dest,
                                        const void *source, size_t bytes, uint64_t *sig_addr,
                                        uint64_t signal, int sig_op, int pe, bool nbi,
                                        const char *routine)
{
    struct hcomm_channel *ch = oshm_enter_fast(ctx, routine);
    int world = oshm_ctx_pe(ctx, pe, routine);
    enum hcomm_signal_op op = oshm_signal_op(sig_op, routine);
    oshm_prof_body(prof, OSHM_PROF_ROUTE_PUT_SIGNAL, bytes, world);
    hcomm_put(ch, dest, source, bytes, world, nbi, routine);
    hcomm_signal(ch, sig_addr, signal, op, world, routine);
    oshm_leave();
}

static __attribute__((noinline, cold)) void
put_signal_slow(shmem_ctx_t ctx, void *dest, const void *source, size_t bytes, uint64_t *sig_addr,
                uint64_t signal, int sig_op, int pe, bool nbi, const char *routine)
{
    /* Counted here, out of the routines' fast path (api/amo.c says why). */
    struct oshm_prof_thread *prof =
        oshm_prof_leaf(nbi ? OSHM_PROF_put_signal_nbi : OSHM_PROF_put_signal, bytes);
    if (prof) {
        put_signal_body(prof, ctx, dest, source, bytes, sig_addr, signal, sig_op, pe, nbi, routine);
        return;
    }
    OSHM_SLOW_PATH(
        nbi ? OSHM_PROF_put_signal_nbi : OSHM_PROF_put_signal, routine, bytes,
        oshm_ctx_world(ctx, pe, routine),
        put_signal_body(NULL, ctx, dest, source, bytes, sig_addr, signal, sig_op, pe, nbi, routine));
}

static inline void put_signal(shmem_ctx_t ctx, void *dest, const void *source, size_t bytes,
                              uint64_t *sig_addr, uint64_t signal, int sig_op, int pe, bool nbi,
                              const char *routine)
{
    if (!oshm_fast()) {
        put_signal_slow(ctx, dest, source, bytes, sig_addr, signal, sig_op, pe, nbi, routine);
        return;
    }
    put_signal_body(NULL, ctx, dest, source, bytes, sig_addr, signal, sig_op, pe, nbi, routine);
}

#define DEFINE_PUT_SIGNAL(NAME, T, ELEM)                                                      \
    OSHM_FN(void, shmem_ctx_##NAME##_signal,                                                  \
            (shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, uint64_t *sig_addr,    \
             uint64_t signal, int sig_op, int pe))                                            \
    {                                                                                         \
        put_signal(ctx, dest, source, nelems * (ELEM), sig_addr, signal, sig_op, pe, false,   \
                   "shmem_" #NAME "_signal");                                                 \
    }                                                                                         \
    OSHM_FN(void, shmem_ctx_##NAME##_signal_nbi,                                              \
            (shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, uint64_t *sig_addr,    \
             uint64_t signal, int sig_op, int pe))                                            \
    {                                                                                         \
        put_signal(ctx, dest, source, nelems * (ELEM), sig_addr, signal, sig_op, pe, true,    \
                   "shmem_" #NAME "_signal_nbi");                                             \
    }                                                                                         \
    OSHM_PLAIN_VOID(NAME##_signal,                                                            \
                    (T * dest, const T *source, size_t nelems, uint64_t *sig_addr,            \
                     uint64_t signal, int sig_op, int pe),                                    \
                    (SHMEM_CTX_DEFAULT, dest, source, nelems, sig_addr, signal, sig_op, pe))  \
    OSHM_PLAIN_VOID(NAME##_signal_nbi,                                                        \
                    (T * dest, const T *source, size_t nelems, uint64_t *sig_addr,            \
                     uint64_t signal, int sig_op, int pe),                                    \
                    (SHMEM_CTX_DEFAULT, dest, source, nelems, sig_addr, signal, sig_op, pe))

#define DEFINE_TYPED_PUT_SIGNAL(T, N) DEFINE_PUT_SIGNAL(N##_put, T, sizeof(T))
SHMEM_RMA_TYPE_TABLE(DEFINE_TYPED_PUT_SIGNAL)
#define DEFINE_SIZED_PUT_SIGNAL(BITS, UNIT) DEFINE_PUT_SIGNAL(put##BITS, void, BITS / 8)
SHMEM_SIZED_TABLE(DEFINE_SIZED_PUT_SIGNAL)
DEFINE_PUT_SIGNAL(putmem, void, 1)

/* signal_add/set (OpenSHMEM 1.6) take the path of put-with-signal's signal,
 * so the two are atomic with respect to each other. */
OSHM_ALWAYS_INLINE void signal_body(struct oshm_prof_thread *prof, shmem_ctx_t ctx,
                                    uint64_t *sig_addr, uint64_t signal, int pe,
                                    enum hcomm_signal_op op, const char *routine)
{
    struct hcomm_channel *ch = oshm_enter_fast(ctx, routine);
    int world = oshm_ctx_pe(ctx, pe, routine);
    oshm_prof_body(prof, OSHM_PROF_ROUTE_SIGNAL, sizeof *sig_addr, world);
    hcomm_signal(ch, sig_addr, signal, op, world, routine);
    oshm_leave();
}

static __attribute__((noinline, cold)) void signal_slow(shmem_ctx_t ctx, uint64_t *sig_addr,
                                                        uint64_t signal, int pe,
                                                        enum hcomm_signal_op op,
                                                        const char *routine)
{
    struct oshm_prof_thread *prof = oshm_prof_leaf(OSHM_PROF_signal_op, sizeof *sig_addr);
    if (prof) {
        signal_body(prof, ctx, sig_addr, signal, pe, op, routine);
        return;
    }
    OSHM_SLOW_PATH(OSHM_PROF_signal_op, routine, sizeof *sig_addr, oshm_ctx_world(ctx, pe, routine),
                   signal_body(NULL, ctx, sig_addr, signal, pe, op, routine));
}

static inline void signal_only(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe,
                               enum hcomm_signal_op op, const char *routine)
{
    if (!oshm_fast()) {
        signal_slow(ctx, sig_addr, signal, pe, op, routine);
        return;
    }
    signal_body(NULL, ctx, sig_addr, signal, pe, op, routine);
}
OSHM_FN(void, shmem_ctx_signal_add, (shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe))
{
    signal_only(ctx, sig_addr, signal, pe, HCOMM_SIGNAL_ADD, "shmem_signal_add");
}
OSHM_FN(void, shmem_ctx_signal_set, (shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe))
{
    signal_only(ctx, sig_addr, signal, pe, HCOMM_SIGNAL_SET, "shmem_signal_set");
}
OSHM_PLAIN_VOID(signal_add, (uint64_t * sig_addr, uint64_t signal, int pe),
                (SHMEM_CTX_DEFAULT, sig_addr, signal, pe))
OSHM_PLAIN_VOID(signal_set, (uint64_t * sig_addr, uint64_t signal, int pe),
                (SHMEM_CTX_DEFAULT, sig_addr, signal, pe))

OSHM_FN(uint64_t, shmem_signal_fetch, (const uint64_t *sig_addr))
{
    uint64_t v;
    oshm_require_init("shmem_signal_fetch");
    OSHM_PROFILED_LOCAL(OSHM_PROF_signal_fetch, "shmem_signal_fetch", 0, {
        oshm_progress(); /* a caller may poll with it */
        v = __atomic_load_n(sig_addr, __ATOMIC_ACQUIRE);
    });
    return v;
}

OSHM_FN(uint64_t, shmem_signal_wait_until, (uint64_t *sig_addr, int cmp, uint64_t cmp_value))
{
    uint64_t v;
    oshm_require_init("shmem_signal_wait_until");
    OSHM_PROFILED_LOCAL(OSHM_PROF_signal_wait_until, "shmem_signal_wait_until", 0,
                        v = oshm_wait_u64(sig_addr, cmp, cmp_value, "shmem_signal_wait_until"));
    return v;
}
