// Start-up placement cards (src/hcomm/placement.c): a PE's cores as one
// 64-bit window of its affinity mask, and the cores PEs share between them.
#include <gtest/gtest.h>

#include <initializer_list>
#include <vector>

#define _Static_assert static_assert
extern "C" {
#include "hcomm/placement.h"
}
#undef _Static_assert

namespace {

placement_card card_of(std::initializer_list<int> cores, cpu_set_t *mask = nullptr)
{
    cpu_set_t s;
    CPU_ZERO(&s);
    for (int c : cores)
        CPU_SET(c, &s);
    placement_card card = {};
    placement_set_cpus(&card, &s);
    if (mask)
        *mask = s;
    return card;
}

int union_of(const std::vector<placement_card> &cards, const cpu_set_t *masks = nullptr)
{
    std::vector<int> order;
    for (int i = 0; i < (int)cards.size(); i++)
        order.push_back(i);
    return placement_union_cpus(cards.data(), masks, order.data(), (int)order.size());
}

} // namespace

TEST(Placement, WindowHoldsTheMask)
{
    placement_card c = card_of({3, 5});
    EXPECT_EQ(c.cpu_base, 0);
    EXPECT_EQ(c.cpu_window, (1u << 3) | (1u << 5));
    EXPECT_EQ(c.cpus_wide, 0);
    c = card_of({70, 127});
    EXPECT_EQ(c.cpu_base, 64);
    EXPECT_EQ(c.cpu_window, (UINT64_C(1) << 6) | (UINT64_C(1) << 63));
    EXPECT_EQ(c.cpus_wide, 0);
    c = card_of({});
    EXPECT_EQ(c.cpu_window, 1u); // no mask: core 0
}

TEST(Placement, MaskWiderThanItsWindowSaysSo)
{
    std::vector<placement_card> cards = {card_of({0, 1}), card_of({10, 80})};
    EXPECT_EQ(cards[1].cpus_wide, 1);
    EXPECT_FALSE(placement_wide(cards.data(), 1));
    EXPECT_TRUE(placement_wide(cards.data(), 2));
}

TEST(Placement, UnionFromWindows)
{
    // Two PEs bound each to a core of its own; three free on the same two.
    EXPECT_EQ(union_of({card_of({0}), card_of({1})}), 2);
    EXPECT_EQ(union_of({card_of({0, 1}), card_of({0, 1}), card_of({0, 1})}), 2);
    // Windows at different bases add up.
    EXPECT_EQ(union_of({card_of({3}), card_of({70}), card_of({3, 4})}), 3);
}

TEST(Placement, UnionFromWholeMasks)
{
    cpu_set_t masks[2];
    std::vector<placement_card> cards = {card_of({0, 100}, &masks[0]),
                                         card_of({100, 200, 300}, &masks[1])};
    EXPECT_EQ(union_of(cards, masks), 4);
}
