#include "transport/chan_pool.h"

struct chan_pool_entry *chan_pool_take(struct chan_pool *p)
{
    pthread_mutex_lock(&p->lock);
    struct chan_pool_entry *e = p->idle;
    if (e) {
        p->idle = e->next;
        p->nidle--;
        e->next = NULL;
    }
    pthread_mutex_unlock(&p->lock);
    return e;
}

void chan_pool_add(struct chan_pool *p, struct chan_pool_entry *e)
{
    pthread_mutex_lock(&p->lock);
    e->next = p->open;
    p->open = e;
    pthread_mutex_unlock(&p->lock);
}

bool chan_pool_retire(struct chan_pool *p, struct chan_pool_entry *e, bool keepable)
{
    pthread_mutex_lock(&p->lock);
    for (struct chan_pool_entry **c = &p->open; *c; c = &(*c)->next)
        if (*c == e) {
            *c = e->next;
            break;
        }
    bool keep = keepable && p->nidle < CHAN_POOL_KEEP;
    e->next = NULL;
    if (keep) {
        e->next = p->idle;
        p->idle = e;
        p->nidle++;
    }
    pthread_mutex_unlock(&p->lock);
    return keep;
}

void chan_pool_drain(struct chan_pool *p, void (*free_entry)(struct chan_pool_entry *e))
{
    struct chan_pool_entry *lists[2] = {p->open, p->idle};
    p->open = p->idle = NULL;
    p->nidle = 0;
    for (int l = 0; l < 2; l++)
        while (lists[l]) {
            struct chan_pool_entry *e = lists[l];
            lists[l] = e->next;
            free_entry(e);
        }
}
