/* What this implementation offers, said in the words of language bindings
 * that recognize an implementation by its header's macros. Included by
 * <shmem/shmem.h>; nothing here declares a routine.
 *
 * shmem4py (the Python bindings, built with oshcc) knows a few
 * implementations by their macros and, for any other, defines its own static
 * stand-ins for the OpenSHMEM 1.5 routines it cannot assume: those clash with
 * the declarations of <shmem.h> and its build stops. Each
 * PySHMEM_HAVE_<feature> tells it that the feature is here, so that
 * `pip install shmem4py` builds against this library unchanged (docs/install.md).
 * test/pe/bindings.c uses every feature named here; a program may define one
 * of these names itself beforehand. */
#ifndef SHMEM_BINDINGS_H
#define SHMEM_BINDINGS_H

#ifndef PySHMEM_HAVE_shmem_malloc_with_hints
#define PySHMEM_HAVE_shmem_malloc_with_hints 1
#endif
#ifndef PySHMEM_HAVE_shmem_team_t
#define PySHMEM_HAVE_shmem_team_t 1
#endif
#ifndef PySHMEM_HAVE_SHMEM_CTX_INVALID
#define PySHMEM_HAVE_SHMEM_CTX_INVALID 1
#endif
#ifndef PySHMEM_HAVE_shmem_amo_nbi
#define PySHMEM_HAVE_shmem_amo_nbi 1
#endif
#ifndef PySHMEM_HAVE_shmem_put_signal
#define PySHMEM_HAVE_shmem_put_signal 1
#endif
#ifndef PySHMEM_HAVE_shmem_signal_fetch
#define PySHMEM_HAVE_shmem_signal_fetch 1
#endif
#ifndef PySHMEM_HAVE_shmem_signal_wait_until
#define PySHMEM_HAVE_shmem_signal_wait_until 1
#endif
#ifndef PySHMEM_HAVE_shmem_broadcast
#define PySHMEM_HAVE_shmem_broadcast 1
#endif
#ifndef PySHMEM_HAVE_shmem_collect
#define PySHMEM_HAVE_shmem_collect 1
#endif
#ifndef PySHMEM_HAVE_shmem_fcollect
#define PySHMEM_HAVE_shmem_fcollect 1
#endif
#ifndef PySHMEM_HAVE_shmem_alltoall
#define PySHMEM_HAVE_shmem_alltoall 1
#endif
#ifndef PySHMEM_HAVE_shmem_alltoalls
#define PySHMEM_HAVE_shmem_alltoalls 1
#endif
#ifndef PySHMEM_HAVE_shmem_broadcastmem
#define PySHMEM_HAVE_shmem_broadcastmem 1
#endif
#ifndef PySHMEM_HAVE_shmem_collectmem
#define PySHMEM_HAVE_shmem_collectmem 1
#endif
#ifndef PySHMEM_HAVE_shmem_fcollectmem
#define PySHMEM_HAVE_shmem_fcollectmem 1
#endif
#ifndef PySHMEM_HAVE_shmem_alltoallmem
#define PySHMEM_HAVE_shmem_alltoallmem 1
#endif
#ifndef PySHMEM_HAVE_shmem_alltoallsmem
#define PySHMEM_HAVE_shmem_alltoallsmem 1
#endif
#ifndef PySHMEM_HAVE_shmem_reduce
#define PySHMEM_HAVE_shmem_reduce 1
#endif
#ifndef PySHMEM_HAVE_shmem_wait_test_many
#define PySHMEM_HAVE_shmem_wait_test_many 1
#endif
#ifndef PySHMEM_HAVE_shmem_pcontrol
#define PySHMEM_HAVE_shmem_pcontrol 1
#endif

#endif /* SHMEM_BINDINGS_H */
