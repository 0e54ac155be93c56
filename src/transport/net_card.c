#include "transport/net_card.h"

#include <sys/stat.h>

#include "util/log.h"

bool net_range_allowed(const struct net_ranges *r, int seg, size_t start, size_t end)
{
    if (r->nranges[seg] == r->max_ranges) {
        oshm_warn("%s: segment %d grew in more than %u steps", r->name, seg, r->max_ranges);
        return false;
    }
    /* The memory handle's size is the truth. */
    const struct backend_seg *s = &r->seg[seg];
    struct stat st;
    if (end > s->committed || fstat(s->mem.fd, &st) != 0 || (off_t)end > st.st_size) {
        oshm_warn("%s: refusing to register [%zu, %zu) of segment %d: only %zu bytes of it "
                  "have memory behind them", r->name, start, end, seg, s->committed);
        return false;
    }
    return true;
}

int net_register_committed(const struct net_ranges *r)
{
    for (int s = 0; s < BACKEND_MAX_SEGS; s++)
        if (r->seg[s].committed && r->add(s, 0, r->seg[s].committed) != 0)
            return -1;
    return 0;
}

/* Tokens for this PE's ranges from FIRST on, each segment's up to its last. */
static int add_ranges(const struct net_ranges *r, struct fabric_card *card, const uint32_t *first)
{
    for (int s = 0; s < BACKEND_MAX_SEGS; s++)
        for (uint32_t i = first[s]; i < r->nranges[s]; i++) {
            size_t start, end;
            const void *key;
            uint32_t key_len;
            r->range(s, i, &start, &end, &key, &key_len);
            if (fabric_card_add_range(card, (uint32_t)s, r->seg[s].base, start, end, key,
                                      key_len) != 0)
                return -1;
        }
    return 0;
}

int net_card(const struct net_ranges *r, const void *addr, size_t addr_len, void **blob,
             size_t *len)
{
    struct fabric_card card = {.addr = addr, .addr_len = (uint32_t)addr_len};
    for (int s = 0; s < BACKEND_MAX_SEGS; s++)
        if (r->seg[s].size)
            fabric_card_add_segment(&card, (uint32_t)s, r->seg[s].base, r->seg[s].size);
    uint32_t all[BACKEND_MAX_SEGS] = {0};
    if (add_ranges(r, &card, all) != 0)
        return -1;
    return fabric_card_pack(&card, blob, len);
}

int net_grow(const struct net_ranges *r, int seg, size_t committed, void **blob, size_t *len)
{
    *blob = NULL;
    *len = 0;
    uint32_t first[BACKEND_MAX_SEGS];
    for (int s = 0; s < BACKEND_MAX_SEGS; s++)
        first[s] = r->nranges[s];
    size_t from = 0, start;
    const void *key;
    uint32_t key_len;
    if (first[seg])
        r->range(seg, first[seg] - 1, &start, &from, &key, &key_len);
    if (committed <= from)
        return 0;
    if (r->add(seg, from, committed) != 0)
        return -1;
    struct fabric_card card = {0};
    if (add_ranges(r, &card, first) != 0)
        return -1;
    return fabric_card_pack(&card, blob, len);
}

int net_learn(const char *name, int pe, const void *blob, size_t len, bool with_addr,
              const struct fabric_peer_ranges *pr, struct fabric_card *card)
{
    if (fabric_card_unpack(blob, len, card) != 0 || (with_addr && !card->addr_len) ||
        fabric_card_learn(card, pr) != 0) {
        oshm_warn("malformed %s %s from PE %d", name, with_addr ? "card" : "memory keys", pe);
        return -1;
    }
    return 0;
}
