#include "util/rawmsg.h"

#include <errno.h>
#include <unistd.h>

static void put_char(struct oshm_rawmsg *m, char c)
{
    if (m->len < sizeof m->buf - 1) /* room for the newline */
        m->buf[m->len++] = c;
}

void oshm_raw_str(struct oshm_rawmsg *m, const char *s)
{
    while (s && *s)
        put_char(m, *s++);
}

static void put_digits(struct oshm_rawmsg *m, uint64_t v, unsigned base)
{
    char digits[24];
    int n = 0;
    do {
        digits[n++] = "0123456789abcdef"[v % base];
        v /= base;
    } while (v);
    while (n)
        put_char(m, digits[--n]);
}

void oshm_raw_dec(struct oshm_rawmsg *m, uint64_t v) { put_digits(m, v, 10); }

void oshm_raw_hex(struct oshm_rawmsg *m, uint64_t v)
{
    oshm_raw_str(m, "0x");
    put_digits(m, v, 16);
}

void oshm_raw_write(struct oshm_rawmsg *m)
{
    m->buf[m->len++] = '\n'; /* put_char always leaves room for it */
    int saved = errno;       /* the interrupted code may be about to read it */
    for (size_t done = 0; done < m->len;) {
        ssize_t w = write(2, m->buf + done, m->len - done);
        if (w > 0)
            done += (size_t)w;
        else if (w == 0 || errno != EINTR)
            break;
    }
    m->len--;
    errno = saved;
}
