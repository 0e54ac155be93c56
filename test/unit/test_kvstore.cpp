// The bootstrap's local table of (rank, key) -> value (src/boot/kvstore.c).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <cerrno>
#include <cstdlib>
#include <string>
#include <vector>

#include <sys/mman.h>

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

// Bytes of a u64.
static std::string u64(uint64_t v) { return std::string(reinterpret_cast<const char *>(&v), 8); }

// A read-only mapping of ALL, as the store gets an exchange.
static char *map_bytes(const std::string &all, size_t *len)
{
    void *m = mmap(nullptr, all.size(), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return nullptr;
    memcpy(m, all.data(), all.size());
    mprotect(m, all.size(), PROT_READ);
    *len = all.size();
    return static_cast<char *>(m);
}

// An exchange as the launcher's server shares it (an index of where each
// rank's block begins, then for each rank u64 length + its records), in a
// read-only mapping the store reads in place.
static char *map_exchange(const std::vector<std::string> &blocks, size_t *len)
{
    std::string index, data;
    uint64_t head = (blocks.size() + 1) * 8;
    for (const std::string &b : blocks) {
        index += u64(head + data.size());
        data += u64(b.size()) + b;
    }
    index += u64(head + data.size());
    return map_bytes(index + data, len);
}

static std::string records(std::initializer_list<std::pair<const char *, std::string>> kvs)
{
    char *buf = nullptr;
    size_t len = 0;
    for (const auto &kv : kvs)
        EXPECT_EQ(oshm_kv_append_record(&buf, &len, kv.first, kv.second.data(), kv.second.size()), 0);
    std::string s(buf ? buf : "", len);
    free(buf);
    return s;
}

TEST(KvStore, AdoptedExchangeReadInPlace)
{
    oshm_kvstore kv = {};
    size_t len1 = 0, len2 = 0;
    char *first = map_exchange({records({{"ag", "r0"}}), records({}),
                                records({{"ag", "r2"}, {"card", "c2"}})},
                               &len1);
    ASSERT_NE(first, nullptr);
    ASSERT_EQ(oshm_kv_adopt(&kv, 3, first, len1, len1), 0);
    char v[3] = {};
    ASSERT_EQ(oshm_kv_get(&kv, 2, "card", v, 2), 0);
    EXPECT_STREQ(v, "c2");
    ASSERT_EQ(oshm_kv_get(&kv, 0, "ag", v, 2), 0);
    EXPECT_STREQ(v, "r0");
    EXPECT_EQ(oshm_kv_get(&kv, 1, "ag", v, 2), -1); // rank 1 published nothing
    EXPECT_EQ(oshm_kv_get(&kv, 0, "card", v, 2), -1); // another rank's key
    EXPECT_EQ(oshm_kv_get(&kv, 2, "ag", v, 1), -1);   // not the stored length
    EXPECT_EQ(oshm_kv_get(&kv, 3, "ag", v, 2), -1);   // no such rank
    // A later exchange is read first; a value set here before either wins.
    char *second = map_exchange({records({{"ag", "n0"}, {"grow", "g0"}}), records({}), records({})},
                                &len2);
    ASSERT_NE(second, nullptr);
    ASSERT_EQ(oshm_kv_adopt(&kv, 3, second, len2, len2), 0);
    ASSERT_EQ(oshm_kv_get(&kv, 0, "ag", v, 2), 0);
    EXPECT_STREQ(v, "n0");
    ASSERT_EQ(oshm_kv_get(&kv, 2, "ag", v, 2), 0);
    EXPECT_STREQ(v, "r2");
    ASSERT_EQ(oshm_kv_set(&kv, 0, "grow", "s0", 2), 0);
    ASSERT_EQ(oshm_kv_get(&kv, 0, "grow", v, 2), 0);
    EXPECT_STREQ(v, "s0");
    oshm_kv_clear(&kv); // unmaps both
    EXPECT_EQ(oshm_kv_get(&kv, 0, "ag", v, 2), -1);
    EXPECT_EQ(msync(first, len1, MS_ASYNC), -1);
    EXPECT_EQ(errno, ENOMEM);
}

TEST(KvStore, AdoptRefusesMalformedExchanges)
{
    oshm_kvstore kv = {};
    size_t len = 0;
    // Fewer blocks than ranks.
    char *two = map_exchange({records({{"a", "1"}}), records({})}, &len);
    ASSERT_NE(two, nullptr);
    EXPECT_EQ(oshm_kv_adopt(&kv, 3, two, len, len), -1);
    EXPECT_EQ(oshm_kv_adopt(&kv, 0, two, len, len), -1);
    munmap(two, len);
    // An index that runs past the data, goes backwards, or leaves a block
    // no room for its length.
    size_t blen = 0;
    char *past = map_bytes(u64(16) + u64(1u << 20) + u64(0), &blen);
    ASSERT_NE(past, nullptr);
    EXPECT_EQ(oshm_kv_adopt(&kv, 1, past, blen, blen), -1);
    munmap(past, blen);
    char *back = map_bytes(u64(24) + u64(16) + u64(40) + u64(0) + u64(0), &blen);
    ASSERT_NE(back, nullptr);
    EXPECT_EQ(oshm_kv_adopt(&kv, 2, back, blen, blen), -1);
    munmap(back, blen);
    char *tight = map_bytes(u64(24) + u64(28) + u64(40) + u64(0) + u64(0), &blen);
    ASSERT_NE(tight, nullptr);
    EXPECT_EQ(oshm_kv_adopt(&kv, 2, tight, blen, blen), -1);
    munmap(tight, blen);
    char *fine = map_bytes(u64(24) + u64(32) + u64(40) + u64(0) + u64(0), &blen);
    ASSERT_NE(fine, nullptr);
    EXPECT_EQ(oshm_kv_adopt(&kv, 2, fine, blen, blen), 0); // the store owns it now
    // Shorter than its index.
    char *stub = map_bytes(u64(16), &blen);
    ASSERT_NE(stub, nullptr);
    EXPECT_EQ(oshm_kv_adopt(&kv, 1, stub, blen, blen), -1);
    munmap(stub, blen);
    // A record whose value runs past its rank's block: found malformed at the get.
    std::string rec = records({{"k", "vv"}});
    rec.resize(rec.size() - 1);
    char *cut = map_exchange({rec, records({{"k", "ok"}})}, &len);
    ASSERT_NE(cut, nullptr);
    ASSERT_EQ(oshm_kv_adopt(&kv, 2, cut, len, len), 0);
    char v[3] = {};
    EXPECT_EQ(oshm_kv_get(&kv, 0, "k", v, 2), -1);
    ASSERT_EQ(oshm_kv_get(&kv, 1, "k", v, 2), 0);
    EXPECT_STREQ(v, "ok");
    oshm_kv_clear(&kv);
}

// The last exchange can outlive forget (a peer reached later reads its
// card there); the older ones, and later ones, go at the next forget.
TEST(KvStore, RetainKeepsTheLastExchangeOnly)
{
    oshm_kvstore kv = {};
    EXPECT_EQ(oshm_kv_retain(&kv), -1); // nothing to keep
    size_t l1 = 0, l2 = 0, l3 = 0;
    char *ag = map_exchange({records({{"ag", "a0"}}), records({{"ag", "a1"}})}, &l1);
    char *cards = map_exchange({records({{"shm", "s0"}}), records({{"shm", "s1"}})}, &l2);
    ASSERT_NE(ag, nullptr);
    ASSERT_NE(cards, nullptr);
    ASSERT_EQ(oshm_kv_adopt(&kv, 2, ag, l1, l1), 0);
    ASSERT_EQ(oshm_kv_adopt(&kv, 2, cards, l2, l2), 0);
    ASSERT_EQ(oshm_kv_retain(&kv), 0);
    ASSERT_EQ(oshm_kv_set(&kv, 0, "mine", "m", 1), 0);
    oshm_kv_forget(&kv);
    char v[3] = {};
    ASSERT_EQ(oshm_kv_get(&kv, 1, "shm", v, 2), 0);
    EXPECT_STREQ(v, "s1");
    EXPECT_EQ(oshm_kv_get(&kv, 1, "ag", v, 2), -1);
    EXPECT_EQ(oshm_kv_get(&kv, 0, "mine", v, 1), -1);
    // A heap growth's exchange after it: read, then forgotten; the kept one stays.
    char *grow = map_exchange({records({{"grow", "g0"}}), records({})}, &l3);
    ASSERT_NE(grow, nullptr);
    ASSERT_EQ(oshm_kv_adopt(&kv, 2, grow, l3, l3), 0);
    ASSERT_EQ(oshm_kv_get(&kv, 0, "grow", v, 2), 0);
    oshm_kv_forget(&kv);
    EXPECT_EQ(oshm_kv_get(&kv, 0, "grow", v, 2), -1);
    ASSERT_EQ(oshm_kv_get(&kv, 0, "shm", v, 2), 0);
    EXPECT_STREQ(v, "s0");
    oshm_kv_clear(&kv);
    EXPECT_EQ(oshm_kv_get(&kv, 0, "shm", v, 2), -1);
}
