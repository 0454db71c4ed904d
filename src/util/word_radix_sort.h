// A least-significant-digit radix sort of entries that order by a few
// unsigned 64-bit words: a million aggregation rows sort in a few passes
// over compact entries rather than in twenty rounds of compares over the
// rows themselves. Byte digits that every entry shares cost no pass.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "util/large_vector.h"

namespace dtrace {

// `words[0]` is the most significant; `index` says where the entry came from.
template <size_t W>
struct WordsEntry {
  std::array<uint64_t, W> words;
  uint32_t index;
};

// Sorts `entries` by their words in ascending order; entries with equal
// words keep their order. `scratch` is working space (resized as needed).
template <size_t W>
void radixSortByWords(LargeVector<WordsEntry<W>>& entries, LargeVector<WordsEntry<W>>& scratch) {
  constexpr size_t kDigits = W * 8;
  const size_t n = entries.size();
  if (n < 2) return;
  std::vector<std::array<size_t, 256>> counts(kDigits);
  for (auto& c : counts) c.fill(0);
  for (const WordsEntry<W>& e : entries) {
    for (size_t w = 0; w < W; w++) {
      for (size_t b = 0; b < 8; b++) counts[w * 8 + b][(e.words[w] >> (8 * b)) & 0xff]++;
    }
  }
  scratch.resize(n);
  LargeVector<WordsEntry<W>>* from = &entries;
  LargeVector<WordsEntry<W>>* to = &scratch;
  // The least significant digit first: the last word's lowest byte.
  for (size_t step = 0; step < kDigits; step++) {
    const size_t w = W - 1 - step / 8, b = step % 8;
    std::array<size_t, 256>& count = counts[w * 8 + b];
    if (std::find(count.begin(), count.end(), n) != count.end()) continue;  // one digit for all
    size_t offset = 0;
    for (size_t& c : count) offset += std::exchange(c, offset);
    const unsigned shift = static_cast<unsigned>(8 * b);
    for (const WordsEntry<W>& e : *from) (*to)[count[(e.words[w] >> shift) & 0xff]++] = e;
    std::swap(from, to);
  }
  if (from != &entries) entries.swap(scratch);
}

}  // namespace dtrace
