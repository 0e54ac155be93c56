#include "fabric/fabric_ranges.h"

int fabric_card_add_segment(struct fabric_card *card, uint32_t seg, uint64_t base, uint64_t size)
{
    if (card->ntokens == FABRIC_MAX_TOKENS)
        return -1;
    card->token[card->ntokens++] = (struct fabric_token){.seg = seg, .base = base, .size = size};
    return 0;
}

int fabric_card_add_range(struct fabric_card *card, uint32_t seg, uint64_t seg_base, size_t start,
                          size_t end, const void *key, uint32_t key_len)
{
    if (card->ntokens == FABRIC_MAX_TOKENS)
        return -1;
    card->token[card->ntokens++] = (struct fabric_token){
        .seg = seg, .base = seg_base + start, .size = end - start, .key = key, .key_len = key_len};
    return 0;
}

int fabric_card_learn(const struct fabric_card *card, const struct fabric_peer_ranges *pr)
{
    for (uint32_t i = 0; i < card->ntokens; i++) {
        const struct fabric_token *t = &card->token[i];
        if (t->seg >= (uint32_t)pr->nsegs)
            return -1;
        int s = (int)t->seg;
        if (!t->key_len) { /* the segment itself */
            pr->base[s] = t->base;
            pr->size[s] = t->size;
            continue;
        }
        size_t expect;
        uint32_t n = pr->count(pr->peer, s, &expect);
        size_t start = (size_t)(t->base - pr->base[s]);
        /* In order and without a gap, inside the segment. */
        if (n >= pr->max_ranges || t->base < pr->base[s] || start != expect ||
            t->size > pr->size[s] - start)
            return -1;
        if (pr->add(pr->peer, s, n, start, start + t->size, t) != 0)
            return -1;
    }
    return 0;
}
