/*
 * UCP's entry points, loaded when the backend opens (ucx_dl.c) instead of
 * linked into every program: loading libucp and libucs (with libuct, libucm
 * and libnuma) cost each process about 5 ms of CPU before `main`, and a
 * job on one node never opens this backend (docs/scaling.md). The backend's
 * files call UCP by its own names; past this header those names are the
 * loaded pointers.
 */
#ifndef OSHM_TRANSPORT_UCX_DL_H
#define OSHM_TRANSPORT_UCX_DL_H

#include <ucp/api/ucp.h>

#define UCX_DL_FUNCS(X)                                                                        \
    X(ucp_am_send_nbx)                                                                         \
    X(ucp_atomic_op_nbx)                                                                       \
    X(ucp_cleanup)                                                                             \
    X(ucp_config_modify)                                                                       \
    X(ucp_config_read)                                                                         \
    X(ucp_config_release)                                                                      \
    X(ucp_context_print_info)                                                                  \
    X(ucp_ep_create)                                                                           \
    X(ucp_ep_flush_nbx)                                                                        \
    X(ucp_ep_rkey_unpack)                                                                      \
    X(ucp_get_nbx)                                                                             \
    X(ucp_init_version)                                                                        \
    X(ucp_mem_map)                                                                             \
    X(ucp_mem_query)                                                                           \
    X(ucp_mem_unmap)                                                                           \
    X(ucp_put_nbx)                                                                             \
    X(ucp_request_check_status)                                                                \
    X(ucp_request_free)                                                                        \
    X(ucp_rkey_buffer_release)                                                                 \
    X(ucp_rkey_destroy)                                                                        \
    X(ucp_rkey_pack)                                                                           \
    X(ucp_worker_arm)                                                                          \
    X(ucp_worker_create)                                                                       \
    X(ucp_worker_destroy)                                                                      \
    X(ucp_worker_fence)                                                                        \
    X(ucp_worker_flush_nbx)                                                                    \
    X(ucp_worker_get_address)                                                                  \
    X(ucp_worker_get_efd)                                                                      \
    X(ucp_worker_progress)                                                                     \
    X(ucp_worker_release_address)                                                              \
    X(ucp_worker_set_am_recv_handler)                                                          \
    X(ucs_status_string)

struct ucx_dl {
#define UCX_DL_MEMBER(f) __typeof__(f) *f;
    UCX_DL_FUNCS(UCX_DL_MEMBER)
#undef UCX_DL_MEMBER
};

extern struct ucx_dl ucx_dl;

/* Loads libucp once (thread-safe); 0, or -1 with a warning that says what
 * is missing. Never unloaded: UCX keeps threads and memory hooks. */
int ucx_dl_open(void);

/* A name defined as itself is not expanded again: each call below reads
 * the loaded pointer. ucp_init is an inline function of ucp.h that calls
 * ucp_init_version, which the program no longer links. */
#ifndef UCX_DL_DEFINING
#define ucp_am_send_nbx ucx_dl.ucp_am_send_nbx
#define ucp_atomic_op_nbx ucx_dl.ucp_atomic_op_nbx
#define ucp_cleanup ucx_dl.ucp_cleanup
#define ucp_config_modify ucx_dl.ucp_config_modify
#define ucp_config_read ucx_dl.ucp_config_read
#define ucp_config_release ucx_dl.ucp_config_release
#define ucp_context_print_info ucx_dl.ucp_context_print_info
#define ucp_ep_create ucx_dl.ucp_ep_create
#define ucp_ep_flush_nbx ucx_dl.ucp_ep_flush_nbx
#define ucp_ep_rkey_unpack ucx_dl.ucp_ep_rkey_unpack
#define ucp_get_nbx ucx_dl.ucp_get_nbx
#define ucp_init(params, config, context)                                                      \
    ucx_dl.ucp_init_version(UCP_API_MAJOR, UCP_API_MINOR, params, config, context)
#define ucp_mem_map ucx_dl.ucp_mem_map
#define ucp_mem_query ucx_dl.ucp_mem_query
#define ucp_mem_unmap ucx_dl.ucp_mem_unmap
#define ucp_put_nbx ucx_dl.ucp_put_nbx
#define ucp_request_check_status ucx_dl.ucp_request_check_status
#define ucp_request_free ucx_dl.ucp_request_free
#define ucp_rkey_buffer_release ucx_dl.ucp_rkey_buffer_release
#define ucp_rkey_destroy ucx_dl.ucp_rkey_destroy
#define ucp_rkey_pack ucx_dl.ucp_rkey_pack
#define ucp_worker_arm ucx_dl.ucp_worker_arm
#define ucp_worker_create ucx_dl.ucp_worker_create
#define ucp_worker_destroy ucx_dl.ucp_worker_destroy
#define ucp_worker_fence ucx_dl.ucp_worker_fence
#define ucp_worker_flush_nbx ucx_dl.ucp_worker_flush_nbx
#define ucp_worker_get_address ucx_dl.ucp_worker_get_address
#define ucp_worker_get_efd ucx_dl.ucp_worker_get_efd
#define ucp_worker_progress ucx_dl.ucp_worker_progress
#define ucp_worker_release_address ucx_dl.ucp_worker_release_address
#define ucp_worker_set_am_recv_handler ucx_dl.ucp_worker_set_am_recv_handler
#define ucs_status_string ucx_dl.ucs_status_string
#endif

#endif
