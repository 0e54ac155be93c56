#include "transport/mailbox.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"

/* A list: a collective holds a few messages at a time (one a step from a
 * partner that is ahead of this PE), so a search is a few compares. */
struct mail {
    struct mail *next;
    uint64_t tag;
    size_t len;
    int from;
    unsigned char data[];
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct mail *head, **tail = &head;
static size_t held;

int mailbox_drop(int from, uint64_t tag, const void *data, size_t len)
{
    if (len > MAILBOX_MSG_MAX) {
        oshm_warn("a message of %zu bytes from PE %d was dropped (at most %u)", len, from,
                  MAILBOX_MSG_MAX);
        return -1;
    }
    pthread_mutex_lock(&lock);
    size_t before = held;
    bool full = before + len > MAILBOX_HOLD_MAX;
    if (!full)
        held += len;
    pthread_mutex_unlock(&lock);
    if (full) {
        oshm_warn("a message from PE %d was dropped: %zu bytes of messages are held already",
                  from, before);
        return -1;
    }
    struct mail *m = malloc(sizeof *m + len);
    if (!m)
        oshm_fatal("out of memory for a message of %zu bytes from PE %d", len, from);
    *m = (struct mail){.tag = tag, .len = len, .from = from};
    if (len)
        memcpy(m->data, data, len);
    pthread_mutex_lock(&lock);
    *tail = m;
    tail = &m->next;
    pthread_mutex_unlock(&lock);
    return 0;
}

bool mailbox_take(int from, uint64_t tag, void *dst, size_t len)
{
    pthread_mutex_lock(&lock);
    struct mail **at = &head;
    while (*at && !((*at)->from == from && (*at)->tag == tag))
        at = &(*at)->next;
    struct mail *m = *at;
    if (m) {
        *at = m->next;
        if (tail == &m->next)
            tail = at;
        held -= m->len;
    }
    pthread_mutex_unlock(&lock);
    if (!m)
        return false;
    if (m->len != len)
        oshm_fatal("a message from PE %d held %zu bytes where this PE expected %zu", from,
                   m->len, len);
    if (len)
        memcpy(dst, m->data, len);
    free(m);
    return true;
}

void mailbox_clear(void)
{
    pthread_mutex_lock(&lock);
    struct mail *m = head;
    head = NULL;
    tail = &head;
    held = 0;
    pthread_mutex_unlock(&lock);
    while (m) {
        struct mail *next = m->next;
        free(m);
        m = next;
    }
}
