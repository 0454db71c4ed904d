#include "util/large_vector.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace dtrace {
namespace {

TEST(LargeVector, LargeBlocksStartOnAHugePageBoundary) {
  LargeVector<uint64_t> v(kHugePageBytes / 8 * 3 + 1);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(v.data()) % kHugePageBytes, 0u);
  LargeVector<uint64_t> small(16);
  EXPECT_EQ(small.size(), 16u);
}

TEST(LargeVector, GrowsPastTheThresholdKeepingItsContents) {
  LargeVector<uint32_t> v;
  for (uint32_t i = 0; i < 3'000'000; i++) v.push_back(i * 3);
  for (uint32_t i = 0; i < 3'000'000; i += 99'991) ASSERT_EQ(v[i], i * 3);
  LargeVector<uint32_t> moved = std::move(v);
  EXPECT_EQ(moved.back(), 2'999'999u * 3);
  moved.clear();
  moved.shrink_to_fit();
  EXPECT_EQ(moved.capacity(), 0u);
}

}  // namespace
}  // namespace dtrace
