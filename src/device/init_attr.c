/*
 * Start-up with attributes (NVSHMEM's nvshmemx_init_attr, CANN SHMEM's
 * aclshmemx_init_attr): heap sizes, the device, and a bootstrap from a
 * unique id for processes that no launcher of ours started.
 */
#include <shmem/device.h>
#include <shmem/shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "boot/boot.h"
#include "util/state.h"

_Static_assert(sizeof(shmemd_uniqueid_t) == OSHM_BOOT_UID_LEN, "unique id size");

static int chosen_device;

OSHM_FN(int, shmemd_get_uniqueid, (shmemd_uniqueid_t * uid))
{
    if (!uid) {
        fprintf(stderr, "shmem: shmemd_get_uniqueid: NULL id\n");
        return -1;
    }
    if (oshm_state.running) {
        fprintf(stderr, "shmem: shmemd_get_uniqueid: call it before the job starts "
                        "(shmemd_init_attr), on rank 0\n");
        return -1;
    }
    return oshm_boot_uid_create(uid->internal);
}

OSHM_FN(int, shmemd_set_attr_uniqueid_args,
        (int rank, int nranks, const shmemd_uniqueid_t *uid, shmemd_init_attr_t *attr))
{
    const char *routine = "shmemd_set_attr_uniqueid_args";
    if (!uid || !attr) {
        fprintf(stderr, "shmem: %s: NULL %s\n", routine, uid ? "attributes" : "id");
        return -1;
    }
    if (nranks < 1 || rank < 0 || rank >= nranks) {
        fprintf(stderr, "shmem: %s: rank %d of %d is not a rank of the job\n", routine, rank,
                nranks);
        return -1;
    }
    attr->rank = rank;
    attr->nranks = nranks;
    attr->uid = *uid;
    return 0;
}

/* An attribute overrides its environment variable for the start-up only. */
struct env_override {
    const char *name;
    char *saved;
    bool was_set;
};

static void override(struct env_override *o, const char *name, size_t value)
{
    o->name = name;
    const char *old = getenv(name);
    o->was_set = old != NULL;
    o->saved = old ? strdup(old) : NULL;
    char buf[32];
    snprintf(buf, sizeof buf, "%zu", value);
    setenv(name, buf, 1);
}

static void restore(struct env_override *o)
{
    if (!o->name)
        return;
    if (o->was_set && o->saved)
        setenv(o->name, o->saved, 1);
    else
        unsetenv(o->name);
    free(o->saved);
}

OSHM_FN(int, shmemd_init_attr, (unsigned flags, shmemd_init_attr_t *attr))
{
    const char *routine = "shmemd_init_attr";
    if (flags & ~(SHMEMD_INIT_WITH_UNIQUEID | SHMEMD_INIT_THREAD_MULTIPLE)) {
        fprintf(stderr, "shmem: %s: unknown flags %#x\n", routine, flags);
        return -1;
    }
    if ((flags & SHMEMD_INIT_WITH_UNIQUEID) && !attr) {
        fprintf(stderr, "shmem: %s: SHMEMD_INIT_WITH_UNIQUEID needs attributes "
                        "(shmemd_set_attr_uniqueid_args)\n", routine);
        return -1;
    }
    if (attr && attr->device_id < -1) {
        fprintf(stderr, "shmem: %s: device %d does not exist (0 and up; -1: the default)\n",
                routine, attr->device_id);
        return -1;
    }
    if ((flags & SHMEMD_INIT_WITH_UNIQUEID) && !oshm_state.running &&
        oshm_boot_uid_arm(attr->rank, attr->nranks, attr->uid.internal, routine) != 0)
        return -1;
    struct env_override sizes[2] = {{0}};
    if (attr && attr->heap_size)
        override(&sizes[0], "SHMEM_SYMMETRIC_SIZE", attr->heap_size);
    if (attr && attr->device_heap_size)
        override(&sizes[1], "SHMEM_DEVICE_HEAP_SIZE", attr->device_heap_size);
    int level = flags & SHMEMD_INIT_THREAD_MULTIPLE ? SHMEM_THREAD_MULTIPLE : SHMEM_THREAD_SINGLE;
    int provided;
    int rc = shmem_init_thread(level, &provided);
    restore(&sizes[0]);
    restore(&sizes[1]);
    oshm_boot_uid_disarm();
    if (rc == 0 && attr && attr->device_id >= 0)
        chosen_device = attr->device_id;
    return rc;
}

OSHM_FN(int, shmemd_device_id, (void)) { return chosen_device; }
