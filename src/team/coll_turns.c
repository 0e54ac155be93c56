#include "team/coll_turns.h"

#include <stdbool.h>
#include <stdlib.h>

#include "util/log.h"

/* An open-addressed table: a program uses a few pSync and pWrk arrays,
 * each with the log2 n partners of its sets. Only the threads that may run
 * collectives side by side (SHMEM_THREAD_MULTIPLE) could race on it, and
 * its one user (coll_net.c) runs only where none may. */
struct turn {
    uint64_t where; /* segment << 56 | offset */
    int32_t pe;
    int16_t k;
    bool used;
    uint32_t count;
};

static struct turn *table;
static size_t cap, n_used;

static size_t hash(uint64_t where, int pe, int k)
{
    uint64_t h = (where ^ ((uint64_t)(uint32_t)pe << 20) ^ (uint64_t)k) * 0x9E3779B97F4A7C15ull;
    return (size_t)(h ^ h >> 31);
}

static struct turn *find(struct turn *t, size_t n, uint64_t where, int pe, int k)
{
    size_t i = hash(where, pe, k) & (n - 1);
    while (t[i].used && !(t[i].where == where && t[i].pe == pe && t[i].k == k))
        i = (i + 1) & (n - 1);
    return &t[i];
}

static void grow(void)
{
    size_t n = cap ? cap * 2 : 64;
    struct turn *t = calloc(n, sizeof *t);
    if (!t)
        oshm_fatal("collective: out of memory for the table of partner turns (%zu entries)", n);
    for (size_t i = 0; i < cap; i++)
        if (table[i].used)
            *find(t, n, table[i].where, table[i].pe, table[i].k) = table[i];
    free(table);
    table = t;
    cap = n;
}

uint32_t oshm_coll_turn(int seg, size_t off, int pe, int k)
{
    uint64_t where = (uint64_t)seg << 56 | off;
    if (2 * (n_used + 1) > cap)
        grow();
    struct turn *t = find(table, cap, where, pe, k);
    if (!t->used) {
        *t = (struct turn){.where = where, .pe = pe, .k = (int16_t)k, .used = true};
        n_used++;
    }
    return t->count++;
}
