// Parsing of environment values.
#include <gtest/gtest.h>

extern "C" {
#include "util/env.h"
}

TEST(ParseSize, Suffixes)
{
    size_t b = 0;
    EXPECT_EQ(oshm_parse_size("123", &b), 0);
    EXPECT_EQ(b, 123u);
    EXPECT_EQ(oshm_parse_size("4K", &b), 0);
    EXPECT_EQ(b, 4096u);
    EXPECT_EQ(oshm_parse_size("512m", &b), 0);
    EXPECT_EQ(b, 512u << 20);
    EXPECT_EQ(oshm_parse_size("2G", &b), 0);
    EXPECT_EQ(b, (size_t)2 << 30);
    EXPECT_EQ(oshm_parse_size("1TB", &b), 0);
    EXPECT_EQ(b, (size_t)1 << 40);
    EXPECT_EQ(oshm_parse_size(" 8 ", &b), 0);
    EXPECT_EQ(b, 8u);
}

TEST(ParseSize, RejectsGarbage)
{
    size_t b;
    for (const char *bad : {"", "abc", "-1", "12Q", "1.5.5G", "1.G", "G", "99999999999999999999",
                            "17179869184G"})
        EXPECT_EQ(oshm_parse_size(bad, &b), -1) << bad;
}

TEST(ParseBool, Values)
{
    EXPECT_TRUE(oshm_parse_bool("1"));
    EXPECT_TRUE(oshm_parse_bool("yes"));
    EXPECT_FALSE(oshm_parse_bool("0"));
    EXPECT_FALSE(oshm_parse_bool("off"));
    EXPECT_FALSE(oshm_parse_bool(""));
    EXPECT_FALSE(oshm_parse_bool(nullptr));
}
