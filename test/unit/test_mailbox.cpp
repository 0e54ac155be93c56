// The mailbox (src/transport/mailbox.h): messages taken by sender and tag
// whatever the order they came in, each once, with their bytes; what a
// stranger could send is bounded.
#include <gtest/gtest.h>

#include <cstring>
#include <thread>
#include <vector>

extern "C" {
#include "transport/mailbox.h"
}

namespace {

struct Mailbox : ::testing::Test {
    void TearDown() override { mailbox_clear(); }
};

TEST_F(Mailbox, TakesBySenderAndTagWhateverTheOrder)
{
    long a = 1, b = 2, c = 3, got = 0;
    ASSERT_EQ(mailbox_drop(5, 7, &a, sizeof a), 0);
    ASSERT_EQ(mailbox_drop(6, 7, &b, sizeof b), 0);
    ASSERT_EQ(mailbox_drop(5, 8, &c, sizeof c), 0);
    EXPECT_FALSE(mailbox_take(5, 9, &got, sizeof got));
    EXPECT_FALSE(mailbox_take(7, 7, &got, sizeof got));
    EXPECT_TRUE(mailbox_take(5, 8, &got, sizeof got));
    EXPECT_EQ(got, 3);
    EXPECT_TRUE(mailbox_take(6, 7, &got, sizeof got));
    EXPECT_EQ(got, 2);
    EXPECT_TRUE(mailbox_take(5, 7, &got, sizeof got));
    EXPECT_EQ(got, 1);
    EXPECT_FALSE(mailbox_take(5, 7, &got, sizeof got)); // each once
}

TEST_F(Mailbox, SameTagTwiceComesOutInArrivalOrder)
{
    long a = 10, b = 20, got = 0;
    ASSERT_EQ(mailbox_drop(1, 1, &a, sizeof a), 0);
    ASSERT_EQ(mailbox_drop(1, 1, &b, sizeof b), 0);
    EXPECT_TRUE(mailbox_take(1, 1, &got, sizeof got));
    EXPECT_EQ(got, 10);
    // The tail moved back when the last was taken: a drop after still shows.
    long c = 30;
    ASSERT_EQ(mailbox_drop(1, 2, &c, sizeof c), 0);
    EXPECT_TRUE(mailbox_take(1, 2, &got, sizeof got));
    EXPECT_EQ(got, 30);
    EXPECT_TRUE(mailbox_take(1, 1, &got, sizeof got));
    EXPECT_EQ(got, 20);
    ASSERT_EQ(mailbox_drop(2, 2, &c, sizeof c), 0);
    EXPECT_TRUE(mailbox_take(2, 2, &got, sizeof got));
}

TEST_F(Mailbox, EmptyAndLargestMessages)
{
    EXPECT_EQ(mailbox_drop(3, 0, nullptr, 0), 0);
    EXPECT_TRUE(mailbox_take(3, 0, nullptr, 0));
    std::vector<unsigned char> big(MAILBOX_MSG_MAX), back(MAILBOX_MSG_MAX);
    for (size_t i = 0; i < big.size(); i++)
        big[i] = (unsigned char)(i * 7);
    ASSERT_EQ(mailbox_drop(3, 1, big.data(), big.size()), 0);
    EXPECT_TRUE(mailbox_take(3, 1, back.data(), back.size()));
    EXPECT_EQ(big, back);
    big.push_back(0);
    EXPECT_EQ(mailbox_drop(3, 2, big.data(), big.size()), -1); // too long: dropped
    EXPECT_FALSE(mailbox_take(3, 2, back.data(), back.size()));
}

TEST_F(Mailbox, WhatIsHeldIsBounded)
{
    std::vector<unsigned char> m(MAILBOX_MSG_MAX);
    unsigned fit = MAILBOX_HOLD_MAX / MAILBOX_MSG_MAX;
    for (unsigned i = 0; i < fit; i++)
        ASSERT_EQ(mailbox_drop(4, i, m.data(), m.size()), 0);
    EXPECT_EQ(mailbox_drop(4, fit, m.data(), m.size()), -1);
    // Taking one makes room for one.
    EXPECT_TRUE(mailbox_take(4, 0, m.data(), m.size()));
    EXPECT_EQ(mailbox_drop(4, fit, m.data(), m.size()), 0);
}

TEST_F(Mailbox, DropsFromThreadsWhileTaken)
{
    const int per = 2000;
    std::thread t([&] {
        for (int i = 0; i < per; i++) {
            long v = i;
            ASSERT_EQ(mailbox_drop(9, (uint64_t)i, &v, sizeof v), 0);
        }
    });
    for (int i = 0; i < per; i++) {
        long v = -1;
        while (!mailbox_take(9, (uint64_t)i, &v, sizeof v))
            std::this_thread::yield();
        ASSERT_EQ(v, i);
    }
    t.join();
}

} // namespace
