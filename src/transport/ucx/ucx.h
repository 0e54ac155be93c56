/*
 * The UCX backend: reaches a peer through UCP (any network UCX supports;
 * tcp when nothing faster exists). The peer's segments are registered with
 * ucp_mem_map at start-up and described to every PE by a fabric card
 * (worker address plus one packed rkey per segment).
 *
 * Targets of an operation that UCX carries out in software (tcp, for one)
 * see it only while their worker progresses: every wait of the library
 * calls hcomm_progress.
 */
#ifndef OSHM_TRANSPORT_UCX_H
#define OSHM_TRANSPORT_UCX_H

#include <stdbool.h>
#include <stddef.h>

#include "hcomm/hcomm.h"

extern const struct hcomm_ops ucx_ops;

/* Opens UCP, creates this PE's worker and registers D's segments. The
 * worker is thread-safe: application threads, device engines and streams
 * may all use it. */
int ucx_open(const struct hcomm_domain *d);
/* This PE's fabric card, packed (free() it). */
int ucx_card(void **blob, size_t *len);
/* Connects EP to the PE described by CARD. If EP has no RMA backend yet, UCX
 * becomes it. */
int ucx_connect(struct hcomm_ep *ep, const void *card, size_t len);
/* Completes everything outstanding and closes every endpoint. */
void ucx_disconnect_all(struct hcomm_domain *d);
void ucx_close(void);

#endif
