/*
 * Messages built where stdio may not be used: in a signal handler, whose
 * thread may have been stopped inside printf or malloc. Only stack memory
 * and write(2), both async-signal-safe.
 */
#ifndef OSHM_UTIL_RAWMSG_H
#define OSHM_UTIL_RAWMSG_H

#include <stddef.h>
#include <stdint.h>

struct oshm_rawmsg {
    char buf[1024];
    size_t len; /* text beyond the buffer is dropped */
};

void oshm_raw_str(struct oshm_rawmsg *m, const char *s);
void oshm_raw_dec(struct oshm_rawmsg *m, uint64_t v);
void oshm_raw_hex(struct oshm_rawmsg *m, uint64_t v); /* with 0x */
/* Writes the message and a newline to stderr, whole (retried on EINTR and
 * short writes), so that oshrun forwards it as one line. */
void oshm_raw_write(struct oshm_rawmsg *m);

#endif
