// The profiler's recording side (src/util/prof.c): counts exact whichever
// path a call takes, sampling that thins out over a long run, and nothing
// counted inline once no summary profiler listens.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

// util/prof.h is C11: its thread-locals and static assertions in C++'s words.
#define _Thread_local thread_local
#define _Static_assert static_assert
extern "C" {
#include "util/env.h"
#include "util/prof.h"
}
#undef _Thread_local
#undef _Static_assert

namespace {

// What a hot routine does with a call (api/rma.c, rma_xfer): counted inline
// when the leaf test takes it, else counted or timed on the slow path.
void hot_put(size_t bytes, int pe)
{
    if (oshm_prof_thread *t = oshm_prof_leaf(OSHM_PROF_put, bytes)) {
        oshm_prof_add_cells(t, OSHM_PROF_ROUTE_PUT, bytes, pe);
        return;
    }
    if (oshm_prof_count(OSHM_PROF_put, bytes, pe))
        return;
    oshm_prof_span s;
    oshm_prof_begin(&s, OSHM_PROF_put);
    oshm_prof_end(&s, "shmem_putmem", bytes, pe);
}

struct Cells {
    uint64_t ops[4][OSHM_PROF_NCLASSES] = {};
    uint64_t bytes[4][OSHM_PROF_NCLASSES] = {};
};

void add_cell(void *arg, int dst, int cls, uint64_t ops, uint64_t bytes)
{
    auto *c = static_cast<Cells *>(arg);
    c->ops[dst][cls] += ops;
    c->bytes[dst][cls] += bytes;
}

class Prof : public ::testing::Test {
  protected:
    struct oshm_env saved = oshm_env;
    void start(unsigned long sample)
    {
        oshm_env.profile = OSHM_PROF_SUMMARY;
        oshm_env.profile_sample = sample;
        oshm_env.profile_every = 1000000000; // sampling, whatever this machine's speed
        oshm_env.profile_events = 1024;
        oshm_prof_start(0, 4, oshm_prof_clock_ns());
    }
    // Stops the profiler and reads this PE's totals, one per family.
    std::vector<oshm_prof_total> stop_and_total()
    {
        oshm_prof_stop();
        std::vector<oshm_prof_total> totals(OSHM_PROF_NFAMILIES);
        oshm_prof_totals(totals.data());
        return totals;
    }
    void TearDown() override
    {
        oshm_prof_release();
        oshm_env = saved;
    }
};

} // namespace

TEST_F(Prof, LongRunCountsExactlyAndTimesFewerCallsAsItGoes)
{
    start(64);
    const uint64_t n = 250000;
    for (uint64_t i = 0; i < n; i++)
        hot_put(8, 2);
    std::vector<oshm_prof_total> totals = stop_and_total();
    EXPECT_EQ(totals[OSHM_PROF_put].calls, n);
    EXPECT_EQ(totals[OSHM_PROF_put].bytes, 8 * n);
    // The first call, 1,024 samples at 64 and 1,024 at 128, then 208 at 256:
    // 2,257, where a fixed period would have taken n / 64 = 3,906.
    EXPECT_EQ(totals[OSHM_PROF_put].timed, 2257u);
    EXPECT_GT(totals[OSHM_PROF_put].time_ns, 0u);
    Cells c;
    oshm_prof_cells(add_cell, &c);
    EXPECT_EQ(c.ops[2][OSHM_PROF_CLASS_PUT], n);
    EXPECT_EQ(c.bytes[2][OSHM_PROF_CLASS_PUT], 8 * n);
    EXPECT_EQ(c.ops[1][OSHM_PROF_CLASS_PUT], 0u);
}

TEST_F(Prof, SampleOneTimesEveryCall)
{
    start(1);
    const uint64_t n = 5000; // past the 1,024 samples after which a period doubles
    for (uint64_t i = 0; i < n; i++)
        hot_put(4, 1);
    std::vector<oshm_prof_total> totals = stop_and_total();
    EXPECT_EQ(totals[OSHM_PROF_put].calls, n);
    EXPECT_EQ(totals[OSHM_PROF_put].timed, n);
}

TEST_F(Prof, SampleIsRoundedUpToAPowerOfTwo)
{
    start(100);
    EXPECT_EQ(oshm_prof_sample(), 128u);
    oshm_prof_stop();
}

TEST_F(Prof, NothingCountsInlineOnceStopped)
{
    start(64);
    for (int i = 0; i < 10; i++)
        hot_put(8, 0);
    oshm_prof_stop();
    // The library is not running from here: the hot routines' leaf test
    // must send every call to the slow path (its running check).
    EXPECT_EQ(oshm_prof_leaf(OSHM_PROF_put, 8), nullptr);
    EXPECT_EQ(oshm_prof_leaf(OSHM_PROF_quiet, 0), nullptr);
}

TEST_F(Prof, CallsInsideAnotherCountForNothing)
{
    start(64);
    oshm_prof_span outer;
    oshm_prof_begin(&outer, OSHM_PROF_barrier);
    for (int i = 0; i < 100; i++)
        hot_put(8, 3);
    oshm_prof_end(&outer, "shmem_barrier_all", 0, -1);
    for (int i = 0; i < 100; i++)
        hot_put(8, 3);
    std::vector<oshm_prof_total> totals = stop_and_total();
    EXPECT_EQ(totals[OSHM_PROF_barrier].calls, 1u);
    EXPECT_EQ(totals[OSHM_PROF_put].calls, 100u);
}
