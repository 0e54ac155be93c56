/*
 * Communication sessions (OpenSHMEM 1.6): hints that change no semantics.
 * The hints are kept on the context as the specification describes them
 * (a second start ORs the options in, a second stop does nothing).
 * SHMEM_CTX_SESSION_BATCH lets hcomm
 * send runs of small puts to consecutive addresses as one put
 * (src/hcomm/hcomm_batch.c; docs/performance.md, "Sessions"); a config's
 * total_ops would change nothing, so it is checked, not kept.
 */

#include "api/api.h"
#include "api/ctx.h"
#include "util/log.h"
#include "util/state.h"

#define SESSION_OPTIONS (SHMEM_CTX_SESSION_BATCH)
#define SESSION_CONFIG_MASK (SHMEM_CTX_SESSION_TOTAL_OPS)

OSHM_FN(void, shmem_ctx_session_start, (shmem_ctx_t ctx, long options,
                                        const shmem_ctx_session_config_t *config,
                                        long config_mask))
{
    oshm_require_init("shmem_ctx_session_start");
    if (ctx == SHMEM_CTX_INVALID)
        return;
    /* Unknown options and mask bits are hints nobody takes ("no
     * combination of options results in undefined behavior"). */
    config_mask &= SESSION_CONFIG_MASK;
    if (config_mask && !config)
        oshm_fatal("shmem_ctx_session_start: config is NULL with config_mask %#lx",
                   (unsigned long)config_mask);
    if (!ctx->in_session) {
        ctx->session_options = 0;
        ctx->in_session = true;
    }
    ctx->session_options |= options & SESSION_OPTIONS;
    /* The run is flushed from the starting thread's waits too: only where
     * no other thread may use the context meanwhile (a private context,
     * or a program with one thread calling the library). */
    if ((ctx->session_options & SHMEM_CTX_SESSION_BATCH) &&
        ((ctx->options & SHMEM_CTX_PRIVATE) || oshm_state.thread_level <= SHMEM_THREAD_FUNNELED))
        hcomm_batch_begin(ctx->channel);
}

OSHM_FN(void, shmem_ctx_session_stop, (shmem_ctx_t ctx))
{
    oshm_require_init("shmem_ctx_session_stop");
    if (ctx == SHMEM_CTX_INVALID)
        return;
    if (ctx->in_session)
        hcomm_batch_end(ctx->channel);
    ctx->in_session = false;
    ctx->session_options = 0;
}
