#include "util/env.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "util/log.h"

struct oshm_env oshm_env = {.symmetric_size = OSHM_DEFAULT_SYMMETRIC_SIZE,
                            .device_heap_size = OSHM_DEFAULT_DEVICE_HEAP_SIZE,
                            .progress_thread = -1};

int oshm_parse_size(const char *text, size_t *bytes)
{
    if (!text)
        return -1;
    while (isspace((unsigned char)*text))
        text++;
    if (!isdigit((unsigned char)*text))
        return -1;
    errno = 0;
    char *end;
    unsigned long long value = strtoull(text, &end, 10);
    if (errno)
        return -1;
    unsigned shift = 0;
    switch (*end) {
    case 'k': case 'K': shift = 10; end++; break;
    case 'm': case 'M': shift = 20; end++; break;
    case 'g': case 'G': shift = 30; end++; break;
    case 't': case 'T': shift = 40; end++; break;
    default: break;
    }
    if (*end == 'b' || *end == 'B')
        end++;
    while (isspace((unsigned char)*end))
        end++;
    if (*end != '\0')
        return -1;
    if (shift && value > (SIZE_MAX >> shift))
        return -1;
    *bytes = (size_t)value << shift;
    return 0;
}

bool oshm_parse_bool(const char *text)
{
    if (!text || !*text)
        return false;
    static const char *const no[] = {"0", "n", "no", "false", "off"};
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
        if (strcasecmp(text, no[i]) == 0)
            return false;
    return true;
}

void oshm_env_read(void)
{
    const char *v = getenv("SHMEM_SYMMETRIC_SIZE");
    if (v) {
        size_t bytes;
        if (oshm_parse_size(v, &bytes) != 0 || bytes == 0)
            oshm_fatal("SHMEM_SYMMETRIC_SIZE=\"%s\" is not a size; use a positive number "
                       "with an optional K, M, G or T suffix (e.g. 512M)", v);
        oshm_env.symmetric_size = bytes;
    }
    oshm_env.debug = oshm_parse_bool(getenv("SHMEM_DEBUG"));
    oshm_env.version = oshm_parse_bool(getenv("SHMEM_VERSION"));
    oshm_env.info = oshm_parse_bool(getenv("SHMEM_INFO"));
    v = getenv("SHMEM_TRANSPORT");
    if (!v || !*v || strcasecmp(v, "auto") == 0)
        oshm_env.transport = OSHM_TRANSPORT_AUTO;
    else if (strcasecmp(v, "shm") == 0)
        oshm_env.transport = OSHM_TRANSPORT_SHM;
    else if (strcasecmp(v, "ucx") == 0)
        oshm_env.transport = OSHM_TRANSPORT_UCX;
    else if (strcasecmp(v, "ofi") == 0)
        oshm_env.transport = OSHM_TRANSPORT_OFI;
    else
        oshm_fatal("SHMEM_TRANSPORT=\"%s\" is not a transport; use auto, shm, ucx or ofi", v);
    oshm_env.ofi_provider = getenv("SHMEM_OFI_PROVIDER");
    oshm_env.node_id = getenv("SHMEM_NODE_ID");
    v = getenv("SHMEM_DEVICE_HEAP_SIZE");
    if (v) {
        size_t bytes;
        if (oshm_parse_size(v, &bytes) != 0 || bytes == 0 || bytes > SIZE_MAX / 2)
            oshm_fatal("SHMEM_DEVICE_HEAP_SIZE=\"%s\" is not a size; use a positive number "
                       "with an optional K, M, G or T suffix (e.g. 256M)", v);
        oshm_env.device_heap_size = bytes;
    }
    v = getenv("SHMEM_PROGRESS_THREAD");
    oshm_env.progress_thread = v && *v ? oshm_parse_bool(v) : -1;
    v = getenv("SHMEM_DEVICE_ENGINE_DELAY_US");
    if (v) {
        char *end;
        errno = 0;
        unsigned long us = strtoul(v, &end, 10);
        if (errno || end == v || *end || us > 10000000)
            oshm_fatal("SHMEM_DEVICE_ENGINE_DELAY_US=\"%s\" is not a number of microseconds "
                       "(0 to 10000000)", v);
        oshm_env.device_engine_delay_us = (unsigned)us;
    }
}

const char *oshm_transport_name(enum oshm_transport_choice t)
{
    return t == OSHM_TRANSPORT_SHM ? "shm" : t == OSHM_TRANSPORT_UCX ? "ucx"
                                     : t == OSHM_TRANSPORT_OFI ? "ofi" : "auto";
}

void oshm_env_print_info(void)
{
    printf("OpenSHMEM environment variables:\n"
           "  SHMEM_SYMMETRIC_SIZE  %zu bytes  symmetric heap size per PE (K/M/G/T suffixes)\n"
           "  SHMEM_DEBUG           %d  extra argument checks and debug messages\n"
           "  SHMEM_VERSION         %d  print the library version at start-up\n"
           "  SHMEM_INFO            %d  print this table at start-up\n"
           "  SHMEM_TRANSPORT       %s  auto (shared memory in a node, UCX or else libfabric "
           "between nodes), shm, ucx or ofi\n"
           "  SHMEM_OFI_PROVIDER    %s  libfabric provider (else FI_PROVIDER, else the first)\n"
           "  SHMEM_NODE_ID         %s  PEs of one host with different ids are on different "
           "nodes (%%p: the PE number, %%Kp: PE / K)\n"
           "  SHMEM_DEVICE_HEAP_SIZE %zu bytes  device symmetric heap per PE\n"
           "  SHMEM_DEVICE_ENGINE_DELAY_US %u  simulated engines hold each descriptor back\n"
           "  SHMEM_PROGRESS_THREAD %s  a thread serves other PEs' network operations while "
           "this PE computes\n",
           oshm_env.symmetric_size, oshm_env.debug, oshm_env.version, oshm_env.info,
           oshm_transport_name(oshm_env.transport),
           oshm_env.ofi_provider ? oshm_env.ofi_provider : "(unset)", oshm_env.node_id ? oshm_env.node_id : "(unset)",
           oshm_env.device_heap_size, oshm_env.device_engine_delay_us,
           oshm_env.progress_thread < 0 ? "(unset: on)" : oshm_env.progress_thread ? "1" : "0");
    fflush(stdout);
}
