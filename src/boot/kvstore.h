/*
 * A local table of (rank, key) -> value, used by the bootstraps that
 * exchange all data at the fence and answer gets locally. Every PE loads
 * every PE's records at each fence, so a set and a get must cost the same
 * at any job size: a hash table (a list searched from the head made
 * start-up cubic in the PEs of a job: 1,024 PEs spent most of 46 s in it).
 */
#ifndef OSHM_BOOT_KVSTORE_H
#define OSHM_BOOT_KVSTORE_H

#include <stddef.h>

struct oshm_kv_entry;
struct oshm_kv_view;

/* All zero: empty. */
struct oshm_kvstore {
    struct oshm_kv_entry **slot; /* open addressing; CAP a power of two */
    size_t cap;
    size_t count;
    struct oshm_kv_view *views; /* newest first */
    /* The view that survives oshm_kv_forget (oshm_kv_retain); NULL: none. */
    struct oshm_kv_view *retained;
};

int oshm_kv_set(struct oshm_kvstore *kv, int rank, const char *key, const void *value,
                size_t len);
/* Copies the value of (RANK, KEY) into VALUE: an entry set, else the
 * newest view holding it (keys are not reused between forgets). -1 when
 * it is absent or not exactly LEN bytes. */
int oshm_kv_get(const struct oshm_kvstore *kv, int rank, const char *key, void *value, size_t len);
void oshm_kv_clear(struct oshm_kvstore *kv);
/* Drops KV's entries and the views not retained, and gives the memory its
 * records held back to the system, which freeing alone leaves in the
 * process. */
void oshm_kv_forget(struct oshm_kvstore *kv);
/* The newest view KV holds (the last exchange's, when it came as one)
 * survives oshm_kv_forget, until oshm_kv_clear: it costs a PE no copy,
 * only the pages it reads. -1 when KV holds no view. */
int oshm_kv_retain(struct oshm_kvstore *kv);

/* Serialization of a list of (key, value) records: "u32 keylen, key,
 * u32 vallen, value" repeated. */
int oshm_kv_append_record(char **buf, size_t *len, const char *key, const void *value,
                          size_t vlen);
/* Adds all records of BUF as entries of RANK. Returns -1 on a malformed buffer. */
int oshm_kv_load_records(struct oshm_kvstore *kv, int rank, const char *buf, size_t len);

/* An exchange's data as the launcher's server shares it on a node: an
 * index of NRANKS + 1 u64 offsets from BASE, rank r's block at [index[r],
 * index[r + 1]) (its u64 length + its records), index[NRANKS] = LEN; LEN
 * bytes at BASE, read in place, not copied: a read-only mapping of MAP_LEN bytes that KV owns
 * from now on (unmapped when KV is cleared), or that the caller keeps
 * when the data is malformed (-1). A get reads a rank's records where they
 * lie: a PE pays for the peers it asks about, not for the job's size. */
int oshm_kv_adopt(struct oshm_kvstore *kv, int nranks, const char *base, size_t len,
                  size_t map_len);

#endif
