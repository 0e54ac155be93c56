#include "boot/boot.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "boot/kvstore.h"

struct oshm_boot oshm_boot;

/* ---- Singleton: a program started without a launcher is a 1-PE job. ---- */
static struct oshm_kvstore single_store;

static int single_put(const char *key, const void *value, size_t len)
{
    return oshm_kv_set(&single_store, 0, key, value, len);
}

static int single_fence(void) { return 0; }

static int single_get(int rank, const char *key, void *value, size_t len)
{
    return oshm_kv_get(&single_store, rank, key, value, len);
}

static _Noreturn void single_abort(int status, const char *message)
{
    (void)message;
    _exit(status);
}

static void single_finalize(void) { oshm_kv_clear(&single_store); }

static const struct oshm_boot_ops single_ops = {
    .name = "singleton",
    .put = single_put,
    .fence = single_fence,
    .get = single_get,
    .abort = single_abort,
    .finalize = single_finalize,
};

int oshm_boot_init(void)
{
    int rc = oshm_boot_launcher_init();
    if (rc <= 0)
        return rc;
    rc = oshm_boot_pmix_init();
    if (rc <= 0)
        return rc;
    oshm_boot.ops = &single_ops;
    oshm_boot.rank = 0;
    oshm_boot.size = 1;
    return 0;
}

void oshm_boot_abort(int status)
{
    fflush(NULL);
    if (oshm_boot.ops)
        oshm_boot.ops->abort(status, "shmem abort");
    _exit(status);
}

int oshm_boot_allgather(const void *mine, void *all, size_t len)
{
    static unsigned round;
    char key[32];
    snprintf(key, sizeof key, "oshm.ag.%u", round++);
    if (oshm_boot.ops->put(key, mine, len) != 0 || oshm_boot.ops->fence() != 0)
        return -1;
    for (int r = 0; r < oshm_boot.size; r++)
        if (oshm_boot.ops->get(r, key, (char *)all + (size_t)r * len, len) != 0)
            return -1;
    return 0;
}
