// The bootstrap's local table of (rank, key) -> value (src/boot/kvstore.c).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstring>

extern "C" {
#include "boot/kvstore.h"
}

TEST(KvStore, EmptyHasNothing)
{
    oshm_kvstore kv = {};
    long v = 0;
    EXPECT_EQ(oshm_kv_get(&kv, 0, "a", &v, sizeof v), -1);
    oshm_kv_clear(&kv);
}

TEST(KvStore, SetGetReplaceAndExactLength)
{
    oshm_kvstore kv = {};
    long a = 7, b = 9, out = 0;
    ASSERT_EQ(oshm_kv_set(&kv, 3, "card", &a, sizeof a), 0);
    ASSERT_EQ(oshm_kv_get(&kv, 3, "card", &out, sizeof out), 0);
    EXPECT_EQ(out, 7);
    // Another rank's key of the same name, and another key of the same rank.
    EXPECT_EQ(oshm_kv_get(&kv, 2, "card", &out, sizeof out), -1);
    EXPECT_EQ(oshm_kv_get(&kv, 3, "car", &out, sizeof out), -1);
    // The stored value must be exactly the length asked for.
    int small = 0;
    EXPECT_EQ(oshm_kv_get(&kv, 3, "card", &small, sizeof small), -1);
    ASSERT_EQ(oshm_kv_set(&kv, 3, "card", &b, sizeof b), 0);
    ASSERT_EQ(oshm_kv_get(&kv, 3, "card", &out, sizeof out), 0);
    EXPECT_EQ(out, 9);
    ASSERT_EQ(oshm_kv_set(&kv, 3, "empty", nullptr, 0), 0);
    EXPECT_EQ(oshm_kv_get(&kv, 3, "empty", nullptr, 0), 0);
    oshm_kv_clear(&kv);
    EXPECT_EQ(oshm_kv_get(&kv, 3, "card", &out, sizeof out), -1);
}

// A job's worth of records (keys alike but for the rank, as every PE
// publishes the same names) stays whole through the table's growth.
TEST(KvStore, ManyRanksAndKeys)
{
    oshm_kvstore kv = {};
    const int ranks = 4096;
    const char *keys[] = {"oshm.ag.0", "oshm.shm.card", "oshm.shm.card.len"};
    for (int r = 0; r < ranks; r++)
        for (int k = 0; k < 3; k++) {
            uint64_t v = (uint64_t)r * 3 + (uint64_t)k;
            ASSERT_EQ(oshm_kv_set(&kv, r, keys[k], &v, sizeof v), 0);
        }
    for (int r = ranks - 1; r >= 0; r--)
        for (int k = 0; k < 3; k++) {
            uint64_t v = ~0ull;
            ASSERT_EQ(oshm_kv_get(&kv, r, keys[k], &v, sizeof v), 0);
            ASSERT_EQ(v, (uint64_t)r * 3 + (uint64_t)k);
        }
    uint64_t v;
    EXPECT_EQ(oshm_kv_get(&kv, ranks, keys[0], &v, sizeof v), -1);
    EXPECT_EQ(oshm_kv_get(&kv, -1, keys[0], &v, sizeof v), -1);
    oshm_kv_clear(&kv);
}

// What travels at a fence: records serialized, then loaded as a rank's.
TEST(KvStore, RecordsRoundTripAndMalformedRefused)
{
    char *buf = nullptr;
    size_t len = 0;
    int x = 42;
    ASSERT_EQ(oshm_kv_append_record(&buf, &len, "x", &x, sizeof x), 0);
    ASSERT_EQ(oshm_kv_append_record(&buf, &len, "name", "abc", 4), 0);
    oshm_kvstore kv = {};
    ASSERT_EQ(oshm_kv_load_records(&kv, 5, buf, len), 0);
    int y = 0;
    char name[4] = {};
    ASSERT_EQ(oshm_kv_get(&kv, 5, "x", &y, sizeof y), 0);
    EXPECT_EQ(y, 42);
    ASSERT_EQ(oshm_kv_get(&kv, 5, "name", name, sizeof name), 0);
    EXPECT_STREQ(name, "abc");
    oshm_kvstore cut = {};
    EXPECT_EQ(oshm_kv_load_records(&cut, 1, buf, len - 1), -1);
    free(buf);
    oshm_kv_clear(&kv);
    oshm_kv_clear(&cut);
}
