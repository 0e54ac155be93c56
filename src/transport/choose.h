/*
 * SHMEM_TRANSPORT=auto between two network backends: which of UCX and
 * libfabric to use when both are built. UCX is the default; libfabric is
 * chosen only when UCX reaches other nodes through nothing faster than tcp
 * while libfabric has a provider on a fabric (verbs, efa, cxi, opx, psm2,
 * psm3 on its device...). Both over tcp only: UCX (measured the same or
 * faster on this project's benchmarks). Pure functions of what each
 * library reported, so that tests can feed them any machine.
 */
#ifndef OSHM_TRANSPORT_CHOOSE_H
#define OSHM_TRANSPORT_CHOOSE_H

#include <stdbool.h>
#include <stddef.h>

/* A UCX transport name (a UCP resource's tl: "rc_mlx5", "tcp", "posix")
 * that reaches other nodes faster than tcp. */
bool choose_ucx_tl_fast(const char *tl);

/* A libfabric provider (its prov_name: "verbs;ofi_rxm", "tcp;ofi_rxm",
 * "efa") that reaches other nodes faster than tcp. ON_DEVICE: the provider
 * reported a NIC on a bus (psm3 without one runs over sockets). */
bool choose_ofi_prov_fast(const char *prov, bool on_device);

enum choose_pick { CHOOSE_UCX, CHOOSE_OFI };

/* The backend for the network: N_UCX transports UCX found, N_OFI providers
 * libfabric offers (with ON_DEVICE each; NULL: none on a device). WHY: one
 * line saying the reason, for SHMEM_DEBUG and SHMEM_INFO. */
enum choose_pick choose_network(const char *const *ucx_tls, size_t n_ucx,
                                const char *const *ofi_provs, const bool *on_device,
                                size_t n_ofi, char *why, size_t why_len);

#endif
