/*
 * The service that answers importers (internal to src/ipc): a thread that
 * serves many connections at once, each under a deadline, and turns away
 * processes outside the job by their kernel credentials before reading
 * anything from them.
 */
#ifndef OSHM_IPC_SERVER_H
#define OSHM_IPC_SERVER_H

#include "ipc/ipc.h"

/* Starts the service on a new abstract socket; writes its name to NAME. */
int ipc_server_start(char name[IPC_SERVER_NAME_LEN]);

/* Stops the service. It drops whatever connections are open, so it never
 * waits on a peer. */
void ipc_server_stop(void);

#endif
