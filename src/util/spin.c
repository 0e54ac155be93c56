#include "util/spin.h"

/* Until start-up knows better, assume the worst: yielding early is slow on
 * an idle machine, but spinning when PEs share cores can stall a job. */
bool oshm_oversubscribed = true;

unsigned (*oshm_progress_hook)(void);

_Atomic unsigned oshm_spin_extra_threads;
_Atomic unsigned oshm_spin_pe_cores = 1;
