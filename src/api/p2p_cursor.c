/*
 * The _any routines' cursors (p2p_cursor.h). Each thread keeps its own, so
 * calls take no lock and share no cache line, and a thread's series is fair
 * whatever other threads poll. A series is one routine (of one type) on one
 * array: a program that interleaves test_any and wait_until_any on one
 * array, or test_any on two arrays, keeps each series fair, which one cursor
 * per thread would not (two alternating series would split the elements
 * between them).
 *
 * A new series starts at the lowest element, as a first call always did.
 * The cursors of the series least recently used make room for new ones, so
 * a thread that interleaves more than CURSORS series at once loses the
 * rotation (each call then starts at 0 again).
 */
#include "api/p2p_cursor.h"

#include <stdint.h>

#define CURSORS 16

struct cursor {
    const void *ivars;
    const char *routine;
    size_t next;
    uint64_t used; /* the thread's call count at its last use; 0: never */
};

static _Thread_local struct cursor cursors[CURSORS];
static _Thread_local uint64_t calls;

size_t *oshm_any_cursor(const void *ivars, const char *routine)
{
    struct cursor *victim = &cursors[0];
    calls++;
    for (int i = 0; i < CURSORS; i++) {
        struct cursor *c = &cursors[i];
        if (c->routine == routine && c->ivars == ivars) {
            c->used = calls;
            return &c->next;
        }
        if (c->used < victim->used)
            victim = c;
    }
    *victim = (struct cursor){.ivars = ivars, .routine = routine, .next = 0, .used = calls};
    return &victim->next;
}
