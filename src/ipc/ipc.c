/* The export table and the service's lifetime; src/ipc/server.c answers
 * importers from this table, src/ipc/import.c is the importer's side. */
#include "ipc/ipc.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ipc/exports.h"
#include "ipc/server.h"

struct ipc_export {
    struct ipc_export *next;
    uint32_t id;
    int fd;
    int npids;
    pid_t *pids;
};

/* The service thread reads the table while the application changes it. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct ipc_export *exports;
static uint32_t next_id = 1;
/* Every PID ever allowed, so that membership outlives an unexport. */
static pid_t *members;
static int nmembers;
static bool started;
static char server_name[IPC_SERVER_NAME_LEN];

static struct ipc_export *find_export(uint32_t id)
{
    for (struct ipc_export *e = exports; e; e = e->next)
        if (e->id == id)
            return e;
    return NULL;
}

/* PID lists are kept sorted, without repeats: a PE of a node of n PEs
 * allows its n - 1 neighbours for each segment, and a linear search per
 * PID added made that n^2 comparisons in each PE's start-up (4% of the
 * CPU of 1,024 PEs starting, the most of any function). */
static int pid_order(const void *a, const void *b)
{
    pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;
    return (x > y) - (x < y);
}

static bool listed(const pid_t *pids, int n, pid_t pid)
{
    return n > 0 && bsearch(&pid, pids, (size_t)n, sizeof *pids, pid_order) != NULL;
}

/* Sorts the N PIDS and drops repeats; returns how many are left. Lists
 * arrive sorted more often than not (a node's PIDs, one list for every
 * segment): those are only checked. */
static int sort_unique(pid_t *pids, int n)
{
    int sorted = 1;
    while (sorted < n && pids[sorted - 1] <= pids[sorted])
        sorted++;
    if (sorted < n)
        qsort(pids, (size_t)n, sizeof *pids, pid_order);
    int k = 0;
    for (int i = 0; i < n; i++)
        if (k == 0 || pids[i] != pids[k - 1])
            pids[k++] = pids[i];
    return k;
}

static void free_export(struct ipc_export *e)
{
    close(e->fd);
    free(e->pids);
    free(e);
}

bool ipc_exports_member(pid_t pid)
{
    pthread_mutex_lock(&lock);
    bool yes = listed(members, nmembers, pid);
    pthread_mutex_unlock(&lock);
    return yes;
}

int ipc_exports_take(uint32_t id, pid_t pid, int *fd)
{
    int status = 0;
    pthread_mutex_lock(&lock);
    struct ipc_export *e = find_export(id);
    if (!e)
        status = ENOENT;
    else if (!listed(e->pids, e->npids, pid))
        status = EPERM;
    else if ((*fd = fcntl(e->fd, F_DUPFD_CLOEXEC, 0)) < 0)
        status = errno ? errno : EIO;
    pthread_mutex_unlock(&lock);
    return status;
}

int ipc_init(void)
{
    if (started)
        return 0;
    if (ipc_server_start(server_name) != 0)
        return -1;
    started = true;
    return 0;
}

void ipc_fini(void)
{
    if (!started)
        return;
    ipc_server_stop();
    started = false;
    pthread_mutex_lock(&lock);
    while (exports) {
        struct ipc_export *e = exports;
        exports = e->next;
        free_export(e);
    }
    free(members);
    members = NULL;
    nmembers = 0;
    pthread_mutex_unlock(&lock);
}

int ipc_export(const struct vmm_handle *h, const pid_t *pids, int npids, struct ipc_key *key)
{
    if (ipc_init() != 0)
        return -1;
    struct ipc_export *e = calloc(1, sizeof *e);
    if (!e)
        return -1;
    e->fd = vmm_export(h);
    if (e->fd < 0) {
        free(e);
        return -1;
    }
    pthread_mutex_lock(&lock);
    e->id = next_id++;
    e->next = exports;
    exports = e;
    pthread_mutex_unlock(&lock);

    memset(key, 0, sizeof *key);
    key->owner_pid = (int32_t)getpid();
    key->id = e->id;
    key->size = h->size;
    key->kind = (uint32_t)h->kind;
    memcpy(key->server, server_name, sizeof key->server);
    return ipc_export_allow(key, pids, npids);
}

int ipc_export_direct(struct ipc_key *key)
{
    pthread_mutex_lock(&lock);
    struct ipc_export *e = find_export(key->id);
    struct stat st;
    int rc = e && fstat(e->fd, &st) == 0 ? 0 : -1;
    if (rc == 0) {
        key->direct_fd = e->fd;
        key->direct_dev = (uint64_t)st.st_dev;
        key->direct_ino = (uint64_t)st.st_ino;
    } else if (!e) {
        errno = ENOENT;
    }
    pthread_mutex_unlock(&lock);
    return rc;
}

/* Adds the PIDS not yet there to the members; under the lock. Each
 * segment's export lists the same PIDs again: then nothing changes. */
static int add_members(const pid_t *pids, int npids)
{
    int known = 0;
    while (known < npids && listed(members, nmembers, pids[known]))
        known++;
    if (known == npids)
        return 0;
    pid_t *m = realloc(members, sizeof *m * (size_t)(nmembers + npids));
    if (!m)
        return -1;
    members = m;
    memcpy(m + nmembers, pids, sizeof *m * (size_t)npids);
    nmembers = sort_unique(m, nmembers + npids);
    return 0;
}

int ipc_export_allow(const struct ipc_key *key, const pid_t *pids, int npids)
{
    int rc = -1;
    pthread_mutex_lock(&lock);
    struct ipc_export *e = find_export(key->id);
    if (!e) {
        errno = ENOENT;
    } else if (npids <= 0) {
        rc = 0;
    } else {
        pid_t *np = realloc(e->pids, sizeof *np * (size_t)(e->npids + npids));
        if (np) {
            e->pids = np;
            if (add_members(pids, npids) == 0) {
                memcpy(np + e->npids, pids, sizeof *np * (size_t)npids);
                e->npids = sort_unique(np, e->npids + npids);
                rc = 0;
            }
        }
    }
    pthread_mutex_unlock(&lock);
    return rc;
}

int ipc_unexport(const struct ipc_key *key)
{
    pthread_mutex_lock(&lock);
    struct ipc_export **slot = &exports;
    while (*slot && (*slot)->id != key->id)
        slot = &(*slot)->next;
    struct ipc_export *e = *slot;
    if (e)
        *slot = e->next;
    pthread_mutex_unlock(&lock);
    if (!e) {
        errno = ENOENT;
        return -1;
    }
    free_export(e);
    return 0;
}
