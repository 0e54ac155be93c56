#include "boot/kvstore.h"

#include <malloc.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

struct oshm_kv_view {
    struct oshm_kv_view *next;
    const char *base;
    size_t map_len;
    int nranks; /* the index: NRANKS + 1 u64 offsets at BASE (kvstore.h) */
};

/* Where rank R's block begins (R = nranks: where the data end). */
static uint64_t block_at(const struct oshm_kv_view *v, int r)
{
    uint64_t at;
    memcpy(&at, v->base + (size_t)r * sizeof at, sizeof at);
    return at;
}

struct oshm_kv_entry {
    uint64_t hash;
    int rank;
    uint32_t klen;
    size_t len;
    char data[]; /* the key, its NUL, then the value */
};

static uint64_t hash_of(int rank, const char *key, size_t klen)
{
    uint64_t h = 1469598103934665603ull ^ (uint64_t)(uint32_t)rank * 0x9e3779b97f4a7c15ull;
    for (size_t i = 0; i < klen; i++)
        h = (h ^ (unsigned char)key[i]) * 1099511628211ull;
    return h ^ (h >> 29);
}

static bool same(const struct oshm_kv_entry *e, uint64_t h, int rank, const char *key,
                 size_t klen)
{
    return e->hash == h && e->rank == rank && e->klen == klen && memcmp(e->data, key, klen) == 0;
}

/* The slot of (RANK, KEY): its entry's, or the empty one it would take. */
static struct oshm_kv_entry **find_slot(const struct oshm_kvstore *kv, uint64_t h, int rank,
                                        const char *key, size_t klen)
{
    size_t mask = kv->cap - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask)
        if (!kv->slot[i] || same(kv->slot[i], h, rank, key, klen))
            return &kv->slot[i];
}

/* Keeps the table at most half full. */
static int make_room(struct oshm_kvstore *kv)
{
    if (kv->cap && (kv->count + 1) * 2 <= kv->cap)
        return 0;
    size_t cap = kv->cap ? kv->cap * 2 : 64;
    struct oshm_kv_entry **slot = calloc(cap, sizeof *slot);
    if (!slot)
        return -1;
    for (size_t i = 0; i < kv->cap; i++) {
        struct oshm_kv_entry *e = kv->slot[i];
        if (!e)
            continue;
        size_t j = e->hash & (cap - 1);
        while (slot[j])
            j = (j + 1) & (cap - 1);
        slot[j] = e;
    }
    free(kv->slot);
    kv->slot = slot;
    kv->cap = cap;
    return 0;
}

int oshm_kv_set(struct oshm_kvstore *kv, int rank, const char *key, const void *value, size_t len)
{
    size_t klen = strlen(key);
    if (klen > UINT32_MAX || make_room(kv) != 0)
        return -1;
    uint64_t h = hash_of(rank, key, klen);
    struct oshm_kv_entry *e = malloc(sizeof *e + klen + 1 + len);
    if (!e)
        return -1;
    *e = (struct oshm_kv_entry){.hash = h, .rank = rank, .klen = (uint32_t)klen, .len = len};
    memcpy(e->data, key, klen + 1);
    if (len) /* an empty value may come as NULL */
        memcpy(e->data + klen + 1, value, len);
    struct oshm_kv_entry **slot = find_slot(kv, h, rank, key, klen);
    if (*slot)
        free(*slot); /* replaced */
    else
        kv->count++;
    *slot = e;
    return 0;
}

/* One record (oshm_kv_append_record's format) of BUF[0, LEN) at *POS,
 * where its key and value lie: 1 and *POS past it; 0 at the end; -1 when
 * the record runs past LEN. */
struct record {
    const char *key, *value;
    uint32_t klen, vlen;
};

static int next_record(const char *buf, size_t len, size_t *pos, struct record *r)
{
    size_t p = *pos;
    if (p == len)
        return 0;
    if (len - p < 4)
        return -1;
    memcpy(&r->klen, buf + p, 4);
    p += 4;
    if (len - p < (size_t)r->klen + 4)
        return -1;
    r->key = buf + p;
    p += r->klen;
    memcpy(&r->vlen, buf + p, 4);
    p += 4;
    if (len - p < r->vlen)
        return -1;
    r->value = buf + p;
    *pos = p + r->vlen;
    return 1;
}

/* The value of KEY among the records BUF[0, LEN): 0 and *VALUE, *VLEN; 1
 * when absent; -1 when the records are malformed. */
static int find_record(const char *buf, size_t len, const char *key, size_t klen,
                       const char **value, uint32_t *vlen)
{
    size_t pos = 0;
    struct record r;
    int rc;
    while ((rc = next_record(buf, len, &pos, &r)) == 1)
        if (r.klen == klen && memcmp(r.key, key, klen) == 0) {
            *value = r.value;
            *vlen = r.vlen;
            return 0;
        }
    return rc < 0 ? -1 : 1;
}

int oshm_kv_get(const struct oshm_kvstore *kv, int rank, const char *key, void *value, size_t len)
{
    size_t klen = strlen(key);
    if (kv->cap) {
        const struct oshm_kv_entry *e = *find_slot(kv, hash_of(rank, key, klen), rank, key, klen);
        if (e) {
            if (e->len != len)
                return -1;
            if (len)
                memcpy(value, e->data + e->klen + 1, len);
            return 0;
        }
    }
    for (const struct oshm_kv_view *v = kv->views; v; v = v->next) {
        if (rank < 0 || rank >= v->nranks)
            continue;
        const char *found;
        uint32_t vlen;
        uint64_t at = block_at(v, rank);
        int rc = find_record(v->base + at + 8, block_at(v, rank + 1) - at - 8, key,
                             klen, &found, &vlen);
        if (rc < 0)
            return -1;
        if (rc == 0) {
            if (vlen != len)
                return -1;
            if (len)
                memcpy(value, found, len);
            return 0;
        }
    }
    return -1;
}

int oshm_kv_adopt(struct oshm_kvstore *kv, int nranks, const char *base, size_t len,
                  size_t map_len)
{
    if (nranks <= 0)
        return -1;
    struct oshm_kv_view v = {.base = base, .map_len = map_len, .nranks = nranks};
    /* Only the index is read here: each rank's block, when a get asks for
     * it (walking every block's header touched every page of the data,
     * 0.28 ms a PE at 1,024 PEs). */
    uint64_t head = ((uint64_t)nranks + 1) * 8;
    if (len < head || block_at(&v, 0) != head || block_at(&v, nranks) != len)
        return -1;
    for (int r = 0; r < nranks; r++) {
        uint64_t at = block_at(&v, r), next = block_at(&v, r + 1);
        if (next < at || next - at < 8)
            return -1;
    }
    struct oshm_kv_view *kept = malloc(sizeof *kept);
    if (!kept)
        return -1;
    *kept = v;
    kept->next = kv->views;
    kv->views = kept;
    return 0;
}

/* Unmaps and frees the views of the list at *HEAD up to UNTIL (NULL: all). */
static void drop_views(struct oshm_kv_view **head, const struct oshm_kv_view *until)
{
    while (*head != until) {
        struct oshm_kv_view *v = *head;
        *head = v->next;
        munmap((void *)v->base, v->map_len);
        free(v);
    }
}

static void drop_entries(struct oshm_kvstore *kv)
{
    for (size_t i = 0; i < kv->cap; i++)
        free(kv->slot[i]);
    free(kv->slot);
    kv->slot = NULL;
    kv->cap = kv->count = 0;
}

void oshm_kv_clear(struct oshm_kvstore *kv)
{
    drop_entries(kv);
    drop_views(&kv->views, NULL);
    kv->retained = NULL;
}

void oshm_kv_forget(struct oshm_kvstore *kv)
{
    drop_entries(kv);
    struct oshm_kv_view *keep = kv->retained;
    drop_views(&kv->views, keep);
    if (keep) /* and the older ones */
        drop_views(&keep->next, NULL);
    malloc_trim(0);
}

int oshm_kv_retain(struct oshm_kvstore *kv)
{
    kv->retained = kv->views;
    return kv->views ? 0 : -1;
}

int oshm_kv_append_record(char **buf, size_t *len, const char *key, const void *value, size_t vlen)
{
    uint32_t klen = (uint32_t)strlen(key), vl = (uint32_t)vlen;
    size_t add = 8 + klen + vlen;
    char *nb = realloc(*buf, *len + add);
    if (!nb)
        return -1;
    char *p = nb + *len;
    memcpy(p, &klen, 4);
    memcpy(p + 4, key, klen);
    memcpy(p + 4 + klen, &vl, 4);
    memcpy(p + 8 + klen, value, vlen);
    *buf = nb;
    *len += add;
    return 0;
}

int oshm_kv_load_records(struct oshm_kvstore *kv, int rank, const char *buf, size_t len)
{
    size_t pos = 0;
    char key[256];
    struct record r;
    int rc;
    while ((rc = next_record(buf, len, &pos, &r)) == 1) {
        if (r.klen >= sizeof key)
            return -1;
        memcpy(key, r.key, r.klen);
        key[r.klen] = '\0';
        if (oshm_kv_set(kv, rank, key, r.value, r.vlen) != 0)
            return -1;
    }
    return rc;
}
