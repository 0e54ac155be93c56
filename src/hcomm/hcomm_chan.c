/*
 * Channels: one per context, with a channel of each open backend inside;
 * fence, quiet and the ordering of operations across backends.
 */
#include <stdlib.h>

#include "util/log.h"
#include "hcomm/hcomm_int.h"
#include "transport/mailbox.h"
#include "util/spin.h"

int hcomm_channel_init(struct hcomm_channel *ch, enum hcomm_chan_mode mode, bool eager)
{
    ch->mode = mode;
    atomic_init(&ch->used, 0);
    atomic_init(&ch->crossed, 0);
    for (int b = 0; b < hcomm.n_backends; b++)
        if (hcomm.backend[b]->chan_open((enum backend_chan_mode)mode, eager, &ch->bch[b]) != 0) {
            while (--b >= 0)
                hcomm.backend[b]->chan_close(ch->bch[b]);
            return -1;
        }
    return 0;
}

void hcomm_channel_fini(struct hcomm_channel *ch)
{
    hcomm_batch_end(ch);
    hcomm_quiet(ch);
    for (int b = 0; b < hcomm.n_backends; b++) {
        hcomm.backend[b]->chan_close(ch->bch[b]);
        ch->bch[b] = NULL;
    }
}

int hcomm_channel_create(enum hcomm_chan_mode mode, struct hcomm_channel **out)
{
    struct hcomm_channel *ch = calloc(1, sizeof *ch);
    if (!ch)
        return -1;
    if (hcomm_channel_init(ch, mode, false) != 0) {
        free(ch);
        return -1;
    }
    *out = ch;
    return 0;
}

void hcomm_channel_destroy(struct hcomm_channel *ch)
{
    hcomm_channel_fini(ch);
    free(ch);
}

/* The local backend (index 0) is fenced and quieted whatever the channel
 * used: the program's own stores through shmem_ptr count as operations of
 * every context, and no backend saw them. */
void hcomm_fence(struct hcomm_channel *ch)
{
    hcomm_unbatch(ch);
    if (!hcomm.mixed) {
        hcomm.backend[0]->fence(ch->bch[0]);
        return;
    }
    unsigned used = atomic_load_explicit(&ch->used, memory_order_relaxed) | 1u;
    unsigned crossed = atomic_exchange_explicit(&ch->crossed, 0, memory_order_relaxed);
    for (int b = 0; b < hcomm.n_backends; b++) {
        if (!(used & (1u << b)))
            continue;
        if (crossed & (1u << b))
            hcomm.backend[b]->quiet(ch->bch[b]);
        else
            hcomm.backend[b]->fence(ch->bch[b]);
    }
}

void hcomm_quiet(struct hcomm_channel *ch)
{
    hcomm_unbatch(ch);
    if (!hcomm.mixed) {
        hcomm.backend[0]->quiet(ch->bch[0]);
        return;
    }
    unsigned used = atomic_exchange_explicit(&ch->used, 0, memory_order_relaxed) | 1u;
    atomic_store_explicit(&ch->crossed, 0, memory_order_relaxed);
    for (int b = 0; b < hcomm.n_backends; b++)
        if (used & (1u << b))
            hcomm.backend[b]->quiet(ch->bch[b]);
}

void hcomm_pe_quiet(struct hcomm_channel *ch, const int *pes, size_t npes)
{
    hcomm_unbatch(ch);
    if (!hcomm.mixed) {
        hcomm.backend[0]->quiet(ch->bch[0]);
        return;
    }
    /* The used bits stay: operations to other PEs may still be in flight. */
    unsigned used = atomic_load_explicit(&ch->used, memory_order_relaxed);
    unsigned whole = 1u; /* quieted once each; the local backend always (see hcomm_fence) */
    for (size_t i = 0; i < npes; i++) {
        const struct hcomm_ep *ep = &hcomm.eps[pes[i]];
        /* Nothing went to a peer not reached yet (hcomm_reach). */
        if (!atomic_load_explicit(&ep->reached, memory_order_acquire))
            continue;
        const unsigned b[2] = {ep->rma, ep->amo};
        struct backend_peer *const peer[2] = {ep->rma_peer, ep->amo_peer};
        for (int k = 0; k < (ep->dual ? 2 : 1); k++) {
            if (!(used & (1u << b[k])) || (whole & (1u << b[k])))
                continue;
            const struct backend_ops *ops = hcomm.backend[b[k]];
            if (ops->quiet_pe)
                ops->quiet_pe(ch->bch[b[k]], peer[k]);
            else
                whole |= 1u << b[k];
        }
    }
    for (int b = 0; b < hcomm.n_backends; b++)
        if (whole & (1u << b))
            hcomm.backend[b]->quiet(ch->bch[b]);
}

unsigned hcomm_progress(void)
{
    unsigned n = hcomm_batch_progress();
    for (int b = 0; b < hcomm.n_backends; b++)
        if (hcomm.backend[b]->progress)
            n += hcomm.backend[b]->progress();
    return n;
}

void hcomm_threads_begin(void)
{
    struct hcomm_channel *ch = &hcomm.default_channel;
    if (ch->mode == HCOMM_CHAN_SHARED)
        return;
    hcomm_batch_end(ch); /* the run is not for threads at once */
    for (int b = 0; b < hcomm.n_backends; b++)
        if (hcomm.backend[b]->chan_share)
            hcomm.backend[b]->chan_share(ch->bch[b]);
    ch->mode = HCOMM_CHAN_SHARED;
}

void hcomm_notify(struct hcomm_channel *ch, void *dest, const void *src, size_t len,
                  uint64_t *sig, int pe, const char *routine)
{
    struct hcomm_ep *ep = hcomm_ep_of(pe, routine);
    const struct backend_ops *ops = ep->amo_ops;
    /* Notifies: the AMO path is the network's (dest and the signal are on
     * the same path), and its notify's CPU atomic is atomic with the other
     * AMOs on that word (not where a NIC does them). */
    if (!ep->dual && ops->notify && !hcomm.amo_over_network) {
        int seg = 0, sig_seg;
        size_t off = len ? hcomm_offset(dest, len, &seg, pe, routine) : 0;
        size_t sig_off = hcomm_offset(sig, sizeof *sig, &sig_seg, pe, routine);
        hcomm_unbatch(ch);
        hcomm_mark(ch, ep->amo);
        size_t at = 0;
        do {
            size_t n = len - at < ops->notify_max ? len - at : ops->notify_max;
            ops->notify(ch->bch[ep->amo], ep->amo_peer, seg, off + at, (const char *)src + at, n,
                        sig_seg, sig_off, (uint64_t)hcomm_notify_units(n), BACKEND_SIGNAL_ADD);
            at += n;
        } while (at < len);
        return;
    }
    if (len)
        hcomm_put(ch, dest, src, len, pe, false, routine);
    hcomm_signal(ch, sig, (uint64_t)hcomm_notify_units(len), HCOMM_SIGNAL_ADD, pe, routine);
}

_Static_assert(HCOMM_MAIL_MAX <= MAILBOX_MSG_MAX, "a mail the mailbox drops");

/* As connect_all (hcomm.c) chooses the RMA backend of a pair, from where
 * the two are and the job's settings: the same answer on every PE. */
bool hcomm_mail_between(int a, int b)
{
    if (a == b)
        return false;
    bool local = hcomm.node_mapped && hcomm.node_of[a] == hcomm.node_of[b];
    const struct backend_ops *ops = local || hcomm.n_backends < 2 ? hcomm.backend[0]
                                                                   : hcomm.backend[1];
    return ops->mail != NULL;
}

void hcomm_mail(struct hcomm_channel *ch, int pe, uint64_t tag, const void *src, size_t len,
                const char *routine)
{
    struct hcomm_ep *ep = hcomm_ep_of(pe, routine);
    if (!ep->rma_ops->mail || len > HCOMM_MAIL_MAX) /* the caller asked hcomm_mail_between */
        oshm_fatal("%s: no mail to PE %d (%zu bytes)", routine, pe, len);
    hcomm_unbatch(ch);
    ep->rma_ops->mail(ch->bch[ep->rma], ep->rma_peer, tag, src, len);
}

void hcomm_mail_take(int pe, uint64_t tag, void *dst, size_t len)
{
    uint32_t spins = 0;
    while (!mailbox_take(pe, tag, dst, len))
        oshm_spin_step(&spins);
}
