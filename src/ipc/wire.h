/*
 * What an importer and an owner's service say to each other (internal to
 * src/ipc): one request, one reply, then the owner hangs up.
 *
 * The socket lives in the abstract namespace: it leaves no file behind
 * however the process ends, but it has no permissions either. Anyone in the
 * network namespace can connect to it, and /proc/net/unix lists its name,
 * so the random part of the name is no secret; the kernel credentials of
 * the connecting process (SO_PEERCRED) are the only guard.
 */
#ifndef OSHM_IPC_WIRE_H
#define OSHM_IPC_WIRE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "ipc/ipc.h"

/* Tells a request of this library from bytes that merely have the size of
 * one: "oshm" in ASCII. */
#define IPC_REQUEST_MAGIC 0x6f73686dU

struct ipc_request {
    uint32_t magic;
    uint32_t id; /* the export, from the key */
};

struct ipc_reply {
    int32_t status; /* 0 (the descriptor comes with it) or an errno value */
};

static inline socklen_t ipc_addr(struct sockaddr_un *sa, const char *name)
{
    memset(sa, 0, sizeof *sa);
    sa->sun_family = AF_UNIX;
    size_t len = strnlen(name, IPC_SERVER_NAME_LEN - 1);
    memcpy(sa->sun_path + 1, name, len); /* sun_path[0] == 0: abstract */
    return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + len);
}

#endif
