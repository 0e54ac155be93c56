/*
 * A load or store that faults in symmetric memory (a heap address beyond
 * every allocation has no page behind it: SIGBUS) would end the PE with no
 * word of why. While the library runs, a SIGBUS/SIGSEGV handler says which
 * address faulted, where it lies (this PE's or a peer's symmetric heap,
 * symmetric data, device heap, and the range), and whether the program or
 * an OpenSHMEM routine made the access; then the previous handler or the
 * default action ends the PE as before, so the launcher still sees the
 * signal.
 */
#ifndef OSHM_CORE_FAULT_H
#define OSHM_CORE_FAULT_H

/* After the segments are registered and the peers connected. */
void oshm_fault_init(void);
/* Before they go away: the previous handlers come back. */
void oshm_fault_fini(void);

#endif
