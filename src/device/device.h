/*
 * The host-simulated Ascend device of this PE: a device symmetric heap (a
 * third hcomm segment, so host RMA and both backends reach it), streams that
 * run kernels in order, and kernels whose blocks are host threads. Device
 * RMA goes through the engines of src/transport/engine, started over hcomm
 * by device_engines_start (device/engine_link.c).
 */
#ifndef OSHM_DEVICE_DEVICE_H
#define OSHM_DEVICE_DEVICE_H

#include <pthread.h>
#include <stddef.h>

#include "hcomm/hcomm.h"
#include "transport/engine/engine.h"
#include "util/prof.h"

/* A device routine's work STMT as one call of the profile (util/prof.h),
 * on the kernel thread's own track; PE: the world PE it reached, valid
 * once STMT has checked it. */
#define DEVICE_PROFILED(FAMILY, ROUTINE, BYTES, PE, STMT)                                          \
    OSHM_PROFILED(FAMILY, ROUTINE, BYTES, PE, STMT)

/* Starts the engines (once per life of the library, under the caller's
 * lock) with hcomm as what they move data through. */
int device_engines_start(unsigned delay_us, bool weak);

/* One kernel launch. */
struct device_launch {
    void (*kernel)(void *args);
    void *args;
    unsigned nblocks, nthreads;
    pthread_barrier_t grid;    /* every thread of the launch */
    pthread_barrier_t *block;  /* the threads of each block */
    pthread_barrier_t *warp;   /* each warp of each block (device/group.c) */
    unsigned warps;            /* warps per block */
    _Atomic(void *) *ub;       /* each block's unified buffer, made on first use */
};

/* What a kernel thread knows about itself. */
struct device_thread {
    struct device_launch *launch;
    unsigned block, thread;
    struct engine_counter ops; /* this thread's engine descriptors */
};

/* The running kernel thread; NULL on a host thread. */
extern _Thread_local struct device_thread *device_self;

/* Creates the device heap; called by shmem_init before hcomm. */
int device_heap_init(void);
/* Collective allocation from / release to the device heap; errors name ROUTINE. */
void *device_allocate(size_t size, bool zero, const char *routine);
void *device_callocate(size_t count, size_t size, const char *routine);
void device_release(void *ptr, const char *routine);

/* Queues CALL(ARG) on STREAM (NULL: the default one), in order with its
 * kernels; ARG (malloc'd) is freed after the call. Starts the engines. 0,
 * or -1 when out of memory (ARG is then the caller's). */
struct shmemx_stream_impl;
int device_stream_call(struct shmemx_stream_impl *stream, void (*call)(void *), void *arg,
                       const char *routine);

/* Drains every stream and stops the engines; by shmem_finalize. */
void device_fini(void);

/* A launch's warp barriers and unified buffers (device/group.c). */
void device_groups_init(struct device_launch *l);
void device_groups_fini(struct device_launch *l);

/* The calling kernel thread, or a fatal error naming ROUTINE. */
struct device_thread *device_thread_of(const char *routine);

#endif
