#include "device/transfer.h"

#include <shmem/device.h>
#include <string.h>

#include "hcomm/hcomm.h"
#include "util/log.h"

/* The span of ROWS rows of WIDTH bytes, PITCH apart, from BASE. */
static void span(const void *base, size_t width, size_t rows, ptrdiff_t pitch, const char **lo,
                 size_t *len)
{
    const char *b = base;
    ptrdiff_t last = rows > 1 ? (ptrdiff_t)(rows - 1) * pitch : 0;
    *lo = last < 0 ? b + last : b;
    *len = (size_t)(last < 0 ? -last : last) + width;
}

static void check(const struct device_copy *c)
{
    if ((unsigned)c->pe >= (unsigned)hcomm.n_pes)
        hcomm_bad_pe(c->pe, c->routine);
    if (!c->width || !c->rows)
        return;
    if (c->rows > 1 && (size_t)(c->dst_pitch < 0 ? -c->dst_pitch : c->dst_pitch) < c->width)
        oshm_fatal("%s: destination rows of %zu bytes, %td bytes apart, overlap", c->routine,
                   c->width, c->dst_pitch);
    bool put = c->op != ENGINE_GET;
    const char *lo;
    size_t len;
    span(put ? c->dst : c->src, c->width, c->rows, put ? c->dst_pitch : c->src_pitch, &lo, &len);
    if (hcomm_seg_of(lo, len) < 0)
        hcomm_bad_addr(lo, len, c->pe, c->routine);
}

static void post(struct device_thread *t, struct engine_desc d)
{
    d.done = &t->ops;
    engine_post(&d);
}

static void device_copy_run(const struct device_copy *c)
{
    struct device_thread *t = device_thread_of(c->routine);
    check(c);
    if (!c->width || !c->rows)
        return;
    post(t, (struct engine_desc){.op = c->op, .engine = c->engine, .pe = c->pe, .dst = c->dst,
                                 .src = c->src, .len = c->width, .rows = c->rows,
                                 .dst_pitch = c->dst_pitch, .src_pitch = c->src_pitch,
                                 .routine = c->routine});
    if (c->wait)
        engine_wait(&t->ops);
}

void device_copy(const struct device_copy *c)
{
    DEVICE_PROFILED(c->op == ENGINE_GET
                        ? (c->wait ? OSHM_PROF_device_get : OSHM_PROF_device_get_nbi)
                        : (c->wait ? OSHM_PROF_device_put : OSHM_PROF_device_put_nbi),
                    c->routine, c->width * c->rows, c->pe, device_copy_run(c));
}

static void device_put_value_run(void *dest, const void *value, size_t size, int pe,
                                 const char *routine)
{
    struct device_thread *t = device_thread_of(routine);
    check(&(struct device_copy){.op = ENGINE_PUT, .pe = pe, .dst = dest, .width = size,
                                .rows = 1, .routine = routine});
    struct engine_desc d = {.op = ENGINE_PUT, .pe = pe, .dst = dest, .len = size,
                            .routine = routine};
    if (size > sizeof d.inline_data)
        oshm_fatal("%s: a value of %zu bytes is too large", routine, size);
    memcpy(d.inline_data, value, size);
    post(t, d);
}

void device_put_value(void *dest, const void *value, size_t size, int pe, const char *routine)
{
    DEVICE_PROFILED(OSHM_PROF_device_put, routine, size, pe,
                    device_put_value_run(dest, value, size, pe, routine));
}

void device_copy_group(enum device_group g, const struct device_copy *c, size_t elem)
{
    struct device_thread *t = device_thread_of(c->routine);
    struct device_launch *l = t->launch;
    unsigned lane = t->thread, lanes = l->nthreads;
    pthread_barrier_t *meet = &l->block[t->block];
    if (g == DEVICE_WARP) {
        unsigned w = t->thread / SHMEMD_WARP_SIZE, first = w * SHMEMD_WARP_SIZE;
        lane = t->thread - first;
        lanes = l->nthreads - first < SHMEMD_WARP_SIZE ? l->nthreads - first : SHMEMD_WARP_SIZE;
        meet = &l->warp[t->block * l->warps + w];
    }
    /* Every thread checks the whole, so that all report the same error. */
    check(c);
    size_t units = c->width / elem, share = (units + lanes - 1) / lanes;
    size_t from = share * lane, to = from + share < units ? from + share : units;
    if (from < to) {
        struct device_copy mine = *c;
        mine.dst = (char *)c->dst + from * elem;
        mine.src = (const char *)c->src + from * elem;
        mine.width = (to - from) * elem;
        mine.rows = 1;
        device_copy(&mine);
    }
    pthread_barrier_wait(meet);
}
