/*
 * Turns of a pair of PEs on a symmetric array, counted where each of them
 * is: every exchange at step K of a collective that uses the array is made
 * by both PEs of the pair, so both count it, and both know without a
 * message which of two halves (of the array, or of its signal words) the
 * exchange after it takes. A partner can be at most one exchange ahead of
 * this PE on the same array and step (it cannot finish an exchange before
 * this PE's part of it has arrived), so two halves, taken in turn, keep a
 * fast partner's next exchange off what this one has not read.
 */
#ifndef OSHM_TEAM_COLL_TURNS_H
#define OSHM_TEAM_COLL_TURNS_H

#include <stddef.h>
#include <stdint.h>

/* The count of the exchanges before this one between this PE and world PE
 * PE at step K on the array at offset OFF of segment SEG; counts this one. */
uint32_t oshm_coll_turn(int seg, size_t off, int pe, int k);

#endif
