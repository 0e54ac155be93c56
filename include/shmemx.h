/* Convenience entry point: the extensions live in <shmem/shmemx.h>. */
#include <shmem/shmemx.h>
