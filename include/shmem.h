/* Convenience entry point: the OpenSHMEM API lives in <shmem/shmem.h>. */
#include <shmem/shmem.h>
