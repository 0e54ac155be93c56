#include "team/coll_nodes.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "hcomm/hcomm.h"
#include "util/log.h"

/* The last set this thread looked at: a program repeats collectives over the
 * same team, and the answer is a pass over the set's PEs. */
static _Thread_local struct {
    int start, stride, size, cap;
    bool pays;
    struct oshm_set_nodes nodes;
    int *leader, *local;
} last = {.size = -1};

/* A thread that runs collectives and ends (a device stream) frees its cache:
 * the key's destructor runs at that thread's exit with the arrays it held. */
static pthread_key_t cache_key;
static pthread_once_t cache_key_once = PTHREAD_ONCE_INIT;

static void cache_free(void *unused)
{
    (void)unused;
    free(last.leader);
    free(last.local);
    last.leader = last.local = NULL;
    last.cap = 0;
    last.size = -1;
}

static void cache_key_make(void)
{
    if (pthread_key_create(&cache_key, cache_free))
        oshm_fatal("collectives: no thread key for the node cache");
}

bool oshm_set_nodes(const struct oshm_pe_set *s, struct oshm_set_nodes *out)
{
    if (last.size == s->size && last.start == s->start && last.stride == s->stride) {
        *out = last.nodes;
        return last.pays;
    }
    if (s->size > last.cap) {
        if (!last.cap) {
            pthread_once(&cache_key_once, cache_key_make);
            pthread_setspecific(cache_key, &last);
        }
        int *a = realloc(last.leader, (size_t)s->size * sizeof *a);
        if (a)
            last.leader = a;
        int *b = realloc(last.local, (size_t)s->size * sizeof *b);
        if (b)
            last.local = b;
        if (!a || !b)
            oshm_fatal("collectives: out of memory for a set of %d PEs", s->size);
        last.cap = s->size;
    }
    struct oshm_set_nodes n = {.leader = last.leader, .local = last.local, .all_mapped = true};
    int my_node = hcomm_map_group(hcomm.my_pe);
    bool crowded = false; /* some node holds several PEs of the set */
    for (int i = 0; i < s->size; i++) {
        int node = hcomm_map_group(oshm_set_pe(s, i));
        n.all_mapped = n.all_mapped && hcomm_load_store(oshm_set_pe(s, i));
        bool first = true;
        for (int j = 0; j < n.n_leaders && first; j++)
            first = hcomm_map_group(oshm_set_pe(s, n.leader[j])) != node;
        if (first)
            last.leader[n.n_leaders++] = i;
        else
            crowded = true;
        if (node == my_node) {
            if (i == s->my_index)
                n.local_rank = n.n_local;
            last.local[n.n_local++] = i;
        }
    }
    for (int j = 0; j < n.n_leaders; j++)
        if (n.leader[j] == n.local[0])
            n.leader_rank = j;
    last.start = s->start;
    last.stride = s->stride;
    last.size = s->size;
    last.nodes = n;
    last.pays = crowded && n.n_leaders > 1;
    *out = n;
    return last.pays;
}
