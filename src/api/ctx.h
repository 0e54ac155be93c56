/*
 * What a shmem_ctx_t points to.
 */
#ifndef OSHM_API_CTX_H
#define OSHM_API_CTX_H

#include <shmem/shmem.h>

#include "hcomm/hcomm.h"

struct shmem_ctx_impl {
    struct hcomm_channel *channel;
    long options;
};

_Noreturn void oshm_bad_ctx(const char *routine);

static inline struct hcomm_channel *oshm_channel(shmem_ctx_t ctx, const char *routine)
{
    if (__builtin_expect(ctx == SHMEM_CTX_INVALID, 0))
        oshm_bad_ctx(routine);
    return ctx->channel;
}

#endif
