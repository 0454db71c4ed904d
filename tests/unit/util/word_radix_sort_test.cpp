#include "util/word_radix_sort.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>

namespace dtrace {
namespace {

// Words with shared high bytes (passes skipped) and many ties (stability).
TEST(WordRadixSort, OrdersAsAStableSortOfTheWords) {
  std::mt19937_64 random(7);
  LargeVector<WordsEntry<2>> entries(100'000), scratch;
  for (uint32_t i = 0; i < entries.size(); i++) {
    entries[i].words = {0xff00'0000'0000'0000 | (random() % 5), random() % 3000};
    entries[i].index = i;
  }
  LargeVector<WordsEntry<2>> expected = entries;
  std::stable_sort(expected.begin(), expected.end(),
                   [](const auto& a, const auto& b) { return a.words < b.words; });
  radixSortByWords(entries, scratch);
  ASSERT_EQ(entries.size(), expected.size());
  for (size_t i = 0; i < entries.size(); i++) {
    ASSERT_EQ(entries[i].words, expected[i].words) << i;
    ASSERT_EQ(entries[i].index, expected[i].index) << i;
  }
}

TEST(WordRadixSort, EveryByteOfAWordCounts) {
  LargeVector<WordsEntry<1>> entries, scratch;
  const uint64_t words[] = {UINT64_MAX, 0, uint64_t{1} << 63, 0x0100, 0x00ff, 1};
  for (uint32_t i = 0; i < 6; i++) entries.push_back({{words[i]}, i});
  radixSortByWords(entries, scratch);
  std::vector<uint32_t> order;
  for (const auto& e : entries) order.push_back(e.index);
  EXPECT_EQ(order, (std::vector<uint32_t>{1, 5, 4, 3, 2, 0}));
}

}  // namespace
}  // namespace dtrace
