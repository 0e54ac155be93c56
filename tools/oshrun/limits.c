/* Open-file limits, checked before any PE starts. */
#include <stdio.h>
#include <stdlib.h>

#include "oshrun.h"
#include "util/fdlimit.h"

/* oshrun holds two output pipes and a bootstrap connection per PE; the rest
 * is its own (the socket, signalfd, stdio) and room for strangers that it
 * accepts only to refuse. */
#define OSHRUN_FD_PER_PE 3
#define OSHRUN_FD_BASE 32

void limits_check(void)
{
    long hard = 0;
    /* Raised here, inherited by every local PE. */
    long have = oshm_fd_limit_raise(&hard);
    if (have < 0)
        return;
    long mine = (long)opt.npes * OSHRUN_FD_PER_PE + OSHRUN_FD_BASE;
    if (have >= mine)
        return;
    /* A PE's own need does not grow with the job (it closes its peers'
     * descriptors once mapped): oshrun is the one that holds one per PE. */
    fprintf(stderr, "oshrun: %d PEs need about %ld open files in oshrun (%d per PE, %d more), "
                    "but the limit is %ld (ulimit -n; hard limit %ld): raise it or start fewer "
                    "PEs\n",
            opt.npes, mine, OSHRUN_FD_PER_PE, OSHRUN_FD_BASE, have, hard);
    exit(1);
}
