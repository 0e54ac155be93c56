// Fabric cards: what a PE publishes so that a network transport reaches it.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

extern "C" {
#include "fabric/fabric.h"
}

TEST(FabricCard, RoundTrip)
{
    const char addr[] = "worker-address-bytes";
    const unsigned char key0[] = {1, 2, 3, 4, 5};
    fabric_card card = {};
    card.addr = addr;
    card.addr_len = sizeof addr;
    card.ntokens = 3;
    card.token[0] = {0, 0x10000, 1 << 20, key0, sizeof key0};
    card.token[1] = {1, 0x20000, 4096, nullptr, 0}; // a segment's extent, no key
    card.token[2] = {2, 0x7f0000000000ull, 1ull << 34, key0, 2};
    void *blob = nullptr;
    size_t len = 0;
    ASSERT_EQ(fabric_card_pack(&card, &blob, &len), 0);

    fabric_card back;
    ASSERT_EQ(fabric_card_unpack(blob, len, &back), 0);
    ASSERT_EQ(back.addr_len, sizeof addr);
    EXPECT_EQ(memcmp(back.addr, addr, sizeof addr), 0);
    ASSERT_EQ(back.ntokens, 3u);
    EXPECT_EQ(back.token[0].seg, 0u);
    EXPECT_EQ(back.token[1].seg, 1u);
    EXPECT_EQ(back.token[2].seg, 2u);
    EXPECT_EQ(back.token[0].base, 0x10000u);
    EXPECT_EQ(back.token[0].size, 1u << 20);
    ASSERT_EQ(back.token[0].key_len, sizeof key0);
    EXPECT_EQ(memcmp(back.token[0].key, key0, sizeof key0), 0);
    EXPECT_EQ(back.token[1].key_len, 0u);
    EXPECT_EQ(back.token[2].base, 0x7f0000000000ull);
    EXPECT_EQ(back.token[2].size, 1ull << 34);
    EXPECT_EQ(back.token[2].key_len, 2u);
    free(blob);
}

TEST(FabricCard, RejectsMalformed)
{
    fabric_card card = {};
    card.addr = "a";
    card.addr_len = 1;
    card.ntokens = 1;
    card.token[0] = {0, 1, 2, "kk", 2};
    void *blob = nullptr;
    size_t len = 0;
    ASSERT_EQ(fabric_card_pack(&card, &blob, &len), 0);
    fabric_card back;
    // every truncation, one byte too many, and a wrong magic
    for (size_t cut = 0; cut < len; cut++)
        EXPECT_EQ(fabric_card_unpack(blob, cut, &back), -1) << cut;
    char *longer = static_cast<char *>(malloc(len + 1));
    memcpy(longer, blob, len);
    longer[len] = 0;
    EXPECT_EQ(fabric_card_unpack(longer, len + 1, &back), -1);
    static_cast<char *>(blob)[0] ^= 0x55;
    EXPECT_EQ(fabric_card_unpack(blob, len, &back), -1);
    free(longer);
    free(blob);

    card.ntokens = FABRIC_MAX_TOKENS + 1;
    EXPECT_EQ(fabric_card_pack(&card, &blob, &len), -1);
}
