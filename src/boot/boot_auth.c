#include "boot/boot_auth.h"

#include <errno.h>
#include <string.h>
#include <sys/random.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>

int boot_auth_random(void *buf, size_t len)
{
    unsigned char *p = buf;
    while (len) {
        ssize_t n = getrandom(p, len, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

static void hmac(const char *secret, const void *data, size_t len,
                 unsigned char out[BOOT_WIRE_MAC_LEN])
{
    unsigned int olen = BOOT_WIRE_MAC_LEN;
    HMAC(EVP_sha256(), secret, BOOT_WIRE_SECRET_LEN, data, len, out, &olen);
}

/* LABEL, job, both nonces, rank, size: what each proof and key covers, the
 * label keeping one kind of value from standing for another. */
static size_t transcript(unsigned char *buf, const char *label, const struct boot_auth_hello *h)
{
    size_t n = strlen(label) + 1; /* with its NUL: no label is another's prefix */
    memcpy(buf, label, n);
    memcpy(buf + n, h->job, sizeof h->job);
    n += sizeof h->job;
    memcpy(buf + n, h->server_nonce, sizeof h->server_nonce);
    n += sizeof h->server_nonce;
    memcpy(buf + n, h->pe_nonce, sizeof h->pe_nonce);
    n += sizeof h->pe_nonce;
    memcpy(buf + n, &h->rank, 4);
    memcpy(buf + n + 4, &h->size, 4);
    return n + 8;
}

#define TRANSCRIPT_MAX (32 + BOOT_WIRE_JOB_LEN + 2 * BOOT_WIRE_NONCE_LEN + 8)

void boot_auth_hello_mac(const char *secret, const struct boot_auth_hello *h,
                         unsigned char mac[BOOT_WIRE_MAC_LEN])
{
    unsigned char buf[TRANSCRIPT_MAX];
    hmac(secret, buf, transcript(buf, "oshm-hello-1", h), mac);
}

void boot_auth_session_keys(const char *secret, const struct boot_auth_hello *h,
                            struct boot_auth_session *s)
{
    unsigned char buf[TRANSCRIPT_MAX];
    hmac(secret, buf, transcript(buf, "oshm-key-up-1", h), s->up);
    hmac(secret, buf, transcript(buf, "oshm-key-down-1", h), s->down);
    s->up_seq = s->down_seq = 0;
}

void boot_auth_digest(const void *data, size_t len, unsigned char digest[BOOT_WIRE_MAC_LEN])
{
    SHA256(data, len, digest);
}

void boot_auth_tag(const unsigned char key[BOOT_WIRE_MAC_LEN], uint64_t seq,
                   const struct boot_wire_hdr *hdr, const unsigned char digest[BOOT_WIRE_MAC_LEN],
                   unsigned char tag[BOOT_WIRE_MAC_LEN])
{
    unsigned char buf[8 + sizeof *hdr + BOOT_WIRE_MAC_LEN];
    memcpy(buf, &seq, 8);
    memcpy(buf + 8, hdr, sizeof *hdr);
    memcpy(buf + 8 + sizeof *hdr, digest, BOOT_WIRE_MAC_LEN);
    unsigned int olen = BOOT_WIRE_MAC_LEN;
    HMAC(EVP_sha256(), key, BOOT_WIRE_MAC_LEN, buf, sizeof buf, tag, &olen);
}

bool boot_auth_equal(const void *a, const void *b, size_t len)
{
    return CRYPTO_memcmp(a, b, len) == 0;
}

void boot_auth_hex(const unsigned char *bytes, size_t len, char *out)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < len; i++) {
        out[2 * i] = digits[bytes[i] >> 4];
        out[2 * i + 1] = digits[bytes[i] & 15];
    }
    out[2 * len] = '\0';
}

static int nibble(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

int boot_auth_unhex(const char *hex, unsigned char *bytes, size_t len)
{
    if (strlen(hex) != 2 * len)
        return -1;
    for (size_t i = 0; i < len; i++) {
        int hi = nibble(hex[2 * i]), lo = nibble(hex[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return -1;
        bytes[i] = (unsigned char)(hi << 4 | lo);
    }
    return 0;
}
