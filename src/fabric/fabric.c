#include "fabric/fabric.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* Wire form: u32 magic, u32 addr_len, addr, u32 ntokens, then per token
 * u32 seg, u64 base, u64 size, u32 key_len, key. Host byte order: a job runs one
 * build of the library on machines of one architecture. */
#define FABRIC_MAGIC 0x6f66626bu

struct writer {
    char *p;
};

static void put_bytes(struct writer *w, const void *src, size_t n)
{
    if (n)
        memcpy(w->p, src, n);
    w->p += n;
}

int fabric_card_pack(const struct fabric_card *card, void **blob, size_t *len)
{
    if (card->ntokens > FABRIC_MAX_TOKENS)
        return -1;
    size_t total = 4 + 4 + card->addr_len + 4;
    for (uint32_t i = 0; i < card->ntokens; i++)
        total += 4 + 8 + 8 + 4 + card->token[i].key_len;
    char *buf = malloc(total);
    if (!buf)
        return -1;
    struct writer w = {buf};
    uint32_t magic = FABRIC_MAGIC;
    put_bytes(&w, &magic, 4);
    put_bytes(&w, &card->addr_len, 4);
    put_bytes(&w, card->addr, card->addr_len);
    put_bytes(&w, &card->ntokens, 4);
    for (uint32_t i = 0; i < card->ntokens; i++) {
        const struct fabric_token *t = &card->token[i];
        put_bytes(&w, &t->seg, 4);
        put_bytes(&w, &t->base, 8);
        put_bytes(&w, &t->size, 8);
        put_bytes(&w, &t->key_len, 4);
        put_bytes(&w, t->key, t->key_len);
    }
    *blob = buf;
    *len = total;
    return 0;
}

struct reader {
    const char *p;
    size_t left;
};

static int get_bytes(struct reader *r, void *dst, size_t n)
{
    if (r->left < n)
        return -1;
    memcpy(dst, r->p, n);
    r->p += n;
    r->left -= n;
    return 0;
}

static const void *skip_bytes(struct reader *r, size_t n)
{
    if (r->left < n)
        return NULL;
    const void *at = r->p;
    r->p += n;
    r->left -= n;
    return at;
}

int fabric_card_unpack(const void *blob, size_t len, struct fabric_card *card)
{
    struct reader r = {blob, len};
    uint32_t magic;
    memset(card, 0, sizeof *card);
    if (get_bytes(&r, &magic, 4) || magic != FABRIC_MAGIC || get_bytes(&r, &card->addr_len, 4) ||
        !(card->addr = skip_bytes(&r, card->addr_len)) || get_bytes(&r, &card->ntokens, 4) ||
        card->ntokens > FABRIC_MAX_TOKENS)
        return -1;
    for (uint32_t i = 0; i < card->ntokens; i++) {
        struct fabric_token *t = &card->token[i];
        if (get_bytes(&r, &t->seg, 4) || get_bytes(&r, &t->base, 8) || get_bytes(&r, &t->size, 8) ||
            get_bytes(&r, &t->key_len, 4) || !(t->key = skip_bytes(&r, t->key_len)))
            return -1;
    }
    return r.left == 0 ? 0 : -1;
}

/* The bootstrap reads values of a known length: the length travels first,
 * under its own key. */
int fabric_card_publish(const struct fabric_exchange *x, const char *name, const void *blob,
                        size_t len)
{
    char lkey[64];
    uint64_t l = len;
    snprintf(lkey, sizeof lkey, "%s.len", name);
    if (x->put(lkey, &l, sizeof l) != 0)
        return -1;
    return x->put(name, blob, len);
}

int fabric_card_fetch(const struct fabric_exchange *x, int pe, const char *name, void **blob,
                      size_t *len)
{
    char lkey[64];
    uint64_t l;
    snprintf(lkey, sizeof lkey, "%s.len", name);
    if (x->get(pe, lkey, &l, sizeof l) != 0 || l > (64u << 20))
        return -1;
    void *buf = malloc(l ? l : 1);
    if (!buf)
        return -1;
    if (x->get(pe, name, buf, l) != 0) {
        free(buf);
        return -1;
    }
    *blob = buf;
    *len = l;
    return 0;
}
