/*
 * Data-movement engines of the simulated Ascend device: MTE (memory transfer
 * engine: copies within a node) and UDMA (RDMA to other nodes). Each is an
 * asynchronous descriptor queue with a doorbell: a kernel posts a
 * descriptor and goes on; the engine's own thread (its "hardware") carries
 * it out later through hcomm, then bumps the poster's completion counter.
 * So a put returns before its data lands, and only waiting for the counter
 * (quiet, fence) says it did, exactly as on the device.
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

#include "hcomm/hcomm.h"

enum engine_op {
    ENGINE_PUT,        /* len bytes src -> dst on pe (dst symmetric) */
    ENGINE_GET,        /* len bytes src on pe -> dst (src symmetric) */
    ENGINE_PUT_SIGNAL, /* a put, then the signal, in that order */
    ENGINE_SIGNAL,
    ENGINE_AMO,
};

/* What a poster waits on: descriptors it posted and those completed. */
struct engine_counter {
    _Atomic uint64_t posted;
    _Atomic uint64_t completed;
};

struct engine_desc {
    enum engine_op op;
    int pe;
    void *dst;
    const void *src;
    size_t len;
    uint64_t inline_data;      /* the source of small puts (p), copied at post */
    uint64_t *sig;             /* signal word (symmetric) */
    uint64_t sig_value;
    enum hcomm_signal_op sig_op;
    enum hcomm_amo_op amo;
    size_t amo_size;
    uint64_t operand, compare;
    uint64_t *result;          /* where a fetching AMO's old value goes */
    const char *routine;
    struct engine_counter *done;
};

struct engine;

enum engine_kind {
    ENGINE_MTE = 0,
    ENGINE_UDMA = 1,
    ENGINE_KINDS = 2,
};

/* Starts both engines of this PE (idempotent). */
int engine_start(unsigned delay_us);
void engine_stop(void);
/* The engine that reaches PE: MTE when its memory is mapped here, else UDMA. */
enum engine_kind engine_for(int pe);
const char *engine_name(enum engine_kind k);
/* Queues D (copied) on the engine for D->pe; counts it as posted on
 * D->done. Blocks only while the queue is full. */
void engine_post(const struct engine_desc *d);
/* Waits until every descriptor counted on C has completed. */
void engine_wait(struct engine_counter *c);
/* Descriptors each engine has carried out (for tests and statistics). */
uint64_t engine_executed(enum engine_kind k);

#endif
