#include "util/env.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/log.h"

extern char **environ;

struct oshm_env oshm_env;

#define OSHM_ENV_SCOPE_USER false
#define OSHM_ENV_SCOPE_LAUNCH true
#define OSHM_ENV_TNAME_FLAG "flag"
#define OSHM_ENV_TNAME_BOOL "bool"
#define OSHM_ENV_TNAME_SIZE "size"
#define OSHM_ENV_TNAME_UINT "number"
#define OSHM_ENV_TNAME_CHOICE "choice"
#define OSHM_ENV_TNAME_STRING "text"

const struct oshm_env_var oshm_env_vars[OSHM_ENV_COUNT] = {
#define OSHM_ENV_X_VAR(name, field, type, scope, def, accepted, alias, reader, meaning)        \
    [OSHM_ENV_##name] = {#name,   OSHM_ENV_TYPE_##type, OSHM_ENV_TNAME_##type,    OSHM_ENV_SCOPE_##scope, def, \
                         accepted, alias,               reader,   meaning,                     \
                         offsetof(struct oshm_env, field)},
    OSHM_ENV_TABLE(OSHM_ENV_X_VAR)
#undef OSHM_ENV_X_VAR
};

/* ---- values ---- */

static int size_shift(char c)
{
    static const char units[] = "kmgtpe";
    const char *u = c ? strchr(units, tolower((unsigned char)c)) : NULL;
    return u ? 10 * (int)(u - units + 1) : 0;
}

int oshm_parse_size(const char *text, size_t *bytes)
{
    if (!text)
        return -1;
    while (isspace((unsigned char)*text))
        text++;
    if (!isdigit((unsigned char)*text))
        return -1;
    errno = 0;
    char *end;
    unsigned long long whole = strtoull(text, &end, 10);
    if (errno)
        return -1;
    /* The specification allows a fraction ("1.5G"); the size is at least
     * the product, so a fraction of a byte rounds up. */
    long double frac = 0;
    if (*end == '.') {
        const char *digits = end + 1;
        if (!isdigit((unsigned char)*digits))
            return -1;
        frac = strtold(end, &end);
    }
    int shift = size_shift(*end);
    if (shift)
        end++;
    if (*end == 'b' || *end == 'B')
        end++;
    while (isspace((unsigned char)*end))
        end++;
    if (*end != '\0')
        return -1;
    if (whole > (SIZE_MAX >> shift))
        return -1;
    size_t value = (size_t)whole << shift;
    long double exact = frac * (long double)((unsigned long long)1 << shift);
    size_t part = (size_t)exact;
    if ((long double)part < exact)
        part++;
    if (part > SIZE_MAX - value)
        return -1;
    *bytes = value + part;
    return 0;
}

int oshm_parse_bool_word(const char *text)
{
    static const char *const yes[] = {"1", "y", "yes", "true", "on"};
    static const char *const no[] = {"0", "n", "no", "false", "off"};
    if (!text)
        return -1;
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++) {
        if (strcasecmp(text, yes[i]) == 0)
            return 1;
        if (strcasecmp(text, no[i]) == 0)
            return 0;
    }
    return -1;
}

bool oshm_parse_bool(const char *text)
{
    return text && *text && oshm_parse_bool_word(text) != 0;
}

static int parse_uint(const char *text, unsigned long long *out)
{
    if (!isdigit((unsigned char)*text))
        return -1;
    errno = 0;
    char *end;
    *out = strtoull(text, &end, 10);
    return errno || *end ? -1 : 0;
}

/* "MIN..MAX" of a SIZE or UINT row; an empty end is no limit. */
static void range_of(const struct oshm_env_var *v, unsigned long long *lo, unsigned long long *hi)
{
    *lo = 0;
    *hi = v->type == OSHM_ENV_TYPE_SIZE ? SIZE_MAX : ULONG_MAX;
    const char *dots = strstr(v->accepted, "..");
    if (!dots)
        return;
    char min[32] = "";
    snprintf(min, sizeof min, "%.*s", (int)(dots - v->accepted), v->accepted);
    const char *max = dots + 2;
    size_t bytes = 0;
    unsigned long long n = 0;
    if (*min)
        *lo = v->type == OSHM_ENV_TYPE_SIZE ? (oshm_parse_size(min, &bytes), bytes)
                                           : (parse_uint(min, &n), n);
    if (*max)
        *hi = v->type == OSHM_ENV_TYPE_SIZE ? (oshm_parse_size(max, &bytes), bytes)
                                           : (parse_uint(max, &n), n);
}

void oshm_env_describe_accepted(const struct oshm_env_var *v, char *buf, size_t len)
{
    const char *dots = strstr(v->accepted, "..");
    int lo = dots ? (int)(dots - v->accepted) : 0;
    const char *hi = dots ? dots + 2 : "";
    switch (v->type) {
    case OSHM_ENV_TYPE_FLAG:
        snprintf(buf, len, "any value turns it on; 0, n, no, false, off turn it off");
        break;
    case OSHM_ENV_TYPE_BOOL:
        snprintf(buf, len, "1, y, yes, true, on or 0, n, no, false, off");
        break;
    case OSHM_ENV_TYPE_SIZE:
        snprintf(buf, len,
                 "bytes from %.*s to %s: a number (a fraction allowed) with an optional "
                 "K, M, G, T, P or E suffix, e.g. 512M or 1.5G",
                 lo, v->accepted, *hi ? hi : "the address space");
        break;
    case OSHM_ENV_TYPE_UINT:
        snprintf(buf, len, "a whole number from %.*s to %s", lo, v->accepted, *hi ? hi : "any");
        break;
    case OSHM_ENV_TYPE_CHOICE: {
        size_t o = 0;
        buf[0] = '\0';
        for (const char *c = v->accepted; *c && o + 4 < len;) {
            size_t n = strcspn(c, "|");
            bool last = c[n] == '\0';
            o += (size_t)snprintf(buf + o, len - o, "%s%.*s", c == v->accepted ? "" : last ? " or " : ", ",
                                  (int)n, c);
            c += n + !last;
        }
        break;
    }
    case OSHM_ENV_TYPE_STRING:
        snprintf(buf, len, "any text");
        break;
    }
}

/* ---- names ---- */

size_t oshm_env_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (lb > 63)
        return (size_t)-1;
    size_t row[64];
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
            size_t best = diag + cost;
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

/* The closest of WORDS ("a|b|c" or the table's names) within a third of
 * its length: further than that it is more likely another word. */
static const char *closest_in(const char *name, const char *const *words, size_t n)
{
    const char *best = NULL;
    size_t best_d = (size_t)-1;
    for (size_t i = 0; i < n; i++) {
        if (!*words[i])
            continue;
        size_t d = oshm_env_distance(name, words[i]);
        size_t len = strlen(words[i]);
        if (d < best_d && d * 3 <= (len > 3 ? len : 3)) {
            best = words[i];
            best_d = d;
        }
    }
    return best;
}

const char *oshm_env_closest(const char *name)
{
    const char *words[2 * OSHM_ENV_COUNT];
    size_t n = 0;
    for (int i = 0; i < OSHM_ENV_COUNT; i++) {
        if (oshm_env_vars[i].launch)
            continue;
        words[n++] = oshm_env_vars[i].name;
        words[n++] = oshm_env_vars[i].alias;
    }
    return closest_in(name, words, n);
}

static const char *lookup(char *const *envp, const char *name)
{
    size_t len = strlen(name);
    for (char *const *e = envp; e && *e; e++)
        if (strncmp(*e, name, len) == 0 && (*e)[len] == '=')
            return *e + len + 1;
    return NULL;
}

static bool known(const char *name, size_t len)
{
    for (int i = 0; i < OSHM_ENV_COUNT; i++) {
        const struct oshm_env_var *v = &oshm_env_vars[i];
        if ((strlen(v->name) == len && !strncmp(v->name, name, len)) ||
            (strlen(v->alias) == len && !strncmp(v->alias, name, len)))
            return true;
    }
    return false;
}

/* ---- the parse ---- */

static void note(struct oshm_env_result *r, const char *fmt, ...)
{
    size_t used = strlen(r->notes);
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(r->notes + used, sizeof r->notes - used, fmt, ap);
    va_end(ap);
    used += n > 0 ? (size_t)n : 0;
    if (used + 1 < sizeof r->notes) {
        r->notes[used] = '\n';
        r->notes[used + 1] = '\0';
    }
}

static int refuse(struct oshm_env_result *r, const struct oshm_env_var *v, const char *from,
                  const char *text, const char *why, const char *hint)
{
    char accepted[256];
    oshm_env_describe_accepted(v, accepted, sizeof accepted);
    snprintf(r->error, sizeof r->error, "%s=\"%s\" %s; accepted: %s%s%s%s", from, text, why,
             accepted, hint ? " (did you mean " : "", hint ? hint : "", hint ? "?)" : "");
    return -1;
}

/* Sets *INDEX to the position of TEXT among the choices; otherwise NEAR
 * gets the closest choice ("" if none is close). */
static int parse_choice(const struct oshm_env_var *v, const char *text, int *index, char *near,
                        size_t near_len)
{
    const char *words[16];
    char buf[16][32];
    int n = 0;
    for (const char *c = v->accepted; *c && n < 16;) {
        size_t len = strcspn(c, "|");
        snprintf(buf[n], sizeof buf[n], "%.*s", (int)len, c);
        words[n] = buf[n];
        if (strcasecmp(buf[n], text) == 0) {
            *index = n;
            return 0;
        }
        n++;
        c += len + (c[len] != '\0');
    }
    const char *best = closest_in(text, words, (size_t)n);
    snprintf(near, near_len, "%s", best ? best : "");
    return -1;
}

static int parse_one(struct oshm_env_result *r, int id, const char *from, const char *text)
{
    const struct oshm_env_var *v = &oshm_env_vars[id];
    void *field = (char *)&r->env + v->offset;
    const char *who = from ? from : v->name;
    unsigned long long lo, hi;
    switch (v->type) {
    case OSHM_ENV_TYPE_FLAG:
        *(bool *)field = oshm_parse_bool(text);
        return 0;
    case OSHM_ENV_TYPE_BOOL: {
        int b = oshm_parse_bool_word(text);
        if (b < 0)
            return refuse(r, v, who, text, "is not a boolean", NULL);
        *(bool *)field = b;
        return 0;
    }
    case OSHM_ENV_TYPE_SIZE: {
        size_t bytes;
        if (oshm_parse_size(text, &bytes) != 0)
            return refuse(r, v, who, text, "is not a size", NULL);
        range_of(v, &lo, &hi);
        if (bytes < lo || bytes > hi)
            return refuse(r, v, who, text, "is out of range", NULL);
        *(size_t *)field = bytes;
        return 0;
    }
    case OSHM_ENV_TYPE_UINT: {
        unsigned long long n;
        if (parse_uint(text, &n) != 0)
            return refuse(r, v, who, text, "is not a whole number", NULL);
        range_of(v, &lo, &hi);
        if (n < lo || n > hi)
            return refuse(r, v, who, text, "is out of range", NULL);
        *(unsigned long *)field = (unsigned long)n;
        return 0;
    }
    case OSHM_ENV_TYPE_CHOICE: {
        char near[32];
        if (parse_choice(v, text, (int *)field, near, sizeof near) != 0)
            return refuse(r, v, who, text, "is not one of the choices", *near ? near : NULL);
        return 0;
    }
    case OSHM_ENV_TYPE_STRING:
        *(const char **)field = *text ? text : NULL;
        return 0;
    }
    return 0;
}

int oshm_env_parse(char *const *envp, struct oshm_env_result *r)
{
    memset(r, 0, sizeof *r);
    for (int id = 0; id < OSHM_ENV_COUNT; id++) {
        const struct oshm_env_var *v = &oshm_env_vars[id];
        /* An empty value is no value: "export SHMEM_X=" clears it. */
        const char *mine = lookup(envp, v->name);
        const char *old = *v->alias ? lookup(envp, v->alias) : NULL;
        mine = mine && *mine ? mine : NULL;
        old = old && *old ? old : NULL;
        const char *from = mine ? v->name : old ? v->alias : NULL;
        const char *text = mine ? mine : old ? old : v->def;
        if (mine && old)
            note(r, "both %s=\"%s\" and its deprecated name %s=\"%s\" are set: %s wins", v->name,
                 mine, v->alias, old, v->name);
        else if (old)
            note(r, "%s is deprecated by the OpenSHMEM specification: use %s", v->alias, v->name);
        r->value[id] = text;
        r->from[id] = from;
        if (parse_one(r, id, from, text) != 0)
            return -1;
    }
    for (char *const *e = envp; e && *e; e++) {
        const char *name = *e;
        size_t len = strcspn(name, "=");
        if ((strncmp(name, "SHMEM_", 6) && strncmp(name, "SMA_", 4)) || known(name, len))
            continue;
        char unknown[128];
        snprintf(unknown, sizeof unknown, "%.*s", (int)len, name);
        const char *near = oshm_env_closest(unknown);
        if (near)
            note(r, "%s is not a variable of this library: did you mean %s? (oshm_info lists "
                    "them)", unknown, near);
        else
            note(r, "%s is not a variable of this library (oshm_info lists them)", unknown);
    }
    return 0;
}

/* ---- the process's own ---- */

static struct oshm_env_result process_env;

void oshm_env_read(void)
{
    if (oshm_env_parse(environ, &process_env) != 0)
        oshm_fatal("%s", process_env.error);
    oshm_env = process_env.env;
}

void oshm_env_warn_notes(void)
{
    for (const char *line = process_env.notes; *line;) {
        size_t n = strcspn(line, "\n");
        oshm_warn("%.*s", (int)n, line);
        line += n + (line[n] == '\n');
    }
}

void oshm_env_print_info(FILE *out)
{
    fprintf(out, "Environment variables (SHMEM_INFO; oshm_info describes them):\n");
    for (int id = 0; id < OSHM_ENV_COUNT; id++) {
        const struct oshm_env_var *v = &oshm_env_vars[id];
        if (v->launch)
            continue;
        const char *value = process_env.value[id];
        const char *from = process_env.from[id];
        fprintf(out, "  %s = %s  (default %s%s%s)\n      %s\n", v->name,
                value && *value ? value : "(unset)", *v->def ? v->def : "unset",
                from ? "; set by " : "", from ? from : "", v->meaning);
    }
    fflush(out);
}

const char *oshm_transport_name(int t)
{
    return t == OSHM_TRANSPORT_SHM   ? "shm"
           : t == OSHM_TRANSPORT_UCX ? "ucx"
           : t == OSHM_TRANSPORT_OFI ? "ofi"
                                     : "auto";
}
