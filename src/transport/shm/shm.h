/*
 * The shared-memory backend: a peer on the same node has its symmetric
 * segments mapped into this process, so RMA is a load/store or memcpy and a
 * signal is a C11 atomic on the mapped word.
 */
#ifndef OSHM_TRANSPORT_SHM_H
#define OSHM_TRANSPORT_SHM_H

#include <stddef.h>

#include "hcomm/hcomm.h"

extern const struct hcomm_ops shm_ops;

/* Size of the address blob this PE publishes for its same-node peers. */
size_t shm_addr_size(void);
/* Exports this PE's segments to PIDS (its same-node peers) and writes the
 * keys into BLOB. */
int shm_publish(const struct hcomm_domain *d, const pid_t *pids, int npids, void *blob);
/* Maps the peer's segments described by BLOB (NULL for this PE itself). */
int shm_connect(struct hcomm_domain *d, struct hcomm_ep *ep, const void *blob);
void shm_disconnect(struct hcomm_ep *ep);
/* Withdraws the exports. */
void shm_unpublish(void);

#endif
