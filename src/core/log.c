#include "core/log.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/env.h"
#include "core/runtime.h"

static int log_pe = -1;

void oshm_log_set_pe(int pe) { log_pe = pe; }

static void vprint(const char *kind, const char *fmt, va_list ap)
{
    char msg[1024];
    vsnprintf(msg, sizeof msg, fmt, ap);
    if (log_pe >= 0)
        fprintf(stderr, "shmem[PE %d]: %s%s\n", log_pe, kind, msg);
    else
        fprintf(stderr, "shmem: %s%s\n", kind, msg);
    fflush(stderr);
}

void oshm_fatal(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprint("error: ", fmt, ap);
    va_end(ap);
    oshm_runtime_abort(1);
}

void oshm_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprint("warning: ", fmt, ap);
    va_end(ap);
}

void oshm_debug(const char *fmt, ...)
{
    if (!oshm_env.debug)
        return;
    va_list ap;
    va_start(ap, fmt);
    vprint("debug: ", fmt, ap);
    va_end(ap);
}
