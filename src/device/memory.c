/*
 * Device memory: a second symmetric heap, collective like shmem_malloc.
 */
#include <shmem/shmemx.h>
#include <stdint.h>
#include <string.h>

#include "api/api.h"
#include "device/device.h"
#include "hcomm/hcomm.h"
#include "heap/heap.h"
#include "team/team.h"
#include "util/env.h"
#include "util/log.h"
#include "util/state.h"

int device_heap_init(void)
{
    if (oshm_heap_init_kind(&oshm_device_heap, oshm_env.device_heap_size, VMM_KIND_DEVICE,
                            "shmem-device-heap") != 0)
        return -1;
    hcomm_register_seg(HCOMM_SEG_DEVICE, (uintptr_t)oshm_device_heap.base,
                       oshm_device_heap.capacity, oshm_device_heap.committed,
                       &oshm_device_heap.mem);
    return 0;
}

void *device_allocate(size_t size, bool zero, const char *routine)
{
    oshm_require_init(routine);
    void *p = NULL;
    if (size) {
        p = oshm_heap_alloc_in(&oshm_device_heap, size, 0);
        if (!p)
            oshm_warn("%s: cannot allocate %zu bytes: the device heap holds %zu bytes "
                      "(set SHMEM_DEVICE_HEAP_SIZE for more)", routine, size,
                      oshm_env.device_heap_size);
        else if (zero)
            memset(p, 0, size);
    }
    hcomm_seg_grow(HCOMM_SEG_DEVICE, oshm_device_heap.committed);
    oshm_sync_world();
    return p;
}

OSHM_FN(void *, shmemx_device_malloc, (size_t size))
{
    return device_allocate(size, false, "shmemx_device_malloc");
}

void *device_callocate(size_t count, size_t size, const char *routine)
{
    if (size && count > SIZE_MAX / size) {
        oshm_require_init(routine);
        oshm_warn("%s: count * size overflows size_t", routine);
        oshm_sync_world();
        return NULL;
    }
    return device_allocate(count * size, true, routine);
}

void device_release(void *ptr, const char *routine)
{
    oshm_require_init(routine);
    /* No kernel and no PE may still be using it. The library's own quiet:
     * a profile or a pshmem tool sees only the program's calls. */
    shmemx_device_synchronize();
    hcomm_quiet(&hcomm.default_channel);
    oshm_sync_world();
    if (ptr && oshm_heap_free_in(&oshm_device_heap, ptr) != 0)
        oshm_fatal("%s: %p was not returned by shmemd_malloc or shmemx_device_malloc", routine,
                   ptr);
}

OSHM_FN(void *, shmemx_device_calloc, (size_t count, size_t size))
{
    return device_callocate(count, size, "shmemx_device_calloc");
}

OSHM_FN(void, shmemx_device_free, (void *ptr)) { device_release(ptr, "shmemx_device_free"); }

OSHM_FN(size_t, shmemx_device_heap_size, (void)) { return oshm_device_heap.capacity; }
