/*
 * Communication contexts: each has its own channel, so fence and quiet on one
 * context complete only what was issued on it.
 */
#include <pthread.h>
#include <stdlib.h>

#include "api/api.h"
#include "api/ctx.h"
#include "util/log.h"
#include "util/state.h"

struct shmem_ctx_impl shmem_ctx_default_impl = {.channel = &hcomm.default_channel,
                                                .team = &shmem_team_world_impl};

/* The contexts created and not destroyed: the last shmem_finalize destroys
 * them with their channels, before the backends close. */
static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static struct shmem_ctx_impl *live;

static void unlink_live(struct shmem_ctx_impl *c)
{
    pthread_mutex_lock(&live_lock);
    if (c->prev_live)
        c->prev_live->next_live = c->next_live;
    else
        live = c->next_live;
    if (c->next_live)
        c->next_live->prev_live = c->prev_live;
    pthread_mutex_unlock(&live_lock);
}

void oshm_ctx_fini(void)
{
    while (live) {
        struct shmem_ctx_impl *c = live;
        unlink_live(c);
        hcomm_channel_destroy(c->channel);
        free(c);
    }
}

void oshm_bad_ctx(const char *routine)
{
    oshm_fatal("%s: the context is SHMEM_CTX_INVALID", routine);
}

void oshm_bad_team_pe(shmem_ctx_t ctx, int pe, const char *routine)
{
    if (ctx->team == SHMEM_TEAM_WORLD)
        hcomm_bad_pe(pe, routine);
    oshm_fatal("%s: PE %d is not in the context's team (PEs 0 to %d)", routine, pe,
               ctx->team->set.size - 1);
}

static int create(shmem_team_t team, long options, shmem_ctx_t *ctx)
{
    *ctx = SHMEM_CTX_INVALID;
    if (team == SHMEM_TEAM_INVALID || team->set.my_index < 0)
        return -1;
    struct shmem_ctx_impl *c = calloc(1, sizeof *c);
    if (!c)
        return -1;
    /* How the threads may use the context decides the channel's locking:
     * a private context is the creating thread's alone, a serialized one
     * never used by two threads at once; otherwise the thread level says. */
    enum hcomm_chan_mode mode = (options & SHMEM_CTX_PRIVATE)      ? HCOMM_CHAN_PRIVATE
                                : (options & SHMEM_CTX_SERIALIZED) ? HCOMM_CHAN_SERIALIZED
                                                                   : oshm_chan_mode_for_level(oshm_state.thread_level);
    if (hcomm_channel_create(mode, &c->channel) != 0) {
        free(c);
        return -1;
    }
    c->options = options;
    c->team = team;
    pthread_mutex_lock(&live_lock);
    c->next_live = live;
    if (live)
        live->prev_live = c;
    live = c;
    pthread_mutex_unlock(&live_lock);
    *ctx = c;
    return 0;
}

static int ctx_create_body(long options, shmem_ctx_t *ctx)
{
    oshm_require_init("shmem_ctx_create");
    return create(SHMEM_TEAM_WORLD, options, ctx);
}

OSHM_FN(int, shmem_ctx_create, (long options, shmem_ctx_t *ctx))
{
    int r;
    OSHM_PROFILED_LOCAL(OSHM_PROF_ctx_create, "shmem_ctx_create", 0,
                        r = ctx_create_body(options, ctx));
    return r;
}

static int team_create_ctx_body(shmem_team_t team, long options, shmem_ctx_t *ctx)
{
    oshm_require_init("shmem_team_create_ctx");
    return create(team, options, ctx);
}

OSHM_FN(int, shmem_team_create_ctx, (shmem_team_t team, long options, shmem_ctx_t *ctx))
{
    int r;
    OSHM_PROFILED_LOCAL(OSHM_PROF_ctx_create, "shmem_team_create_ctx", 0,
                        r = team_create_ctx_body(team, options, ctx));
    return r;
}

static void ctx_destroy_body(shmem_ctx_t ctx)
{
    oshm_require_init("shmem_ctx_destroy");
    if (ctx == SHMEM_CTX_INVALID || ctx == SHMEM_CTX_DEFAULT)
        return;
    unlink_live(ctx);
    hcomm_channel_destroy(ctx->channel);
    free(ctx);
}

OSHM_FN(void, shmem_ctx_destroy, (shmem_ctx_t ctx))
{
    OSHM_PROFILED_LOCAL(OSHM_PROF_ctx_destroy, "shmem_ctx_destroy", 0, ctx_destroy_body(ctx));
}

OSHM_FN(int, shmem_ctx_get_team, (shmem_ctx_t ctx, shmem_team_t *team))
{
    oshm_require_init("shmem_ctx_get_team");
    if (!team)
        return -1;
    if (ctx == SHMEM_CTX_INVALID) {
        *team = SHMEM_TEAM_INVALID;
        return -1;
    }
    *team = ctx->team;
    return 0;
}
