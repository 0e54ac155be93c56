#include "boot/kvstore.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct oshm_kv_entry {
    struct oshm_kv_entry *next;
    int rank;
    size_t len;
    char *key;
    unsigned char value[];
};

static struct oshm_kv_entry **find_slot(struct oshm_kvstore *kv, int rank, const char *key)
{
    struct oshm_kv_entry **slot = &kv->head;
    for (; *slot; slot = &(*slot)->next)
        if ((*slot)->rank == rank && strcmp((*slot)->key, key) == 0)
            break;
    return slot;
}

int oshm_kv_set(struct oshm_kvstore *kv, int rank, const char *key, const void *value, size_t len)
{
    struct oshm_kv_entry **slot = find_slot(kv, rank, key);
    struct oshm_kv_entry *e = malloc(sizeof *e + len);
    if (!e)
        return -1;
    e->key = strdup(key);
    if (!e->key) {
        free(e);
        return -1;
    }
    e->rank = rank;
    e->len = len;
    memcpy(e->value, value, len);
    if (*slot) { /* replace */
        e->next = (*slot)->next;
        free((*slot)->key);
        free(*slot);
    } else {
        e->next = NULL;
    }
    *slot = e;
    return 0;
}

int oshm_kv_get(const struct oshm_kvstore *kv, int rank, const char *key, void *value, size_t len)
{
    struct oshm_kv_entry **slot = find_slot((struct oshm_kvstore *)kv, rank, key);
    if (!*slot || (*slot)->len != len)
        return -1;
    memcpy(value, (*slot)->value, len);
    return 0;
}

void oshm_kv_clear(struct oshm_kvstore *kv)
{
    while (kv->head) {
        struct oshm_kv_entry *e = kv->head;
        kv->head = e->next;
        free(e->key);
        free(e);
    }
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
    while (pos < len) {
        uint32_t klen, vlen;
        if (len - pos < 4)
            return -1;
        memcpy(&klen, buf + pos, 4);
        pos += 4;
        if (klen >= sizeof key || len - pos < (size_t)klen + 4)
            return -1;
        memcpy(key, buf + pos, klen);
        key[klen] = '\0';
        pos += klen;
        memcpy(&vlen, buf + pos, 4);
        pos += 4;
        if (len - pos < vlen)
            return -1;
        if (oshm_kv_set(kv, rank, key, buf + pos, vlen) != 0)
            return -1;
        pos += vlen;
    }
    return 0;
}
