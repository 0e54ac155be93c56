#include "util/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "util/env.h"

static int log_pe = -1;

void oshm_log_set_pe(int pe) { log_pe = pe; }

static _Noreturn void exit_alone(int status)
{
    fflush(NULL);
    _exit(status);
}

static void (*abort_job)(int status);

void oshm_log_set_abort(void (*fn)(int status)) { abort_job = fn; }

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
    if (abort_job)
        abort_job(1);
    exit_alone(1);
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
