// The symmetric heap allocator: determinism, alignment, reuse, coalescing.
#include <gtest/gtest.h>

#include <random>
#include <vector>

extern "C" {
#include "heap/alloc.h"
}

namespace {

struct Alloc : ::testing::Test {
    heap_alloc a{};
    void SetUp() override { ASSERT_EQ(heap_alloc_init(&a, 1 << 20), 0); }
    void TearDown() override { heap_alloc_fini(&a); }
};

TEST_F(Alloc, FirstFitFromZeroAndCacheLineAligned)
{
    size_t o1, o2;
    ASSERT_EQ(heap_alloc_get(&a, 1, 0, &o1), 0);
    ASSERT_EQ(heap_alloc_get(&a, 100, 0, &o2), 0);
    EXPECT_EQ(o1, 0u);
    EXPECT_EQ(o2, (size_t)HEAP_MIN_ALIGN);
    EXPECT_EQ(heap_alloc_size_of(&a, o2), 128u);
    EXPECT_EQ(heap_alloc_high_water(&a), (size_t)HEAP_MIN_ALIGN + 128);
}

TEST_F(Alloc, AlignmentIsHonouredAndPaddingReused)
{
    size_t o1, o2, o3;
    ASSERT_EQ(heap_alloc_get(&a, 64, 0, &o1), 0);
    ASSERT_EQ(heap_alloc_get(&a, 64, 4096, &o2), 0);
    EXPECT_EQ(o2 % 4096, 0u);
    ASSERT_EQ(heap_alloc_get(&a, 64, 0, &o3), 0);
    EXPECT_EQ(o3, 64u); // the padding before the aligned block
}

TEST_F(Alloc, FreeCoalescesSoTheWholeHeapIsUsableAgain)
{
    std::vector<size_t> offs(16);
    for (auto &o : offs)
        ASSERT_EQ(heap_alloc_get(&a, 1 << 16, 0, &o), 0);
    size_t none;
    EXPECT_EQ(heap_alloc_get(&a, 1, 0, &none), -1) << "heap should be full";
    for (size_t i = 0; i < offs.size(); i += 2)
        ASSERT_EQ(heap_alloc_put(&a, offs[i]), 0);
    for (size_t i = 1; i < offs.size(); i += 2)
        ASSERT_EQ(heap_alloc_put(&a, offs[i]), 0);
    EXPECT_EQ(a.count, 1u);
    size_t all;
    EXPECT_EQ(heap_alloc_get(&a, 1 << 20, 0, &all), 0);
    EXPECT_EQ(all, 0u);
}

TEST_F(Alloc, RejectsBadRequests)
{
    size_t o;
    EXPECT_EQ(heap_alloc_get(&a, 0, 0, &o), -1);
    EXPECT_EQ(heap_alloc_get(&a, (1 << 20) + 1, 0, &o), -1);
    EXPECT_EQ(heap_alloc_get(&a, 8, 48, &o), -1); // not a power of two
    EXPECT_EQ(heap_alloc_put(&a, 12345), -1);
    ASSERT_EQ(heap_alloc_get(&a, 8, 0, &o), 0);
    EXPECT_EQ(heap_alloc_put(&a, o), 0);
    EXPECT_EQ(heap_alloc_put(&a, o), -1) << "double free must be refused";
}

TEST_F(Alloc, ResizeInPlaceWhenTheNextBlockIsFree)
{
    size_t o1, o2;
    ASSERT_EQ(heap_alloc_get(&a, 64, 0, &o1), 0);
    EXPECT_EQ(heap_alloc_resize(&a, o1, 4096), 0);
    EXPECT_EQ(heap_alloc_size_of(&a, o1), 4096u);
    ASSERT_EQ(heap_alloc_get(&a, 64, 0, &o2), 0);
    EXPECT_EQ(o2, 4096u);
    EXPECT_EQ(heap_alloc_resize(&a, o1, 8192), 1) << "blocked by o2: must move";
    EXPECT_EQ(heap_alloc_resize(&a, o1, 128), 0);
    EXPECT_EQ(heap_alloc_size_of(&a, o1), 128u);
    size_t o3;
    ASSERT_EQ(heap_alloc_get(&a, 64, 0, &o3), 0);
    EXPECT_EQ(o3, 128u) << "shrinking gives the tail back";
}

// Two allocators fed the same random sequence agree on every offset: the
// property that makes the heap symmetric without communication.
TEST(AllocDeterminism, SameCallsSameOffsets)
{
    heap_alloc x{}, y{};
    ASSERT_EQ(heap_alloc_init(&x, 8 << 20), 0);
    ASSERT_EQ(heap_alloc_init(&y, 8 << 20), 0);
    std::mt19937 rng(42);
    std::vector<size_t> live;
    for (int i = 0; i < 5000; i++) {
        if (!live.empty() && rng() % 3 == 0) {
            size_t k = rng() % live.size();
            ASSERT_EQ(heap_alloc_put(&x, live[k]), 0);
            ASSERT_EQ(heap_alloc_put(&y, live[k]), 0);
            live.erase(live.begin() + (long)k);
        } else {
            size_t size = 1 + rng() % 20000, align = (size_t)1 << (rng() % 13), ox, oy;
            int rx = heap_alloc_get(&x, size, align, &ox);
            int ry = heap_alloc_get(&y, size, align, &oy);
            ASSERT_EQ(rx, ry);
            if (rx == 0) {
                ASSERT_EQ(ox, oy);
                ASSERT_EQ(ox % align, 0u);
                live.push_back(ox);
            }
        }
    }
    // blocks stay sorted and tile the heap exactly
    size_t end = 0;
    for (size_t i = 0; i < x.count; i++) {
        ASSERT_EQ(x.blocks[i].off, end);
        end += x.blocks[i].size;
        if (i) {
            ASSERT_FALSE(!x.blocks[i].used && !x.blocks[i - 1].used) << "uncoalesced";
        }
    }
    EXPECT_EQ(end, x.capacity);
    heap_alloc_fini(&x);
    heap_alloc_fini(&y);
}

} // namespace
