/*
 * The bootstrap's proofs (boot_wire.h), on libsodium's HMAC-SHA-256: a PE's
 * HELLO answering the server's nonce, each connection's message keys, and
 * the tag of every message after the HELLO. The key is the job's secret
 * (BOOT_WIRE_SECRET_LEN hex characters); nothing here sends it anywhere.
 */
#ifndef OSHM_BOOT_BOOT_AUTH_H
#define OSHM_BOOT_BOOT_AUTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "boot/boot_wire.h"

/* One connection's keys and message counters, one of each per direction:
 * UP from the PE to the server, DOWN back. */
struct boot_auth_session {
    unsigned char up[BOOT_WIRE_MAC_LEN], down[BOOT_WIRE_MAC_LEN];
    uint64_t up_seq, down_seq;
};

/* What both ends of a connection know once the HELLO is sent. */
struct boot_auth_hello {
    unsigned char job[BOOT_WIRE_JOB_LEN];
    unsigned char server_nonce[BOOT_WIRE_NONCE_LEN];
    unsigned char pe_nonce[BOOT_WIRE_NONCE_LEN];
    uint32_t rank, size;
};

/* LEN random bytes from the kernel; 0 or -1. */
int boot_auth_random(void *buf, size_t len);

/* The HELLO's proof, and the connection's keys (counters at 0). */
void boot_auth_hello_mac(const char *secret, const struct boot_auth_hello *h,
                         unsigned char mac[BOOT_WIRE_MAC_LEN]);
void boot_auth_session_keys(const char *secret, const struct boot_auth_hello *h,
                            struct boot_auth_session *s);

/* SHA-256 of a payload: a message's tag covers it through this, so that one
 * payload sent to many connections is hashed once. */
void boot_auth_digest(const void *data, size_t len, unsigned char digest[BOOT_WIRE_MAC_LEN]);

/* The tag of the message numbered SEQ under KEY: header and digest. */
void boot_auth_tag(const unsigned char key[BOOT_WIRE_MAC_LEN], uint64_t seq,
                   const struct boot_wire_hdr *hdr, const unsigned char digest[BOOT_WIRE_MAC_LEN],
                   unsigned char tag[BOOT_WIRE_MAC_LEN]);

/* Constant time: how long a comparison takes tells nothing of either side. */
bool boot_auth_equal(const void *a, const void *b, size_t len);

/* Hex text of LEN bytes into OUT (2 * LEN + 1 bytes), and back (0 or -1). */
void boot_auth_hex(const unsigned char *bytes, size_t len, char *out);
int boot_auth_unhex(const char *hex, unsigned char *bytes, size_t len);

#endif
