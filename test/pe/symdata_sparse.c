/* Only the pages of the data segment in use are copied at start-up; the
 * rest stays unbacked. Every kind of page must still hold the right value
 * and be reachable by peers: initialized .data never touched before
 * shmem_init (still the executable file's pages), .bss pages written before
 * shmem_init, and .bss never touched (zero), by get, put and AMO from
 * peers. The memory the data memfds take stays small throughout. */
#include <stdint.h>

#include "check.h"
#include "symdata_mem.h"

/* 1 MiB of initialized data: a nonzero initializer puts all of it in .data.
 * Nothing reads it before shmem_init, and it is larger than what the kernel
 * maps around a faulting file page (fault-around, 64 KiB by default), so its
 * middle pages are not resident at start-up: only the executable file has
 * their values. */
#define NTABLE ((size_t)128 << 10)
long table[NTABLE] = {[0] = 7, [1] = 8, [NTABLE / 2] = 9, [NTABLE - 1] = 10};

#define NBIG (SYMDATA_TEST_BIG / 4 / sizeof(long)) /* 256 MiB of .bss (64 MiB under ASan) */
static long big[NBIG];
static const size_t written[] = {3, NBIG / 5, NBIG - 2}; /* before shmem_init */
static const size_t untouched[] = {1000000, NBIG / 2 + 17, NBIG - 600};
#define NW (sizeof written / sizeof written[0])
#define NU (sizeof untouched / sizeof untouched[0])
#define MAX_DATA_BYTES ((long long)16 << 20)

static long written_value(size_t i) { return 0x5a5a0000L + (long)i; }

static void check_memory(const char *when)
{
    int nfds;
    long long bytes = symdata_memfd_bytes(&nfds);
    CHECK(nfds >= 1, "no shmem-data memfd found (%s)", when);
    CHECK(bytes >= 0 && bytes < MAX_DATA_BYTES, "a data memfd holds %lld bytes (%s)", bytes, when);
}

int main(void)
{
    for (size_t i = 0; i < NW; i++)
        big[written[i]] = written_value(i);
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    int next = (me + 1) % n, prev = (me + n - 1) % n;
    check_memory("after shmem_init");

    /* Local values first. */
    CHECK(table[0] == 7 && table[1] == 8 && table[NTABLE / 2] == 9 && table[NTABLE - 1] == 10 &&
              table[NTABLE / 4] == 0, "initialized data");
    for (size_t i = 0; i < NW; i++)
        CHECK(big[written[i]] == written_value(i), "written .bss %zu: %ld", i, big[written[i]]);
    for (size_t i = 0; i < NU; i++)
        CHECK(big[untouched[i]] == 0, "untouched .bss %zu: %ld", i, big[untouched[i]]);
    shmem_barrier_all();

    /* The same values read from the next PE, before anyone writes. */
    CHECK(shmem_long_g(&table[NTABLE / 2], next) == 9, "initialized data of PE %d", next);
    CHECK(shmem_long_g(&table[NTABLE - 1], next) == 10, "initialized data of PE %d", next);
    for (size_t i = 0; i < NW; i++)
        CHECK(shmem_long_g(&big[written[i]], next) == written_value(i), "written .bss of PE %d",
              next);
    for (size_t i = 0; i < NU; i++)
        CHECK(shmem_long_g(&big[untouched[i]], next) == 0, "untouched .bss of PE %d", next);
    long got[3];
    shmem_long_get(got, &big[untouched[1] - 1], 3, next);
    CHECK(got[0] == 0 && got[1] == 0 && got[2] == 0, "block get from untouched .bss");
    shmem_barrier_all();

    /* Writes by the previous PE to every kind of page. */
    long tag = 1000L * (next + 1);
    shmem_long_p(&table[NTABLE / 4], tag + 1, next);
    for (size_t i = 0; i < NW; i++)
        shmem_long_p(&big[written[i]], tag + 10 + (long)i, next);
    for (size_t i = 0; i < NU; i++) {
        long v[2] = {tag + 20 + (long)i, tag + 30 + (long)i};
        shmem_long_put(&big[untouched[i]], v, 2, next);
    }
    shmem_long_atomic_add(&big[untouched[0] + 5], tag, next);
    shmem_barrier_all();

    long mine = 1000L * (me + 1);
    CHECK(table[NTABLE / 4] == mine + 1, "put to .data from PE %d: %ld", prev, table[NTABLE / 4]);
    for (size_t i = 0; i < NW; i++)
        CHECK(big[written[i]] == mine + 10 + (long)i, "put to written .bss: %ld", big[written[i]]);
    for (size_t i = 0; i < NU; i++)
        CHECK(big[untouched[i]] == mine + 20 + (long)i &&
                  big[untouched[i] + 1] == mine + 30 + (long)i,
              "put to untouched .bss %zu: %ld %ld", i, big[untouched[i]], big[untouched[i] + 1]);
    CHECK(big[untouched[0] + 5] == mine, "AMO on untouched .bss: %ld", big[untouched[0] + 5]);
    /* Neighbours of what was written are still zero. */
    CHECK(big[untouched[2] + 2] == 0 && big[untouched[2] - 1] == 0, "around a put");
    long *peer = shmem_ptr(&big[untouched[1]], next);
    if (mapped_pe(next))
        CHECK(peer && *peer == tag + 21, "shmem_ptr into .bss of PE %d", next);
    check_memory("after the puts");
    shmem_barrier_all();
    shmem_finalize();
    if (me == 0)
        printf("symdata_sparse: %d PEs passed\n", n);
    return 0;
}
