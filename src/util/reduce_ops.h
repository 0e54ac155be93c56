/*
 * The reduction operators of the specification's table, as expressions:
 * the host reductions (src/api/coll.c) and the device ones
 * (src/device/coll_reduce.c) combine with the same definitions, so min and
 * max choose alike and compare NaN alike.
 */
#ifndef OSHM_UTIL_REDUCE_OPS_H
#define OSHM_UTIL_REDUCE_OPS_H

#define OP_and(a, b) ((a) & (b))
#define OP_or(a, b) ((a) | (b))
#define OP_xor(a, b) ((a) ^ (b))
#define OP_min(a, b) ((b) < (a) ? (b) : (a))
#define OP_max(a, b) ((b) > (a) ? (b) : (a))
#define OP_sum(a, b) ((a) + (b))
#define OP_prod(a, b) ((a) * (b))

#endif
