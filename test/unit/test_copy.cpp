// oshm_copy (util/copy.h) moves exactly the bytes memcpy would, on either
// routine, at sizes around its thresholds and at unaligned ends.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

extern "C" {
#include "util/copy.h"
}

namespace {

void check_copy(bool movsb)
{
    const bool saved = oshm_copy_movsb;
    oshm_copy_movsb = movsb;
    const size_t guard = 64;
    const size_t sizes[] = {0, 1, 7, 4096, OSHM_COPY_MOVSB_MIN - 1, OSHM_COPY_MOVSB_MIN,
                            OSHM_COPY_MOVSB_MIN + 3, (size_t)1 << 20, ((size_t)3 << 20) + 5,
                            OSHM_COPY_MOVSB_MAX - 1, OSHM_COPY_MOVSB_MAX};
    std::vector<unsigned char> src(OSHM_COPY_MOVSB_MAX + 2 * guard);
    std::vector<unsigned char> dst(src.size());
    for (size_t i = 0; i < src.size(); i++)
        src[i] = (unsigned char)(i * 131 + (i >> 11));
    for (size_t n : sizes)
        for (size_t so : {(size_t)0, (size_t)3})
            for (size_t d_off : {(size_t)0, (size_t)5}) {
                std::memset(dst.data(), 0xA5, n + 2 * guard);
                oshm_copy(dst.data() + guard + d_off, src.data() + so, n);
                ASSERT_EQ(std::memcmp(dst.data() + guard + d_off, src.data() + so, n), 0)
                    << "size " << n << " offsets " << so << "/" << d_off;
                for (size_t i = 0; i < guard + d_off; i++)
                    ASSERT_EQ(dst[i], 0xA5) << "byte before the copy, size " << n;
                for (size_t i = guard + d_off + n; i < n + 2 * guard; i++)
                    ASSERT_EQ(dst[i], 0xA5) << "byte after the copy, size " << n;
            }
    oshm_copy_movsb = saved;
}

} // namespace

TEST(Copy, MemcpyRoutine) { check_copy(false); }

TEST(Copy, StringMoveRoutine) { check_copy(true); }
