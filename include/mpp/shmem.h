/* Older programs (SGI and Cray SHMEM, OpenSHMEM 1.0) include <mpp/shmem.h>:
 * the same API as <shmem.h>. */
#include <shmem.h>
