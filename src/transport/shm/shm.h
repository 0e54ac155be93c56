/*
 * The shared-memory backend: a peer on the same node has its symmetric
 * segments mapped into this process, so RMA is a load/store or memcpy and an
 * AMO or signal a C11 atomic on the mapped word. Every operation has
 * completed when it returns; fence and quiet are memory fences.
 */
#ifndef OSHM_TRANSPORT_SHM_H
#define OSHM_TRANSPORT_SHM_H

#include "transport/backend.h"

extern const struct backend_ops shm_backend;

#endif
