/*
 * Opening a dependency when a job first needs it rather than linking it
 * into every program (UCX, PMIx, libfabric): a library's load costs every
 * process its mappings, relocations and constructors before `main`.
 */
#ifndef OSHM_UTIL_DL_H
#define OSHM_UTIL_DL_H

/* dlopen(SONAME), else LIBDIR/SONAME (where the build found it, for a
 * prefix outside the loader's path); a handle, or NULL after a warning that
 * names the library, why, and PACKAGE to install. Never closed. */
void *oshm_dl_open(const char *soname, const char *libdir, const char *package);

/* dlsym's object pointer as the function pointer *FN (POSIX makes the
 * conversion valid); 0, or -1 after a warning naming SYMBOL and NEED (the
 * version that has it). */
int oshm_dl_sym(void *lib, const char *soname, const char *symbol, void *fn, const char *need);

#endif
