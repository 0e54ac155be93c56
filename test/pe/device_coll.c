#include <shmem/device.h>
#include "check.h"
int main(void) { shmem_init(); shmem_finalize(); return 0; }
