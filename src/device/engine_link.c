/*
 * How the simulated device's engines (src/transport/engine) move data:
 * through hcomm's channels, one private channel per engine queue, as the
 * device's DMA engines would through its fabric. The engines sit in the
 * transport layer and know nothing above it; this file, in the layer that
 * starts them, hands them hcomm.
 */
#include "device/device.h"

static void *link_open(const char *who)
{
    (void)who;
    struct hcomm_channel *ch;
    return hcomm_channel_create(HCOMM_CHAN_PRIVATE, &ch) == 0 ? ch : NULL;
}

static void link_close(void *ch) { hcomm_channel_destroy(ch); }

static void link_put(void *ch, void *dst, const void *src, size_t len, int pe, const char *routine)
{
    hcomm_put(ch, dst, src, len, pe, false, routine);
}

static void link_get(void *ch, void *dst, const void *src, size_t len, int pe, const char *routine)
{
    hcomm_get(ch, dst, src, len, pe, false, routine);
}

static void link_signal(void *ch, uint64_t *sig, uint64_t value, enum backend_signal_op op,
                        int pe, const char *routine)
{
    hcomm_signal(ch, sig, value, (enum hcomm_signal_op)op, pe, routine);
}

static uint64_t link_amo(void *ch, void *dst, size_t size, enum backend_amo_op op,
                         uint64_t operand, uint64_t compare, int pe, const char *routine)
{
    return hcomm_amo(ch, dst, size, (enum hcomm_amo_op)op, operand, compare, pe, routine);
}

static void link_quiet(void *ch) { hcomm_quiet(ch); }

int device_engines_start(unsigned delay_us, bool weak)
{
    /* The queues' threads will use the backends alongside the program's. */
    hcomm_threads_begin();
    const struct engine_link link = {
        .open = link_open,
        .close = link_close,
        .put = link_put,
        .get = link_get,
        .signal = link_signal,
        .amo = link_amo,
        .quiet = link_quiet,
        .my_node = hcomm.my_node,
        .node_of = hcomm.node_of,
    };
    return engine_start(&link, delay_us, weak);
}
