/* Convenience entry point: the profiling names live in <shmem/pshmem.h>. */
#include <shmem/pshmem.h>
