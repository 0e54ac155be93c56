#include "transport/choose.h"

#include <stdio.h>
#include <string.h>

/* UCX transports that do not leave the node, and tcp. */
static const char *const ucx_not_fast[] = {
    "tcp", "self", "sysv", "posix", "cma", "knem", "xpmem", "cuda_copy", "cuda_ipc",
    "gdr_copy", "rocm_copy", "rocm_ipc", "rocm_gdr", "ze_copy", "ze_ipc", NULL};

/* libfabric core providers that do not beat tcp or never leave the node;
 * "ucx" finds what UCX itself found. */
static const char *const ofi_not_fast[] = {"tcp", "sockets", "udp", "net", "shm", "sm2",
                                           "ucx", "hook", "lnx", NULL};

static bool listed(const char *const *list, const char *name, size_t len)
{
    for (; *list; list++)
        if (strlen(*list) == len && strncmp(*list, name, len) == 0)
            return true;
    return false;
}

bool choose_ucx_tl_fast(const char *tl)
{
    return tl && *tl && !listed(ucx_not_fast, tl, strlen(tl));
}

bool choose_ofi_prov_fast(const char *prov, bool on_device)
{
    if (!prov || !*prov)
        return false;
    /* The core provider comes first ("verbs;ofi_rxm"); utility providers
     * (ofi_rxm, ofi_rxd) only add what it lacks. */
    size_t len = strcspn(prov, ";");
    if (listed(ofi_not_fast, prov, len) || strncmp(prov, "ofi_", 4) == 0)
        return false;
    if (len == 4 && strncmp(prov, "psm3", 4) == 0)
        return on_device;
    return true;
}

enum choose_pick choose_network(const char *const *ucx_tls, size_t n_ucx,
                                const char *const *ofi_provs, const bool *on_device,
                                size_t n_ofi, char *why, size_t why_len)
{
    for (size_t i = 0; i < n_ucx; i++)
        if (choose_ucx_tl_fast(ucx_tls[i])) {
            snprintf(why, why_len, "UCX has %s", ucx_tls[i]);
            return CHOOSE_UCX;
        }
    bool tcp = false;
    for (size_t i = 0; i < n_ucx; i++)
        tcp |= strcmp(ucx_tls[i], "tcp") == 0;
    for (size_t i = 0; i < n_ofi; i++)
        if (choose_ofi_prov_fast(ofi_provs[i], on_device && on_device[i])) {
            snprintf(why, why_len, "UCX has %s, libfabric has %s",
                     tcp ? "tcp only" : "no network transport", ofi_provs[i]);
            return CHOOSE_OFI;
        }
    snprintf(why, why_len, "neither UCX nor libfabric has a network faster than tcp");
    return CHOOSE_UCX;
}
