/* Decides oshm_copy's routine for this CPU (util/copy.h). */
#include "util/copy.h"

#if defined(__x86_64__)
#include <cpuid.h>
#include <string.h>
#endif

bool oshm_copy_movsb;

/* Runs when the library is loaded, before any copy: no init order to get
 * wrong, and a program that copies before shmem_init is served too. */
__attribute__((constructor)) static void copy_choose(void)
{
#if defined(__x86_64__)
    unsigned a, b, c, d;
    if (!__get_cpuid(0, &a, &b, &c, &d) || a < 7)
        return;
    char vendor[13];
    memcpy(vendor, &b, 4);
    memcpy(vendor + 4, &d, 4);
    memcpy(vendor + 8, &c, 4);
    vendor[12] = '\0';
    bool amd = strcmp(vendor, "AuthenticAMD") == 0 || strcmp(vendor, "HygonGenuine") == 0;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d))
        return;
    bool erms = b & (1u << 9);
    oshm_copy_movsb = amd && erms;
#endif
}
