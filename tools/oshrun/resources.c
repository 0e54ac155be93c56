/*
 * A PE killed by SIGKILL was killed by someone, or by the kernel's
 * out-of-memory killer, and "killed by signal 9" does not say which. The
 * kernel counts OOM kills: in oshrun's memory cgroup (memory.events under
 * cgroup v2, memory.oom_control under v1; the PEs it starts stay in it) and
 * system-wide (/proc/vmstat). Counted before the PEs start and again when
 * one is killed, they name the OOM killer where it ran.
 */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "oshrun.h"

static char cgroup_file[PATH_MAX];
static long cgroup_before = -1, system_before = -1;

/* The number after "KEY" and SEP on a line of FILE ("oom_kill 3" in
 * memory.events, "VmRSS:   5780 kB" in /proc/self/status), -1 when there
 * is none. */
static long number_after(const char *file, const char *key, char sep)
{
    FILE *f = file[0] ? fopen(file, "r") : NULL;
    if (!f)
        return -1;
    char line[256];
    long value = -1;
    size_t klen = strlen(key);
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, key, klen) && line[klen] == sep) {
            sscanf(line + klen + 1, "%ld", &value);
            break;
        }
    fclose(f);
    return value;
}

static long counter(const char *file, const char *key) { return number_after(file, key, ' '); }

/* DIR/PATH/NAME, or where the group is mounted elsewhere than at the
 * hierarchy's root (a container sees its own group at DIR), DIR/ and
 * PATH less its leading directories: the first that counts OOM kills. */
static void pick(const char *dir, const char *path, const char *name)
{
    for (const char *p = path; p && *p; p = strchr(p + 1, '/')) {
        snprintf(cgroup_file, sizeof cgroup_file, "%s%s/%s", dir, p, name);
        if (counter(cgroup_file, "oom_kill") >= 0)
            return;
    }
    snprintf(cgroup_file, sizeof cgroup_file, "%s/%s", dir, name);
    if (counter(cgroup_file, "oom_kill") < 0)
        cgroup_file[0] = '\0';
}

static void find_cgroup(void)
{
    FILE *f = fopen("/proc/self/cgroup", "r");
    if (!f)
        return;
    char line[PATH_MAX + 64], v2[PATH_MAX] = "", v1[PATH_MAX] = "";
    bool have_v1 = false, have_v2 = false;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        if (!c2)
            continue;
        *c2 = '\0';
        const char *controllers = c1 + 1, *path = c2 + 1;
        if (!strcmp(line, "0") && !*controllers) {
            snprintf(v2, sizeof v2, "%s", strcmp(path, "/") ? path : "");
            have_v2 = true;
        }
        for (const char *w = controllers; w && *w; w = strchr(w, ',') ? strchr(w, ',') + 1 : NULL)
            if (!strncmp(w, "memory", 6) && (w[6] == ',' || !w[6])) {
                snprintf(v1, sizeof v1, "%s", strcmp(path, "/") ? path : "");
                have_v1 = true;
            }
    }
    fclose(f);
    if (have_v1)
        pick("/sys/fs/cgroup/memory", v1, "memory.oom_control");
    if (!cgroup_file[0] && have_v2)
        pick("/sys/fs/cgroup", v2, "memory.events");
}

/* The memory cgroup's limit in kB, its ancestors' included; -1: none. */
static long long cgroup_limit_kb(void)
{
    if (!cgroup_file[0])
        return -1;
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", cgroup_file);
    char *slash = strrchr(dir, '/');
    if (!slash)
        return -1;
    *slash = '\0';
    char file[PATH_MAX + 32];
    long long limit = -1;
    if (strstr(cgroup_file, "memory.oom_control")) {
        /* v1 says what the hierarchy allows in memory.stat. */
        snprintf(file, sizeof file, "%s/memory.stat", dir);
        limit = number_after(file, "hierarchical_memory_limit", ' ');
        return limit > 0 ? limit >> 10 : -1;
    }
    /* v2: the smallest memory.max from the group up to the mount. */
    while (strlen(dir) > strlen("/sys/fs/cgroup")) {
        snprintf(file, sizeof file, "%s/memory.max", dir);
        FILE *f = fopen(file, "r");
        long long v;
        if (f && fscanf(f, "%lld", &v) == 1 && v > 0 && (limit < 0 || v < limit))
            limit = v;
        if (f)
            fclose(f);
        *strrchr(dir, '/') = '\0';
    }
    return limit > 0 ? limit >> 10 : -1;
}

const char *resources_pe_oom_adj(void)
{
    static char text[16];
    static bool done;
    if (done)
        return text[0] ? text : NULL;
    done = true;
    long long rss = number_after("/proc/self/status", "VmRSS", ':');
    long long total = number_after("/proc/meminfo", "MemTotal", ':');
    long long swap = number_after("/proc/meminfo", "SwapTotal", ':');
    long long limit = cgroup_limit_kb();
    if (rss <= 0 || total <= 0)
        return NULL;
    if (swap > 0)
        total += swap;
    if (limit > 0 && limit < total)
        total = limit;
    FILE *f = fopen("/proc/self/oom_score_adj", "r");
    int own = 0;
    if (!f || fscanf(f, "%d", &own) != 1)
        own = 0;
    if (f)
        fclose(f);
    /* The kernel's score is resident pages plus oom_score_adj thousandths
     * of the memory it is short of: per-mille enough to cover twice what
     * oshrun holds now (it grows with the job's output) and 4 MB more. */
    long long margin = (1000 * (2 * rss + 4096) + total - 1) / total;
    long long adj = own + (margin < 1 ? 1 : margin);
    if (adj > 1000)
        adj = 1000;
    if (adj > own)
        snprintf(text, sizeof text, "%lld\n", adj);
    return text[0] ? text : NULL;
}

void resources_init(void)
{
    find_cgroup();
    cgroup_before = counter(cgroup_file, "oom_kill");
    system_before = counter("/proc/vmstat", "oom_kill");
}

const char *resources_killed_note(int sig)
{
    static char note[PATH_MAX + 200];
    if (sig != SIGKILL)
        return "";
    long cg = counter(cgroup_file, "oom_kill"), sys = counter("/proc/vmstat", "oom_kill");
    note[0] = '\0';
    if (cgroup_before >= 0 && cg > cgroup_before)
        snprintf(note, sizeof note, ": out of memory, the kernel's OOM killer ended it (%s "
                                    "counts %ld more OOM kill%s since the job started: the "
                                    "PEs need more than the memory cgroup's limit)",
                 cgroup_file, cg - cgroup_before, cg - cgroup_before > 1 ? "s" : "");
    else if (system_before >= 0 && sys > system_before)
        snprintf(note, sizeof note, ": most likely out of memory, the kernel's OOM killer "
                                    "killed %ld process%s since the job started "
                                    "(/proc/vmstat; dmesg names them)",
                 sys - system_before, sys - system_before > 1 ? "es" : "");
    else if (system_before < 0)
        snprintf(note, sizeof note, " (sent by another process, or by the kernel's OOM killer "
                                    "when memory ran out: see dmesg)");
    /* A second PE killed is judged by what happened since the first. */
    if (cg >= 0)
        cgroup_before = cg;
    if (sys >= 0)
        system_before = sys;
    return note;
}
