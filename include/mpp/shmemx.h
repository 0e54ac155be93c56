/* Older programs include <mpp/shmemx.h>: the same extensions as <shmemx.h>. */
#include <shmemx.h>
