/*
 * The libfabric backend: reaches PEs through an OFI provider's reliable
 * datagram endpoints (verbs;ofi_rxm, cxi, efa, opx, psm2, tcp;ofi_rxm,
 * sockets...). See ofi_int.h for how it is built.
 */
#ifndef OSHM_TRANSPORT_OFI_H
#define OSHM_TRANSPORT_OFI_H

#include "transport/backend.h"

extern const struct backend_ops ofi_backend;

#endif
