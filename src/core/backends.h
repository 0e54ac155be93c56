#ifndef OSHM_CORE_BACKENDS_H
#define OSHM_CORE_BACKENDS_H

#include "transport/backend.h"

/* NULL-ended. */
extern const struct backend_ops *const oshm_builtin_backends[];

#endif
