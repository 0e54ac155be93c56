/*
 * One RMA of a kernel thread, checked and posted to an engine: the common
 * path of the typed, sized, strided, 2-D, group, engine and unified-buffer
 * routines (device/rma_*.c, device/ub.c).
 */
#ifndef OSHM_DEVICE_TRANSFER_H
#define OSHM_DEVICE_TRANSFER_H

#include <stdbool.h>
#include <stddef.h>

#include "device/device.h"

struct device_copy {
    enum engine_op op;         /* ENGINE_PUT or ENGINE_GET */
    enum engine_kind engine;   /* ENGINE_AUTO: by distance */
    int pe;
    void *dst;
    const void *src;
    size_t width;              /* bytes per row */
    size_t rows;               /* 1: contiguous */
    ptrdiff_t dst_pitch, src_pitch; /* bytes between rows */
    bool wait;                 /* blocking: returns once complete */
    const char *routine;
};

/* Checks C (PE, the symmetric side's extent, rows that overlap at the
 * destination) with a fatal error naming its routine, then posts it. */
void device_copy(const struct device_copy *c);
/* A put of one value (SIZE <= 16 bytes), copied now. */
void device_put_value(void *dest, const void *value, size_t size, int pe, const char *routine);

enum device_group { DEVICE_BLOCK, DEVICE_WARP };
/* Contiguous C shared among the threads of the caller's group in whole
 * ELEM-byte units; every thread returns once all have posted (and, when
 * C->wait, completed) their shares. */
void device_copy_group(enum device_group g, const struct device_copy *c, size_t elem);

#endif
