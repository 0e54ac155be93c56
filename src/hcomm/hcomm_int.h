/* What hcomm's own files share. */
#ifndef OSHM_HCOMM_INT_H
#define OSHM_HCOMM_INT_H

#include "fabric/fabric.h"
#include "hcomm/hcomm.h"

/* The start-up exchange hcomm_init was given. */
extern struct fabric_exchange hcomm_exchange;

/* Opens a channel of every open backend into CH (embedded, not allocated). */
int hcomm_channel_init(struct hcomm_channel *ch, enum hcomm_chan_mode mode, bool eager);
/* Completes CH's operations and closes its backends' channels. */
void hcomm_channel_fini(struct hcomm_channel *ch);

#endif
