#include "consume/aggregation_table.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <numeric>
#include <string_view>
#include <unordered_map>

#include "print/printf.h"
#include "util/word_radix_sort.h"

namespace dtrace::consume {
namespace {

template <class T>
int order(T a, T b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

constexpr uint64_t kSignBit = uint64_t{1} << 63;

// Two unsigned words that order as `x` does. x87's long double is a sign
// and a 15-bit exponent, then a 64-bit significand with its integer bit.
std::array<uint64_t, 2> orderedWords(long double x) {
  static_assert(std::numeric_limits<long double>::digits == 64);
  if (x == 0) x = 0;  // -0 orders with +0
  uint64_t significand;
  uint16_t signExponent;
  std::memcpy(&significand, &x, sizeof significand);
  std::memcpy(&signExponent, reinterpret_cast<const char*>(&x) + sizeof significand,
              sizeof signExponent);
  if (signExponent & 0x8000) return {static_cast<uint16_t>(~signExponent), ~significand};
  return {uint64_t{signExponent} | 0x8000, significand};
}

// What a distribution of one aggregation sorts by, as dt_aggregate_valcmp
// has it: the sum of each bucket's value times its count, then the count
// at zero.
class DistributionOrder {
 public:
  explicit DistributionOrder(const ir::Aggregation& agg) {
    if (!agg.bucketed()) return;
    for (uint32_t i = 0; i < agg.dataWords(); i++) {
      weights_.push_back(static_cast<long double>(ir::distributionBucketValue(agg, i)));
    }
  }
  template <class SortValue>
  SortValue of(const int64_t* value) const {
    const ir::SparseDistribution d(value);
    SortValue s{0, 0};
    for (uint32_t i = 0; i < d.size(); i++) {
      const long double weight = weights_[d.bucket(i)];
      if (weight == 0) s.atZero = d.count(i);
      s.weight += weight * static_cast<long double>(d.count(i));
    }
    return s;
  }

 private:
  std::vector<long double> weights_;  // each bucket's value
};

}  // namespace

int AggregationTable::SortValue::compare(const SortValue& other) const {
  if (int r = order(weight, other.weight)) return r;
  return order(atZero, other.atZero);
}

SortOptions SortOptions::from(const OptionTable& options) {
  SortOptions s;
  s.byKey = options.isSet("aggsortkey");
  s.reverse = options.isSet("aggsortrev");
  s.keyPosition = static_cast<uint32_t>(options.value("aggsortkeypos"));
  s.valuePosition = static_cast<uint32_t>(options.value("aggsortpos"));
  return s;
}

KeyOrder::KeyOrder(const ir::Aggregation& agg, uint32_t position) {
  const size_t n = agg.keys.size();
  if (position >= n) position = 0;
  for (size_t k = 0; k < n; k++) {
    const ir::Field& f = agg.keys[(position + k) % n];
    Step step{f.offset, f.size, Compare::Bytes};
    if (ir::isCodeAddressKind(f.kind) && f.size % 8 == 0) {
      step.compare = Compare::Words;
    } else if (f.kind != ir::DataKind::String &&
               (f.size == 1 || f.size == 2 || f.size == 4 || f.size == 8)) {
      step.compare = Compare::Unsigned;
    }
    steps_.push_back(step);
  }
}

int KeyOrder::compare(const uint8_t* a, const uint8_t* b) const {
  for (const Step& s : steps_) {
    const uint8_t* pa = a + s.offset;
    const uint8_t* pb = b + s.offset;
    switch (s.compare) {
      case Compare::Unsigned:
        if (int c = order(print::readUnsigned(pa, s.size), print::readUnsigned(pb, s.size)))
          return c;
        break;
      case Compare::Words:
        for (uint32_t w = 0; w < s.size; w += 8) {
          if (int c = order(print::readUnsigned(pa + w, 8), print::readUnsigned(pb + w, 8)))
            return c;
        }
        break;
      case Compare::Bytes:
        if (int c = std::memcmp(pa, pb, s.size)) return c;
        break;
    }
  }
  return 0;
}

uint64_t KeyOrder::prefix(const uint8_t* key) const {
  if (steps_.empty()) return 0;
  const Step& s = steps_.front();
  const uint8_t* p = key + s.offset;
  if (s.compare != Compare::Bytes)
    return print::readUnsigned(p, s.compare == Compare::Words ? 8 : s.size);
  // Bytes compare as a big-endian number does.
  uint64_t v = 0;
  for (uint32_t i = 0; i < 8; i++) v = v << 8 | (i < s.size ? p[i] : 0);
  return v;
}

AggregationTable::AggregationTable(std::vector<const MergedAggregation*> columns)
    : columns_(std::move(columns)) {
  const size_t ncols = columns_.size();
  for (const MergedAggregation* c : columns_) {
    zeros_.emplace_back(c->aggregation().dataWords(), 0);
  }
  // A table of one aggregation takes its rows from the snapshot's entries;
  // several are joined into keys and values_ first.
  LargeVector<const uint8_t*> keys;
  if (ncols > 1) {
    // Join on the key bytes; every column has the first one's layout.
    const uint32_t keySize = columns_[0]->aggregation().keySize;
    std::unordered_map<std::string_view, size_t> rowOf;
    for (size_t c = 0; c < ncols; c++) {
      for (size_t i = 0; i < columns_[c]->size(); i++) {
        const MergedEntry e = columns_[c]->entry(i);
        const std::string_view k(reinterpret_cast<const char*>(e.key), keySize);
        auto [it, fresh] = rowOf.try_emplace(k, keys.size());
        if (fresh) {
          keys.push_back(e.key);
          for (size_t z = 0; z < ncols; z++) values_.push_back(zeros_[z].data());
        }
        values_[it->second * ncols + c] = e.data;
      }
    }
  }
  const size_t nrows = ncols == 1 ? columns_[0]->size() : keys.size();
  rows_.reserve(nrows);
  for (size_t r = 0; r < nrows; r++) {
    if (ncols == 1) {
      const MergedEntry e = columns_[0]->entry(r);
      rows_.push_back({e.key, e.data, static_cast<uint32_t>(r)});
    } else {
      // A joined table's values are in values_.
      rows_.push_back({keys[r], nullptr, static_cast<uint32_t>(r)});
    }
  }
}

void AggregationTable::computeSortValues() {
  const size_t ncols = columns_.size();
  const size_t nrows = rows_.size();
  sortValues_.resize(nrows * ncols);
  for (size_t c = 0; c < ncols; c++) {
    const ir::Aggregation& agg = columns_[c]->aggregation();
    const ir::AggDisplay display = agg.info().display;
    const DistributionOrder distribution(agg);
    for (size_t r = 0; r < nrows; r++) {
      const int64_t* v = values_[r * ncols + c];
      SortValue& s = sortValues_[r * ncols + c];
      switch (display) {
        case ir::AggDisplay::Scalar:
        case ir::AggDisplay::Average:
          s = {static_cast<long double>(ir::aggregationScalar(agg, v)), 0};
          break;
        case ir::AggDisplay::StandardDeviation:
          s = {static_cast<long double>(ir::standardDeviation(v)), 0};
          break;
        default:
          s = distribution.of<SortValue>(v);
          break;
      }
    }
  }
}

// The words a row's order starts with are radix-sorted; rows whose words
// are all equal (their values, and keys as far as the prefix goes) are then
// put in order by their whole keys.
template <size_t W, class RowWords>
void AggregationTable::sortByWords(const std::array<uint32_t, 4>& words, const RowWords& rowWords,
                                   const KeyOrder& keys, LargeVector<uint32_t>& indices) const {
  const size_t n = rows_.size();
  LargeVector<WordsEntry<W>> entries(n), scratch;
  for (size_t r = 0; r < n; r++) {
    const std::array<uint64_t, 4> all = rowWords(rows_[r]);
    entries[r].index = static_cast<uint32_t>(r);
    for (size_t w = 0; w < W; w++) entries[r].words[w] = all[words[w]];
  }
  radixSortByWords(entries, scratch);
  for (size_t r = 0; r < n; r++) indices[r] = entries[r].index;
  auto keyLess = [&](uint32_t a, uint32_t b) {
    return keys.compare(rows_[a].key, rows_[b].key) < 0;
  };
  for (size_t i = 0; i < n;) {
    size_t j = i + 1;
    while (j < n && entries[j].words == entries[i].words) j++;
    if (j - i > 1) std::sort(indices.begin() + i, indices.begin() + j, keyLess);
    i = j;
  }
}

// A table of one aggregation sorts by unsigned words, so that a million
// rows sort in a few radix passes: a number is one word; a distribution's
// weight is two (mapped so that they order as the weight does), then its
// count at zero; the key's prefix is the fourth.
void AggregationTable::sortOneAggregation(const SortOptions& options, const KeyOrder& keys,
                                          LargeVector<uint32_t>& indices) const {
  const ir::Aggregation& agg = columns_[0]->aggregation();
  const ir::AggDisplay display = agg.info().display;
  const bool scalar = display <= ir::AggDisplay::StandardDeviation;
  // Signed numbers order as unsigned ones once their top bit flips; a
  // standard deviation is unsigned.
  const uint64_t flip = display == ir::AggDisplay::StandardDeviation ? 0 : kSignBit;
  const DistributionOrder distribution(agg);
  constexpr uint32_t kKeyPrefixWord = 3;
  auto rowWords = [&](const Row& row) {
    std::array<uint64_t, 4> w{};
    if (scalar) {
      w[0] = static_cast<uint64_t>(ir::aggregationScalar(agg, row.value)) ^ flip;
    } else {
      const SortValue s = distribution.of<SortValue>(row.value);
      const std::array<uint64_t, 2> weight = orderedWords(s.weight);
      w = {weight[0], weight[1], static_cast<uint64_t>(s.atZero) ^ kSignBit, 0};
    }
    w[kKeyPrefixWord] = keys.prefix(row.key);
    return w;
  };
  // The words the order starts with, as far as they follow it (aggsortkey:
  // the values decide only between equal keys), less those every row shares.
  const uint32_t valueWords = scalar ? 1 : 3;
  std::vector<uint32_t> leading;
  if (!options.byKey) {
    for (uint32_t i = 0; i < valueWords; i++) leading.push_back(i);
  }
  leading.push_back(kKeyPrefixWord);
  if (options.byKey && keys.prefixIsWhole()) {
    for (uint32_t i = 0; i < valueWords; i++) leading.push_back(i);
  }
  std::array<bool, 4> varies{};
  const std::array<uint64_t, 4> first = rowWords(rows_[0]);
  for (const Row& row : rows_) {
    const std::array<uint64_t, 4> w = rowWords(row);
    for (size_t i = 0; i < 4; i++) varies[i] = varies[i] || w[i] != first[i];
  }
  std::array<uint32_t, 4> words{};
  size_t nwords = 0;
  for (uint32_t w : leading) {
    if (varies[w]) words[nwords++] = w;
  }
  if (nwords == 0) words[nwords++] = kKeyPrefixWord;  // alike as far as words go: keys decide
  switch (nwords) {
    case 1:
      sortByWords<1>(words, rowWords, keys, indices);
      break;
    case 2:
      sortByWords<2>(words, rowWords, keys, indices);
      break;
    case 3:
      sortByWords<3>(words, rowWords, keys, indices);
      break;
    default:
      sortByWords<4>(words, rowWords, keys, indices);
      break;
  }
}

// Joined tables: each value of each row is compared in turn.
void AggregationTable::sortJoined(const SortOptions& options, const KeyOrder& keys,
                                  LargeVector<uint32_t>& indices) {
  if (sortValues_.empty()) computeSortValues();
  const size_t ncols = columns_.size();
  const uint32_t firstColumn = options.valuePosition < ncols ? options.valuePosition : 0;
  auto compareValues = [&](uint32_t a, uint32_t b) {
    for (size_t i = 0; i < ncols; i++) {
      const size_t c = (firstColumn + i) % ncols;
      const SortValue& va = sortValues_[rows_[a].index * ncols + c];
      if (int r = va.compare(sortValues_[rows_[b].index * ncols + c])) return r;
    }
    return 0;
  };
  std::sort(indices.begin(), indices.end(), [&](uint32_t a, uint32_t b) {
    const int byKey = keys.compare(rows_[a].key, rows_[b].key);
    int c = options.byKey ? byKey : compareValues(a, b);
    if (c == 0) c = options.byKey ? compareValues(a, b) : byKey;
    return c < 0;
  });
}

// Rows are sorted as indices and moved once, fetched ahead.
void AggregationTable::moveRowsInto(const LargeVector<uint32_t>& indices) {
  constexpr size_t kFetchAhead = 16;
  LargeVector<Row> sorted(rows_.size());
  for (size_t i = 0; i < rows_.size(); i++) {
    if (i + kFetchAhead < rows_.size()) __builtin_prefetch(&rows_[indices[i + kFetchAhead]]);
    sorted[i] = rows_[indices[i]];
  }
  rows_.swap(sorted);
}

void AggregationTable::sort(const SortOptions& options) {
  if (rows_.empty()) return;
  const KeyOrder keys(columns_[0]->aggregation(), options.keyPosition);
  LargeVector<uint32_t> indices(rows_.size());
  std::iota(indices.begin(), indices.end(), 0);
  if (columns_.size() == 1) {
    sortOneAggregation(options, keys, indices);
  } else {
    sortJoined(options, keys, indices);
  }
  // Ascending; aggsortrev reads it backwards (no two rows tie: their keys differ).
  if (options.reverse) std::reverse(indices.begin(), indices.end());
  moveRowsInto(indices);
}

}  // namespace dtrace::consume
