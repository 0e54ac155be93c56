/*
 * Typed and sized put-with-signal from a kernel: one engine descriptor that
 * writes the data and then updates the signal, so the signal never lands
 * before the data (the byte form is in rma.c).
 */
#include <shmem/device.h>
#include <shmem/shmem.h>

#include "api/p2p.h"
#include "device/dsync.h"

static void put_signal_run(void *dest, const void *source, size_t nbytes, uint64_t *sig_addr,
                           uint64_t signal, int sig_op, int pe, bool wait, const char *routine)
{
    struct device_thread *t = device_thread_of(routine);
    enum hcomm_signal_op op = oshm_signal_op(sig_op, routine);
    dsync_check(dest, nbytes, pe, routine);
    dsync_check(sig_addr, sizeof *sig_addr, pe, routine);
    dsync_post(t, (struct engine_desc){.op = nbytes ? ENGINE_PUT_SIGNAL : ENGINE_SIGNAL, .pe = pe,
                                       .dst = dest, .src = source, .len = nbytes, .sig = sig_addr,
                                       .sig_value = signal, .sig_op = (enum backend_signal_op)op,
                                       .routine = routine});
    if (wait)
        dsync_wait(t);
}

static void put_signal(void *dest, const void *source, size_t nbytes, uint64_t *sig_addr,
                       uint64_t signal, int sig_op, int pe, bool wait, const char *routine)
{
    DEVICE_PROFILED(
        OSHM_PROF_device_put_signal, routine, nbytes, pe,
        put_signal_run(dest, source, nbytes, sig_addr, signal, sig_op, pe, wait, routine));
}

static size_t bytes_of(size_t nelems, size_t size, const char *routine)
{
    if (size && nelems > SIZE_MAX / size)
        oshm_fatal("%s: %zu elements of %zu bytes overflow size_t", routine, nelems, size);
    return nelems * size;
}

#define DEFINE_PUT_SIGNAL(T, N)                                                                \
    void shmemd_##N##_put_signal(T *dest, const T *source, size_t nelems, uint64_t *sig_addr,  \
                                 uint64_t signal, int sig_op, int pe)                          \
    {                                                                                          \
        const char *r = "shmemd_" #N "_put_signal";                                           \
        put_signal(dest, source, bytes_of(nelems, sizeof(T), r), sig_addr, signal, sig_op, pe, \
                   true, r);                                                                   \
    }                                                                                          \
    void shmemd_##N##_put_signal_nbi(T *dest, const T *source, size_t nelems,                  \
                                     uint64_t *sig_addr, uint64_t signal, int sig_op, int pe)  \
    {                                                                                          \
        const char *r = "shmemd_" #N "_put_signal_nbi";                                       \
        put_signal(dest, source, bytes_of(nelems, sizeof(T), r), sig_addr, signal, sig_op, pe, \
                   false, r);                                                                  \
    }
SHMEMD_RMA_TYPE_TABLE(DEFINE_PUT_SIGNAL)

#define DEFINE_SIZED_SIGNAL(BITS, UNIT)                                                        \
    void shmemd_put##BITS##_signal(void *dest, const void *source, size_t nelems,              \
                                   uint64_t *sig_addr, uint64_t signal, int sig_op, int pe)    \
    {                                                                                          \
        const char *r = "shmemd_put" #BITS "_signal";                                         \
        put_signal(dest, source, bytes_of(nelems, BITS / 8, r), sig_addr, signal, sig_op, pe,  \
                   true, r);                                                                   \
    }                                                                                          \
    void shmemd_put##BITS##_signal_nbi(void *dest, const void *source, size_t nelems,          \
                                       uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) \
    {                                                                                          \
        const char *r = "shmemd_put" #BITS "_signal_nbi";                                     \
        put_signal(dest, source, bytes_of(nelems, BITS / 8, r), sig_addr, signal, sig_op, pe,  \
                   false, r);                                                                  \
    }
SHMEM_SIZED_TABLE(DEFINE_SIZED_SIGNAL)
