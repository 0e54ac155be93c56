/*
 * Environment variables read once at start-up.
 */
#ifndef OSHM_UTIL_ENV_H
#define OSHM_UTIL_ENV_H

#include <stdbool.h>
#include <stddef.h>

/* SHMEM_TRANSPORT: how PEs reach each other. */
enum oshm_transport_choice {
    OSHM_TRANSPORT_AUTO, /* shared memory within a node, UCX between nodes */
    OSHM_TRANSPORT_SHM,  /* shared memory only: the job must fit on one node */
    OSHM_TRANSPORT_UCX,  /* UCX to every other PE, even on the same node */
    OSHM_TRANSPORT_OFI,  /* libfabric to every other PE, even on the same node */
};

struct oshm_env {
    size_t symmetric_size; /* SHMEM_SYMMETRIC_SIZE */
    bool debug;            /* SHMEM_DEBUG: extra checks and messages */
    bool version;          /* SHMEM_VERSION: print the library version */
    bool info;             /* SHMEM_INFO: print the variables and their values */
    enum oshm_transport_choice transport; /* SHMEM_TRANSPORT */
    const char *node_id;   /* SHMEM_NODE_ID: splits one host into several nodes */
    size_t device_heap_size;        /* SHMEM_DEVICE_HEAP_SIZE */
    unsigned device_engine_delay_us; /* SHMEM_DEVICE_ENGINE_DELAY_US */
    int progress_thread;   /* SHMEM_PROGRESS_THREAD: 1 on, 0 off, -1 unset (on) */
    const char *ofi_provider; /* SHMEM_OFI_PROVIDER, else FI_PROVIDER (libfabric reads it) */
};

extern struct oshm_env oshm_env;

#define OSHM_DEFAULT_SYMMETRIC_SIZE ((size_t)1 << 30)
#define OSHM_DEFAULT_DEVICE_HEAP_SIZE ((size_t)256 << 20)

/* Reads the variables; a malformed value is a fatal error naming it. */
void oshm_env_read(void);
const char *oshm_transport_name(enum oshm_transport_choice t);
/* Prints the SHMEM_INFO table to stdout. */
void oshm_env_print_info(void);

/* Parses "<number>[kKmMgGtT]" (optionally followed by "b"/"B") into bytes.
 * Returns 0 on success, -1 on a malformed or overflowing value. */
int oshm_parse_size(const char *text, size_t *bytes);
/* True unless the value is empty, "0", "n", "no", "false" or "off". */
bool oshm_parse_bool(const char *text);

#endif
