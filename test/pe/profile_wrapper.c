/* A profiling tool as people write them over the pshmem_* interface: a
 * shared library that defines shmem_putmem and shmem_barrier_all, counts,
 * and calls the library's pshmem_* names. A program linked with it still
 * has each of its calls counted once by the built-in profiler
 * (test/profile_test.sh); the tool says what it saw at exit. */
#include <pshmem.h>
#include <stdio.h>

static long puts_seen, barriers_seen;

void shmem_putmem(void *dest, const void *source, size_t nelems, int pe)
{
    puts_seen++;
    pshmem_putmem(dest, source, nelems, pe);
}

void shmem_barrier_all(void)
{
    barriers_seen++;
    pshmem_barrier_all();
}

__attribute__((destructor)) static void report(void)
{
    fprintf(stderr, "wrapper: %ld shmem_putmem, %ld shmem_barrier_all\n", puts_seen,
            barriers_seen);
}
