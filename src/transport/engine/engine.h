/*
 * Data-movement engines of the simulated Ascend device. MTE (the AI core's
 * memory transfer engine) and SDMA (the system DMA engine) copy within a
 * node; UDMA (the device's own RDMA) and RDMA (the host NIC) reach any PE.
 * Each is a set of asynchronous descriptor queues with doorbells: a kernel
 * posts a descriptor and goes on; a queue's own thread (its "hardware")
 * carries it out later through the link the device layer gives at start
 * (struct engine_link: hcomm's channels, so the engines need nothing above
 * the transports), then bumps the poster's completion
 * counter. So a put returns before its data lands, and only waiting for the
 * counter (quiet) says it did, exactly as on the device.
 *
 * Ordering (SHMEM_DEVICE_ORDERING): strong gives each engine one queue, so a
 * thread's descriptors on one engine complete in order. Weak gives each
 * engine several queues with different, varying delays and spreads a
 * thread's RMA descriptors over them, so they complete out of order, as on
 * the hardware (its AMOs and signals stay in order among themselves, on
 * one queue); only a fence (engine_fence: later descriptors wait for earlier
 * ones to complete before they start) or quiet orders them.
 *
 * SHMEM_DEVICE_ENGINE_DELAY_US holds each descriptor back that long before
 * it runs, so that tests can see that nothing lands before quiet.
 */
#ifndef OSHM_TRANSPORT_ENGINE_H
#define OSHM_TRANSPORT_ENGINE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "transport/backend.h"

enum engine_op {
    ENGINE_PUT,        /* rows of len bytes src -> dst on pe (dst symmetric) */
    ENGINE_GET,        /* rows of len bytes src on pe -> dst (src symmetric) */
    ENGINE_PUT_SIGNAL, /* a put, then the signal, in that order */
    ENGINE_SIGNAL,
    ENGINE_AMO,
};

/* AUTO (0, a descriptor's default) lets engine_post pick by distance. The
 * order matches enum shmemd_engine of <shmem/device_rma.h>. */
enum engine_kind {
    ENGINE_AUTO = 0,
    ENGINE_MTE,
    ENGINE_SDMA,
    ENGINE_UDMA,
    ENGINE_RDMA,
    ENGINE_KINDS,
};

/* What a poster waits on: descriptors it posted and those completed. */
struct engine_counter {
    _Atomic uint64_t posted;
    _Atomic uint64_t completed;
    /* Written by the poster only: descriptors posted before its last
     * fence, and the weak mode's round-robin over queues. */
    uint64_t fence_mark;
    unsigned next_queue;
};

struct engine_desc {
    enum engine_op op;
    enum engine_kind engine;
    int pe;
    void *dst;
    const void *src;
    size_t len;                /* bytes per row */
    size_t rows;               /* 0 or 1: one contiguous block */
    ptrdiff_t dst_pitch, src_pitch; /* bytes from one row to the next */
    uint64_t inline_data[2];   /* the source of puts of one value (p), copied at post */
    uint64_t *sig;             /* signal word (symmetric) */
    uint64_t sig_value;
    enum backend_signal_op sig_op;
    enum backend_amo_op amo;
    size_t amo_size;
    uint64_t operand, compare;
    uint64_t *result;          /* where a fetching AMO's old value goes */
    const char *routine;
    struct engine_counter *done;
    uint64_t after;            /* set by engine_post: starts once this many of done's are complete */
};

/* What the engines move data through: a channel per queue, opened and used
 * by that queue's thread only. Filled by the layer that starts them
 * (src/device, over hcomm); the queues' threads must be allowed to use the
 * backends before engine_start. */
struct engine_link {
    void *(*open)(const char *who); /* NULL: cannot */
    void (*close)(void *chan);
    void (*put)(void *chan, void *dst, const void *src, size_t len, int pe, const char *routine);
    void (*get)(void *chan, void *dst, const void *src, size_t len, int pe, const char *routine);
    void (*signal)(void *chan, uint64_t *sig, uint64_t value, enum backend_signal_op op, int pe,
                   const char *routine);
    uint64_t (*amo)(void *chan, void *dst, size_t size, enum backend_amo_op op, uint64_t operand,
                    uint64_t compare, int pe, const char *routine);
    void (*quiet)(void *chan); /* everything CHAN moved is visible at its targets */
    int my_node;
    const int *node_of; /* node of each PE: MTE and SDMA stay on my_node */
};

/* Enables the engines of this PE (idempotent) over LINK (copied); a
 * queue's thread starts on its first descriptor. WEAK:
 * SHMEM_DEVICE_ORDERING=weak. */
int engine_start(const struct engine_link *link, unsigned delay_us, bool weak);
void engine_stop(void);
/* The engine AUTO picks for PE: MTE on this node, else UDMA. */
enum engine_kind engine_for(int pe);
const char *engine_name(enum engine_kind k);
/* Whether engine K reaches PE: MTE and SDMA only PEs of this node. */
bool engine_reaches(enum engine_kind k, int pe);
/* Queues D (copied) on D->engine (AUTO: engine_for), after everything D->done
 * posted before its last fence; counts it as posted on D->done. Blocks
 * only while the queue is full. A fatal error naming D->routine when the
 * engine cannot reach D->pe. */
void engine_post(const struct engine_desc *d);
/* Descriptors C posts from now on start only after those it posted so far
 * have completed; returns at once. */
void engine_fence(struct engine_counter *c);
/* Waits until every descriptor counted on C has completed. */
void engine_wait(struct engine_counter *c);
/* Descriptors each engine has carried out (for tests and statistics). */
uint64_t engine_executed(enum engine_kind k);

#endif
