#include "hcomm/placement.h"

#include <string.h>

_Static_assert(sizeof(struct placement_card) == 48, "a card is 48 bytes in every PE per peer");

#define WINDOW_BITS 64
#define WORDS (CPU_SETSIZE / WINDOW_BITS)

void placement_set_cpus(struct placement_card *card, const cpu_set_t *cpus)
{
    int first = -1;
    for (int c = 0; c < CPU_SETSIZE && first < 0; c++)
        if (CPU_ISSET(c, cpus))
            first = c;
    card->cpu_base = (uint16_t)(first < 0 ? 0 : first - first % WINDOW_BITS);
    card->cpu_window = first < 0 ? 1 : 0;
    card->cpus_wide = 0;
    for (int c = card->cpu_base; first >= 0 && c < CPU_SETSIZE; c++) {
        if (!CPU_ISSET(c, cpus))
            continue;
        if (c < card->cpu_base + WINDOW_BITS)
            card->cpu_window |= UINT64_C(1) << (c - card->cpu_base);
        else
            card->cpus_wide = 1;
    }
}

bool placement_wide(const struct placement_card *cards, int n)
{
    for (int p = 0; p < n; p++)
        if (cards[p].cpus_wide)
            return true;
    return false;
}

int placement_union_cpus(const struct placement_card *cards, const cpu_set_t *masks,
                         const int *order, int count)
{
    if (masks) {
        cpu_set_t all;
        CPU_ZERO(&all);
        for (int i = 0; i < count; i++)
            CPU_OR(&all, &all, &masks[order[i]]);
        return CPU_COUNT(&all);
    }
    uint64_t words[WORDS];
    memset(words, 0, sizeof words);
    for (int i = 0; i < count; i++) {
        const struct placement_card *c = &cards[order[i]];
        words[(c->cpu_base / WINDOW_BITS) % WORDS] |= c->cpu_window;
    }
    int n = 0;
    for (int w = 0; w < WORDS; w++)
        n += __builtin_popcountll(words[w]);
    return n;
}
