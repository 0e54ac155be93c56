#include "team/coll_hier.h"

#include <string.h>

#include "hcomm/hcomm.h"
#include "team/coll_net.h"

#define CH (&hcomm.default_channel)

/* The heads of the nodes for a broadcast from ROOT: each node's leader,
 * except that the root serves its own node. Into HEADS (n->n_leaders of
 * them); returns the root's rank among them. */
static int heads_for(const struct oshm_pe_set *s, const struct oshm_set_nodes *n, int root,
                     int *heads)
{
    int root_group = hcomm_map_group(oshm_set_pe(s, root)), at = 0;
    for (int j = 0; j < n->n_leaders; j++) {
        heads[j] = n->leader[j];
        if (hcomm_map_group(oshm_set_pe(s, heads[j])) == root_group) {
            heads[j] = root;
            at = j;
        }
    }
    return at;
}

void oshm_hier_bcast(const struct oshm_pe_set *s, const struct oshm_set_nodes *n, int root,
                     void *dest, const void *source, size_t bytes, enum oshm_coll_form form)
{
    int64_t *word = &s->sync[OSHM_SYNC_RELEASE_WORD];
    bool ack = form == OSHM_COLL_ACTIVE_SET;
    int *heads = oshm_coll_scratch((size_t)n->n_leaders * sizeof *heads, "broadcast");
    int root_rank = heads_for(s, n, root, heads);
    int my_head = heads[n->leader_rank];
    if (s->my_index != my_head) {
        oshm_take_i64(word, s->idle, hcomm_notify_units(bytes));
        if (ack)
            oshm_net_ack(s, my_head);
        return;
    }
    int locals = n->n_local - 1;
    if (ack && oshm_coll_defer())
        oshm_coll_expect(locals); /* before any of them can answer */
    struct oshm_net_group g = {.index = heads, .n = n->n_leaders, .me = n->leader_rank};
    oshm_net_bcast(s, &g, root_rank, dest, source, bytes, word, form);
    /* This node's PEs, by stores: from the root's source, or the dest the
     * network filled (the root's own dest is not written here). */
    const void *from = s->my_index == root ? source : dest;
    for (int i = 0; i < n->n_local; i++)
        if (n->local[i] != s->my_index)
            hcomm_notify(CH, dest, from, bytes, (uint64_t *)word, oshm_set_pe(s, n->local[i]),
                         "broadcast");
    if (ack && !oshm_coll_defer())
        oshm_net_expect_acks(s, locals);
}

void oshm_hier_allreduce(const struct oshm_pe_set *s, const struct oshm_set_nodes *n,
                         void *dest, const void *source, size_t count, size_t elem,
                         oshm_combine_fn combine)
{
    int64_t *arrive = &s->sync[OSHM_SYNC_ARRIVE_WORD];
    int64_t *release = &s->sync[OSHM_SYNC_RELEASE_WORD];
    size_t bytes = count * elem;
    if (n->local_rank > 0) {
        /* The leader reads this source and writes this dest while this PE
         * waits. */
        hcomm_notify(CH, NULL, NULL, 0, (uint64_t *)arrive, oshm_set_pe(s, n->local[0]), "reduce");
        oshm_take_i64(release, s->idle, 1);
        return;
    }
    if (n->n_local > 1)
        oshm_take_i64(arrive, s->idle, n->n_local - 1);
    if (dest != source)
        memmove(dest, source, bytes);
    for (int i = 1; i < n->n_local; i++)
        combine(dest, hcomm_ptr(source, oshm_set_pe(s, n->local[i]), "reduce"), count);
    struct oshm_net_group g = {.index = n->leader, .n = n->n_leaders, .me = n->leader_rank};
    oshm_net_allreduce(s, &g, dest, dest, count, elem, combine);
    for (int i = 1; i < n->n_local; i++) {
        int pe = oshm_set_pe(s, n->local[i]);
        memcpy(hcomm_ptr(dest, pe, "reduce"), dest, bytes);
        hcomm_notify(CH, NULL, NULL, 0, (uint64_t *)release, pe, "reduce");
    }
}
