// The bootstrap's proofs (src/boot/boot_auth.c) and how a PE's text is
// printed (boot_server_quote): what each proof depends on, and that text
// from a PE comes out as bounded, escaped data.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

extern "C" {
#include "boot/boot_auth.h"
#include "boot/boot_server.h"
}

namespace {

const char kSecret[] = "0123456789abcdef0123456789abcdef";

boot_auth_hello make_hello()
{
    boot_auth_hello h{};
    for (size_t i = 0; i < sizeof h.job; i++)
        h.job[i] = (unsigned char)i;
    for (size_t i = 0; i < sizeof h.server_nonce; i++)
        h.server_nonce[i] = (unsigned char)(100 + i);
    for (size_t i = 0; i < sizeof h.pe_nonce; i++)
        h.pe_nonce[i] = (unsigned char)(200 + i);
    h.rank = 3;
    h.size = 4;
    return h;
}

std::string mac_of(const char *secret, const boot_auth_hello &h)
{
    unsigned char mac[BOOT_WIRE_MAC_LEN];
    boot_auth_hello_mac(secret, &h, mac);
    return std::string((const char *)mac, sizeof mac);
}

TEST(BootAuth, HelloProofDependsOnEverythingItCovers)
{
    const boot_auth_hello h = make_hello();
    const std::string base = mac_of(kSecret, h);
    EXPECT_EQ(base, mac_of(kSecret, h));
    boot_auth_hello v = h;
    v.server_nonce[5] ^= 1;
    EXPECT_NE(base, mac_of(kSecret, v)) << "another connection's nonce";
    v = h;
    v.pe_nonce[0] ^= 1;
    EXPECT_NE(base, mac_of(kSecret, v));
    v = h;
    v.job[15] ^= 1;
    EXPECT_NE(base, mac_of(kSecret, v)) << "another job";
    v = h;
    v.rank = 2;
    EXPECT_NE(base, mac_of(kSecret, v)) << "another rank";
    v = h;
    v.size = 5;
    EXPECT_NE(base, mac_of(kSecret, v));
    EXPECT_NE(base, mac_of("1123456789abcdef0123456789abcdef", h)) << "another secret";
}

TEST(BootAuth, SessionKeysDifferByDirectionAndConnection)
{
    const boot_auth_hello h = make_hello();
    boot_auth_session a, b;
    boot_auth_session_keys(kSecret, &h, &a);
    EXPECT_NE(0, memcmp(a.up, a.down, sizeof a.up));
    EXPECT_EQ(0u, a.up_seq);
    boot_auth_hello other = h;
    other.server_nonce[0] ^= 1;
    boot_auth_session_keys(kSecret, &other, &b);
    EXPECT_NE(0, memcmp(a.up, b.up, sizeof a.up));
    // Neither key is the HELLO's proof.
    EXPECT_NE(std::string((const char *)a.up, 32), mac_of(kSecret, h));
}

TEST(BootAuth, TagCoversCounterHeaderAndPayload)
{
    unsigned char key[BOOT_WIRE_MAC_LEN] = {1, 2, 3};
    boot_wire_hdr hdr = {BOOT_WIRE_ABORT, 3, 5};
    unsigned char d[BOOT_WIRE_MAC_LEN], t0[BOOT_WIRE_MAC_LEN], t1[BOOT_WIRE_MAC_LEN];
    boot_auth_digest("hello", 5, d);
    boot_auth_tag(key, 0, &hdr, d, t0);
    boot_auth_tag(key, 1, &hdr, d, t1);
    EXPECT_FALSE(boot_auth_equal(t0, t1, sizeof t0)) << "a replay within the connection";
    hdr.rank = 2;
    boot_auth_tag(key, 0, &hdr, d, t1);
    EXPECT_FALSE(boot_auth_equal(t0, t1, sizeof t0));
    hdr.rank = 3;
    boot_auth_digest("hellp", 5, d);
    boot_auth_tag(key, 0, &hdr, d, t1);
    EXPECT_FALSE(boot_auth_equal(t0, t1, sizeof t0));
    boot_auth_digest("hello", 5, d);
    boot_auth_tag(key, 0, &hdr, d, t1);
    EXPECT_TRUE(boot_auth_equal(t0, t1, sizeof t0));
}

TEST(BootAuth, HexRoundTripAndRefusals)
{
    unsigned char in[4] = {0x00, 0x7f, 0xa5, 0xff}, out[4];
    char hex[9];
    boot_auth_hex(in, 4, hex);
    EXPECT_STREQ("007fa5ff", hex);
    ASSERT_EQ(0, boot_auth_unhex(hex, out, 4));
    EXPECT_EQ(0, memcmp(in, out, 4));
    EXPECT_EQ(-1, boot_auth_unhex("007fa5f", out, 4));
    EXPECT_EQ(-1, boot_auth_unhex("007fa5fg", out, 4));
    EXPECT_EQ(-1, boot_auth_unhex("007fa5ff00", out, 4));
}

// The library under the proofs computes the standard functions: SHA-256 of
// FIPS 180-2's "abc", and HMAC-SHA-256 (key 0x01..0x20, over a zero
// counter, a zero header and that digest) as Python's hmac module computes
// it independently.
TEST(BootAuth, StandardVectors)
{
    unsigned char d[BOOT_WIRE_MAC_LEN];
    char hex[2 * BOOT_WIRE_MAC_LEN + 1];
    boot_auth_digest("abc", 3, d);
    boot_auth_hex(d, sizeof d, hex);
    EXPECT_STREQ("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", hex);
    unsigned char key[BOOT_WIRE_MAC_LEN];
    for (unsigned i = 0; i < sizeof key; i++)
        key[i] = (unsigned char)(i + 1);
    struct boot_wire_hdr hdr;
    memset(&hdr, 0, sizeof hdr);
    unsigned char tag[BOOT_WIRE_MAC_LEN];
    boot_auth_tag(key, 0, &hdr, d, tag);
    boot_auth_hex(tag, sizeof tag, hex);
    EXPECT_STREQ("55512ddbcb65289a8550a98a665717e1405479649bae4834c928f451d8623525", hex);
}

TEST(BootServerQuote, PrintsTextAsBoundedEscapedData)
{
    char out[64];
    const char text[] = "forged\n\"oshrun: all fine\"\x1b[2J\\";
    boot_server_quote(text, sizeof text - 1, out, sizeof out);
    EXPECT_STREQ("\"forged\\x0a\\\"oshrun: all fine\\\"\\x1b[2J\\\\\"", out);
    std::string long_text(1000, 'a');
    boot_server_quote(long_text.data(), long_text.size(), out, sizeof out);
    EXPECT_LT(strlen(out), sizeof out);
    EXPECT_NE(nullptr, strstr(out, "...\""));
    boot_server_quote("", 0, out, sizeof out);
    EXPECT_STREQ("\"\"", out);
}

} // namespace
