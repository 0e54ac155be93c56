/*
 * The unified buffer: each block's on-chip scratch (an AI core's UB),
 * SHMEM_DEVICE_UB_SIZE bytes, made on the block's first use and gone with
 * the kernel. Transfers between it and symmetric memory are ordinary engine
 * descriptors whose local side is the buffer.
 */
#include <shmem/device.h>
#include <stdint.h>
#include <stdlib.h>

#include "device/transfer.h"
#include "util/env.h"
#include "util/log.h"

static void *ub_of(struct device_thread *t, const char *routine)
{
    _Atomic(void *) *slot = &t->launch->ub[t->block];
    void *ub = atomic_load_explicit(slot, memory_order_acquire);
    if (ub)
        return ub;
    void *fresh = calloc(1, oshm_env.device_ub_size);
    if (!fresh)
        oshm_fatal("%s: cannot make a unified buffer of %zu bytes (SHMEM_DEVICE_UB_SIZE)",
                   routine, (size_t)oshm_env.device_ub_size);
    if (atomic_compare_exchange_strong_explicit(slot, &ub, fresh, memory_order_acq_rel,
                                                memory_order_acquire))
        return fresh;
    free(fresh);
    return ub;
}

void *shmemd_ub_base(void)
{
    return ub_of(device_thread_of("shmemd_ub_base"), "shmemd_ub_base");
}

size_t shmemd_ub_size(void)
{
    device_thread_of("shmemd_ub_size");
    return oshm_env.device_ub_size;
}

/* The local side must lie in this block's buffer. */
static void ub_copy(enum engine_op op, void *dest, const void *source, size_t nbytes, int pe,
                    bool wait, const char *routine)
{
    struct device_thread *t = device_thread_of(routine);
    const char *ub = ub_of(t, routine), *local = op == ENGINE_GET ? dest : source;
    size_t size = oshm_env.device_ub_size;
    if (nbytes && ((uintptr_t)local < (uintptr_t)ub || nbytes > size ||
                   (uintptr_t)local - (uintptr_t)ub > size - nbytes))
        oshm_fatal("%s: the %s [%p, +%zu) is not in this block's unified buffer [%p, +%zu)",
                   routine, op == ENGINE_GET ? "destination" : "source", (const void *)local,
                   nbytes, (const void *)ub, size);
    device_copy(&(struct device_copy){.op = op, .pe = pe, .dst = dest, .src = source,
                                      .width = nbytes, .rows = 1, .wait = wait,
                                      .routine = routine});
}

void shmemd_putmem_ub(void *dest, const void *ub_source, size_t nbytes, int pe)
{
    ub_copy(ENGINE_PUT, dest, ub_source, nbytes, pe, true, "shmemd_putmem_ub");
}

void shmemd_getmem_ub(void *ub_dest, const void *source, size_t nbytes, int pe)
{
    ub_copy(ENGINE_GET, ub_dest, source, nbytes, pe, true, "shmemd_getmem_ub");
}

void shmemd_putmem_ub_nbi(void *dest, const void *ub_source, size_t nbytes, int pe)
{
    ub_copy(ENGINE_PUT, dest, ub_source, nbytes, pe, false, "shmemd_putmem_ub_nbi");
}

void shmemd_getmem_ub_nbi(void *ub_dest, const void *source, size_t nbytes, int pe)
{
    ub_copy(ENGINE_GET, ub_dest, source, nbytes, pe, false, "shmemd_getmem_ub_nbi");
}
