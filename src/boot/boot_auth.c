#include "boot/boot_auth.h"

#include <errno.h>
#include <string.h>
#include <sys/random.h>

#include <pthread.h>
#include <sodium.h>

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

/* libsodium wants its sodium_init once before use: it picks the fastest
 * code for this CPU and seeds its generator, which nothing here uses
 * (nonces come from getrandom above), so a failure (-1) costs speed, never
 * a wrong MAC. */
static pthread_once_t sodium_once = PTHREAD_ONCE_INIT;
static int sodium_state;
static void sodium_start(void) { sodium_state = sodium_init(); }

static void hmac_key(const void *key, size_t key_len, const void *data, size_t len,
                     unsigned char out[BOOT_WIRE_MAC_LEN])
{
    pthread_once(&sodium_once, sodium_start);
    crypto_auth_hmacsha256_state st;
    crypto_auth_hmacsha256_init(&st, key, key_len);
    crypto_auth_hmacsha256_update(&st, data, len);
    crypto_auth_hmacsha256_final(&st, out);
    sodium_memzero(&st, sizeof st);
}

static void hmac(const char *secret, const void *data, size_t len,
                 unsigned char out[BOOT_WIRE_MAC_LEN])
{
    hmac_key(secret, BOOT_WIRE_SECRET_LEN, data, len, out);
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
    pthread_once(&sodium_once, sodium_start);
    crypto_hash_sha256(digest, data, len);
}

void boot_auth_tag(const unsigned char key[BOOT_WIRE_MAC_LEN], uint64_t seq,
                   const struct boot_wire_hdr *hdr, const unsigned char digest[BOOT_WIRE_MAC_LEN],
                   unsigned char tag[BOOT_WIRE_MAC_LEN])
{
    unsigned char buf[8 + sizeof *hdr + BOOT_WIRE_MAC_LEN];
    memcpy(buf, &seq, 8);
    memcpy(buf + 8, hdr, sizeof *hdr);
    memcpy(buf + 8 + sizeof *hdr, digest, BOOT_WIRE_MAC_LEN);
    hmac_key(key, BOOT_WIRE_MAC_LEN, buf, sizeof buf, tag);
}

bool boot_auth_equal(const void *a, const void *b, size_t len)
{
    return sodium_memcmp(a, b, len) == 0;
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
