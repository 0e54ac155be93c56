/*
 * The UCX backend: reaches PEs through UCP (any network UCX supports; tcp
 * when nothing faster exists). See ucx_int.h for how it is built.
 */
#ifndef OSHM_TRANSPORT_UCX_H
#define OSHM_TRANSPORT_UCX_H

#include "transport/backend.h"

extern const struct backend_ops ucx_backend;

/* A range of one of this PE's segments as UCX registered it (diagnostics
 * and tests): where UCX says the registration starts and how long it is. */
struct ucx_registration {
    void *address;
    size_t length;
};

/* Fills at most MAX registrations of segment SEG, in order; returns how many
 * there are. */
int ucx_registrations(int seg, struct ucx_registration *out, int max);

#endif
