#include "util/dl.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "util/log.h"

void *oshm_dl_open(const char *soname, const char *libdir, const char *package)
{
    void *lib = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (lib)
        return lib;
    char first[512];
    snprintf(first, sizeof first, "%s", dlerror());
    if (libdir && *libdir) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", libdir, soname);
        lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (lib)
            return lib;
    }
    oshm_warn("%s cannot be loaded (%s): install %s", soname, first, package);
    return NULL;
}

int oshm_dl_sym(void *lib, const char *soname, const char *symbol, void *fn, const char *need)
{
    void *p = dlsym(lib, symbol);
    memcpy(fn, &p, sizeof p);
    if (p)
        return 0;
    oshm_warn("%s lacks %s: %s or later is needed", soname, symbol, need);
    return -1;
}
