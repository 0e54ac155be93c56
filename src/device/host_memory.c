/*
 * Device memory under the device library's names: the same heap and the
 * same collective rules as shmemx_device_malloc (src/device/memory.c).
 */
#include <shmem/device.h>

#include "api/api.h"
#include "device/device.h"

OSHM_FN(void *, shmemd_malloc, (size_t size))
{
    return device_allocate(size, false, "shmemd_malloc");
}

OSHM_FN(void *, shmemd_calloc, (size_t count, size_t size))
{
    return device_callocate(count, size, "shmemd_calloc");
}

OSHM_FN(void, shmemd_free, (void *ptr)) { device_release(ptr, "shmemd_free"); }
