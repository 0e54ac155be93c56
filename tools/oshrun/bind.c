/*
 * Binding the PEs of this machine, with Open MPI 4.1's rules:
 *   - where a PE goes (--map-by): core or slot: the cores in order; hwthread:
 *     the hardware threads in order; numa or socket: dealt to the NUMA
 *     domains or packages in turn, then the cores of each in order;
 *   - what it is bound to (--bind-to): that hardware thread, that core, or
 *     the NUMA domain or package holding it, or nothing;
 *   - defaults: map and bind to core for 2 PEs or fewer, NUMA beyond; no
 *     binding when the PEs outnumber the cores (binding would stack them).
 * The topology is the part of the machine oshrun itself may run on (its
 * cgroup and its own binding, as srun or taskset left it), so PEs never
 * escape what the launcher of oshrun gave it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "oshrun.h"

#ifdef OSHRUN_HAVE_HWLOC
#include <hwloc.h>
#include <hwloc/glibc-sched.h>

static hwloc_topology_t topo;
static hwloc_bitmap_t *sets; /* per local PE: its binding, NULL: not bound */
static int nsets;

static _Noreturn void too_many(const char *what, int n, int have)
{
    fprintf(stderr, "oshrun: --bind-to %s: %d PEs on this machine but only %d %ss to bind "
                    "them to; add --oversubscribe (or :overload-allowed) to stack them, or "
                    "--bind-to none\n", what, n, have, what);
    exit(2);
}

/* The core (or, with --map-by hwthread, the hardware thread) PE K goes to. */
static hwloc_obj_t mapped(int k, enum map_by map)
{
    int ncores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
    hwloc_obj_type_t unit = ncores > 0 ? HWLOC_OBJ_CORE : HWLOC_OBJ_PU;
    int nunits = ncores > 0 ? ncores : hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
    if (map == MAP_HWTHREAD) {
        int npu = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
        return hwloc_get_obj_by_type(topo, HWLOC_OBJ_PU, (unsigned)(k % npu));
    }
    if (map == MAP_NUMA || map == MAP_SOCKET) {
        hwloc_obj_type_t gt = map == MAP_NUMA ? HWLOC_OBJ_NUMANODE : HWLOC_OBJ_PACKAGE;
        int ngroups = hwloc_get_nbobjs_by_type(topo, gt);
        if (ngroups > 0) {
            hwloc_obj_t g = hwloc_get_obj_by_type(topo, gt, (unsigned)(k % ngroups));
            int in = hwloc_get_nbobjs_inside_cpuset_by_type(topo, g->cpuset, unit);
            if (in > 0)
                return hwloc_get_obj_inside_cpuset_by_type(topo, g->cpuset, unit,
                                                           (unsigned)(k / ngroups % in));
        }
    }
    return hwloc_get_obj_by_type(topo, unit, (unsigned)(k % nunits));
}

/* The cpus a PE mapped to OBJ is bound to at LEVEL. */
static hwloc_const_cpuset_t bound_set(hwloc_obj_t obj, enum bind_level level)
{
    switch (level) {
    case BIND_HWTHREAD:
        return obj->type == HWLOC_OBJ_PU
                   ? obj->cpuset
                   : hwloc_get_obj_inside_cpuset_by_type(topo, obj->cpuset, HWLOC_OBJ_PU, 0)
                         ->cpuset;
    case BIND_CORE: {
        hwloc_obj_t core = obj->type == HWLOC_OBJ_CORE
                               ? obj
                               : hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_CORE, obj);
        return (core ? core : obj)->cpuset;
    }
    case BIND_NUMA: {
        int n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE);
        for (int i = 0; i < n; i++) {
            hwloc_obj_t numa = hwloc_get_obj_by_type(topo, HWLOC_OBJ_NUMANODE, (unsigned)i);
            if (hwloc_bitmap_isincluded(obj->cpuset, numa->cpuset))
                return numa->cpuset;
        }
        return hwloc_get_root_obj(topo)->cpuset;
    }
    case BIND_SOCKET: {
        hwloc_obj_t pkg = hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_PACKAGE, obj);
        return (pkg ? pkg : hwloc_get_root_obj(topo))->cpuset;
    }
    default:
        return NULL;
    }
}

/* The topology of the cpus this process may use; 0, or -1 after printing
 * why when binding was asked for. */
static int load_topology(void)
{
    hwloc_bitmap_t mine = hwloc_bitmap_alloc();
    if (hwloc_topology_init(&topo) != 0 || hwloc_topology_load(topo) != 0 || !mine ||
        hwloc_get_cpubind(topo, mine, HWLOC_CPUBIND_PROCESS) != 0 ||
        hwloc_topology_restrict(topo, mine, 0) != 0) {
        hwloc_bitmap_free(mine);
        if (topo)
            hwloc_topology_destroy(topo);
        topo = NULL;
        if (opt.bind != BIND_DEFAULT && opt.bind != BIND_NONE) {
            fprintf(stderr, "oshrun: cannot read this machine's topology (hwloc), so cannot "
                            "bind PEs; use --bind-to none\n");
            return -1;
        }
        return 0;
    }
    hwloc_bitmap_free(mine);
    return 0;
}

/* Each of N PEs' cpus, into sets[] (NULL: not bound). */
static void plan(int n)
{
    int ncores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
    int npu = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
    if (ncores <= 0)
        ncores = npu;
    enum bind_level level = opt.bind;
    bool stack_ok = opt.oversubscribe || opt.bind_overload;
    if (level == BIND_DEFAULT)
        level = n > ncores ? BIND_NONE : n <= 2 ? BIND_CORE : BIND_NUMA;
    else if (level == BIND_CORE && n > ncores && !stack_ok)
        too_many("core", n, ncores);
    else if (level == BIND_HWTHREAD && n > npu && !stack_ok)
        too_many("hwthread", n, npu);
    enum map_by map = opt.map;
    if (map == MAP_DEFAULT || map == MAP_NODE || map == MAP_SLOT)
        map = map == MAP_DEFAULT && n > 2 ? MAP_NUMA : MAP_CORE;
    if (level == BIND_HWTHREAD && map == MAP_CORE && n > ncores)
        map = MAP_HWTHREAD; /* hardware threads of one core before stacking */
    sets = calloc((size_t)n, sizeof *sets);
    if (!sets) {
        fprintf(stderr, "oshrun: out of memory\n");
        exit(1);
    }
    nsets = n;
    if (level == BIND_NONE)
        return;
    for (int k = 0; k < n; k++) {
        hwloc_const_cpuset_t set = bound_set(mapped(k, map), level);
        if (set && !hwloc_bitmap_isequal(set, hwloc_get_root_obj(topo)->cpuset))
            sets[k] = hwloc_bitmap_dup(set);
    }
}

void bind_plan(void)
{
    int nlocal = local_pe_count();
    if (nlocal == 0 || (opt.bind == BIND_NONE && !opt.report_bindings))
        return;
    if (load_topology() != 0)
        exit(2);
    if (topo)
        plan(nlocal);
}

int bind_mask(int rank, cpu_set_t *mask, char *failed, size_t len)
{
    int k = local_index(rank);
    if (k < 0 || !sets || !sets[k])
        return 0;
    if (hwloc_cpuset_to_glibc_sched_affinity(topo, sets[k], mask, sizeof *mask) != 0)
        return -1;
    char *list = NULL;
    hwloc_bitmap_list_asprintf(&list, sets[k]);
    snprintf(failed, len, "oshrun: cannot bind PE %d to cpus %s\n", rank, list ? list : "?");
    free(list);
    return 1;
}

/* "package 0[core 1[hwt 0-1]]" for each core of SET, and the [B/.] picture. */
static void describe(hwloc_const_cpuset_t set, char *buf, size_t len)
{
    size_t n = 0;
    int ncores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
    for (int c = 0; c < ncores && n < len; c++) {
        hwloc_obj_t core = hwloc_get_obj_by_type(topo, HWLOC_OBJ_CORE, (unsigned)c);
        if (!hwloc_bitmap_intersects(core->cpuset, set))
            continue;
        hwloc_obj_t pkg = hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_PACKAGE, core);
        int npu = hwloc_get_nbobjs_inside_cpuset_by_type(topo, core->cpuset, HWLOC_OBJ_PU);
        int first = -1, last = -1;
        for (int p = 0; p < npu; p++) {
            hwloc_obj_t pu = hwloc_get_obj_inside_cpuset_by_type(topo, core->cpuset,
                                                                 HWLOC_OBJ_PU, (unsigned)p);
            if (hwloc_bitmap_isset(set, pu->os_index)) {
                first = first < 0 ? p : first;
                last = p;
            }
        }
        char hwt[24];
        snprintf(hwt, sizeof hwt, first == last ? "%d" : "%d-%d", first, last);
        n += (size_t)snprintf(buf + n, len - n, "%ssocket %u[core %u[hwt %s]]", n ? ", " : "",
                              pkg ? pkg->logical_index : 0u, core->logical_index, hwt);
    }
    if (n < len)
        n += (size_t)snprintf(buf + n, len - n, ": ");
    int npkg = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PACKAGE);
    hwloc_obj_t root = hwloc_get_root_obj(topo);
    for (int s = 0; s < (npkg > 0 ? npkg : 1) && n < len; s++) {
        hwloc_obj_t pkg = npkg > 0 ? hwloc_get_obj_by_type(topo, HWLOC_OBJ_PACKAGE,
                                                           (unsigned)s) : root;
        n += (size_t)snprintf(buf + n, len - n, "[");
        int nc = hwloc_get_nbobjs_inside_cpuset_by_type(topo, pkg->cpuset, HWLOC_OBJ_CORE);
        for (int c = 0; c < nc && n < len; c++) {
            hwloc_obj_t core = hwloc_get_obj_inside_cpuset_by_type(topo, pkg->cpuset,
                                                                   HWLOC_OBJ_CORE, (unsigned)c);
            if (c && n < len)
                buf[n++] = '/';
            int np = hwloc_get_nbobjs_inside_cpuset_by_type(topo, core->cpuset, HWLOC_OBJ_PU);
            for (int p = 0; p < np && n < len; p++) {
                hwloc_obj_t pu = hwloc_get_obj_inside_cpuset_by_type(
                    topo, core->cpuset, HWLOC_OBJ_PU, (unsigned)p);
                buf[n++] = hwloc_bitmap_isset(set, pu->os_index) ? 'B' : '.';
            }
        }
        if (n < len)
            n += (size_t)snprintf(buf + n, len - n, "]");
    }
    buf[n < len ? n : len - 1] = '\0';
}

/* RANK, the K-th PE of this machine, bound to sets[K] or not bound. */
static void report(int rank, int k)
{
    char host[64] = "";
    gethostname(host, sizeof host - 1);
    host[strcspn(host, ".")] = '\0';
    if (!sets || !sets[k]) {
        fprintf(stderr, "[%s:%d] PE %d is not bound (or bound to all available processors)\n",
                host, (int)getpid(), rank);
    } else {
        char what[1024];
        describe(sets[k], what, sizeof what);
        fprintf(stderr, "[%s:%d] PE %d bound to %s\n", host, (int)getpid(), rank, what);
    }
}

void bind_report(int rank)
{
    if (!opt.report_bindings)
        return;
    int k = local_index(rank);
    if (k >= 0)
        report(rank, k);
    else if (!bind_remote())
        fprintf(stderr, "oshrun: PE %d runs on %s, not bound: without --bind-to, oshrun "
                        "binds only the PEs of this machine\n", rank, host_of(rank)->name);
}

bool bind_remote(void) { return opt.bind != BIND_DEFAULT && opt.bind != BIND_NONE; }

/* On another host: "oshrun --bound-exec LEVEL MAP FLAGS K N RANK -- program
 * args", started by the launch agent, binds itself as PE K of the N there,
 * with that host's own topology, and becomes the program. */
int bind_exec_main(int argc, char **argv)
{
    if (argc < 10 || strcmp(argv[8], "--")) {
        fprintf(stderr, "oshrun --bound-exec: LEVEL MAP FLAGS K N RANK -- program args\n");
        return 2;
    }
    opt.bind = (enum bind_level)atoi(argv[2]);
    opt.map = (enum map_by)atoi(argv[3]);
    opt.oversubscribe = strchr(argv[4], 'o') != NULL;
    opt.report_bindings = strchr(argv[4], 'r') != NULL;
    int k = atoi(argv[5]), n = atoi(argv[6]), rank = atoi(argv[7]);
    if (k < 0 || n < 1 || k >= n || load_topology() != 0 || !topo)
        return 127;
    plan(n);
    if (opt.report_bindings)
        report(rank, k);
    if (sets[k] && hwloc_set_cpubind(topo, sets[k], HWLOC_CPUBIND_PROCESS) != 0) {
        fprintf(stderr, "oshrun: cannot bind PE %d on this host\n", rank);
        return 127;
    }
    bind_fini();
    execvp(argv[9], argv + 9);
    fprintf(stderr, "oshrun: cannot run '%s': %s\n", argv[9], strerror(errno));
    return 127;
}

void bind_fini(void)
{
    for (int k = 0; k < nsets; k++)
        hwloc_bitmap_free(sets[k]);
    free(sets);
    sets = NULL;
    nsets = 0;
    if (topo)
        hwloc_topology_destroy(topo);
    topo = NULL;
}

#else /* !OSHRUN_HAVE_HWLOC */

void bind_plan(void)
{
    if (opt.bind != BIND_DEFAULT && opt.bind != BIND_NONE) {
        fprintf(stderr, "oshrun: this build has no hwloc (libhwloc-dev), so it cannot bind "
                        "PEs; use --bind-to none\n");
        exit(2);
    }
}

int bind_mask(int rank, cpu_set_t *mask, char *failed, size_t len)
{
    (void)rank;
    (void)mask;
    (void)failed;
    (void)len;
    return 0;
}

void bind_report(int rank)
{
    if (opt.report_bindings)
        fprintf(stderr, "oshrun: PE %d is not bound (this build has no hwloc)\n", rank);
}

bool bind_remote(void) { return false; }

int bind_exec_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "oshrun: this build has no hwloc (libhwloc-dev): it cannot bind PEs\n");
    return 127;
}

void bind_fini(void) {}

#endif
