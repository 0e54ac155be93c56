// The UCX backend registers only memory that exists: every range it
// registered lies inside what the heap's handle backs, ranges follow each
// other without a gap, and asking it to register beyond that is refused.
#include <gtest/gtest.h>

#include <sys/stat.h>

extern "C" {
#include "heap/heap.h"
#include "transport/ucx/ucx.h"
}

namespace {

size_t handle_size(const vmm_handle &h)
{
    struct stat st;
    return fstat(h.fd, &st) == 0 ? (size_t)st.st_size : 0;
}

// Every registration of segment 0, as UCX reports it: inside the backed
// part, contiguous from the start, and readable (an unbacked page would be
// a SIGBUS). Returns how many there are.
int expect_backed(const struct oshm_heap &h, const backend_seg &seg)
{
    ucx_registration reg[64];
    int n = ucx_registrations(0, reg, 64);
    EXPECT_GT(n, 0);
    char *expect = h.base;
    for (int i = 0; i < n; i++) {
        char *at = static_cast<char *>(reg[i].address);
        EXPECT_EQ(at, expect) << "registration " << i << " leaves a gap or overlaps";
        EXPECT_GT(reg[i].length, 0u);
        EXPECT_LE(at + reg[i].length, h.base + handle_size(seg.mem))
            << "registration " << i << " reaches beyond the memory";
        volatile char first = at[0], last = at[reg[i].length - 1];
        (void)first;
        (void)last;
        expect = at + reg[i].length;
    }
    EXPECT_EQ(expect, h.base + seg.committed);
    return n;
}

} // namespace

TEST(UcxRegistration, RangesFollowTheBackedHeap)
{
    struct oshm_heap h = {};
    h.mem.fd = -1;
    ASSERT_EQ(oshm_heap_init_kind(&h, (size_t)256 << 20, VMM_KIND_HOST, "ucx-reg-test"), 0);
    ASSERT_EQ(oshm_heap_commit(&h, (size_t)1 << 20), 0);
    backend_seg segs[BACKEND_MAX_SEGS] = {};
    segs[0].base = (uintptr_t)h.base;
    segs[0].size = h.capacity;
    segs[0].committed = h.committed;
    segs[0].mem = h.mem;
    backend_config cfg = {};
    cfg.my_pe = 0;
    cfg.n_pes = 1;
    cfg.seg = segs;
    ASSERT_EQ(ucx_backend.open(&cfg), 0);
    EXPECT_EQ(expect_backed(h, segs[0]), 1);

    // The heap grows in steps; each step registers the new part only.
    int before = 1;
    for (size_t want : {(size_t)3 << 20, (size_t)5 << 20, (size_t)40 << 20, (size_t)41 << 20}) {
        ASSERT_EQ(oshm_heap_commit(&h, want), 0);
        segs[0].committed = h.committed;
        void *blob = nullptr;
        size_t len = 0;
        ASSERT_EQ(ucx_backend.grow(0, h.committed, &blob, &len), 0);
        free(blob);
        int now = expect_backed(h, segs[0]);
        EXPECT_EQ(now, before + (len ? 1 : 0));
        before = now;
    }
    // Nothing new: nothing registered.
    void *blob = nullptr;
    size_t len = 0;
    ASSERT_EQ(ucx_backend.grow(0, h.committed, &blob, &len), 0);
    EXPECT_EQ(len, 0u);
    EXPECT_EQ(expect_backed(h, segs[0]), before);

    // Told that memory exists where the handle has none: refused.
    segs[0].committed = h.committed + ((size_t)4 << 20);
    EXPECT_EQ(ucx_backend.grow(0, segs[0].committed, &blob, &len), -1);
    segs[0].committed = h.committed;
    EXPECT_EQ(expect_backed(h, segs[0]), before);

    ucx_backend.close();
    oshm_heap_fini_kind(&h);
}
