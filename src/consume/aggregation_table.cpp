#include "consume/aggregation_table.h"

#include <algorithm>
#include <array>
#include <compare>
#include <cstring>
#include <limits>
#include <string_view>
#include <unordered_map>

#include "print/printf.h"

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

int64_t bucketValue(const ir::Aggregation& agg, uint32_t i) {
  switch (agg.func) {
    case ir::AggFunc::Quantize:
      return ir::quantizeBucketValue(i);
    case ir::AggFunc::Lquantize:
      return ir::lquantizeBucketValue(agg.params, i);
    default:
      return ir::llquantizeBucketValue(agg.params, i);
  }
}

// What a distribution of one aggregation sorts by, as dt_aggregate_valcmp
// has it: the sum of each bucket's value times its count, then the count
// at zero.
class DistributionOrder {
 public:
  explicit DistributionOrder(const ir::Aggregation& agg) {
    if (!agg.bucketed()) return;
    for (uint32_t i = 0; i < agg.dataWords(); i++) {
      weights_.push_back(static_cast<long double>(bucketValue(agg, i)));
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
  inlineValues_ = ncols == 1 && !columns_[0]->aggregation().bucketed() &&
                  columns_[0]->aggregation().dataWords() <= kInlineWords;
  const uint32_t keySize = ncols ? columns_[0]->aggregation().keySize : 0;
  inlineKeys_ = keySize <= kInlineKeyBytes;
  rows_.reserve(nrows);
  for (size_t r = 0; r < nrows; r++) {
    Row row;
    if (ncols == 1) {
      const MergedEntry e = columns_[0]->entry(r);
      row.key = e.key;
      row.value = e.data;
    } else {
      row.key = keys[r];
      row.value = nullptr;  // a joined table's values are in values_
    }
    row.keyPrefix = 0;
    row.sortWord = 0;
    row.index = static_cast<uint32_t>(r);
    if (inlineKeys_) std::copy_n(row.key, keySize, row.inlineKey);
    if (inlineValues_) {
      std::copy_n(row.value, columns_[0]->aggregation().dataWords(), row.inlineValue);
    }
    rows_.push_back(row);
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

template <class CompareValues>
void AggregationTable::sortRows(const SortOptions& options, const KeyOrder& keys,
                                CompareValues compareValues) {
  for (Row& row : rows_) row.keyPrefix = keys.prefix(keyOf(row));
  auto compareKeys = [&](const Row& a, const Row& b) {
    if (int c = order(a.keyPrefix, b.keyPrefix)) return c;
    return keys.compare(keyOf(a), keyOf(b));
  };
  std::sort(rows_.begin(), rows_.end(), [&](const Row& a, const Row& b) {
    int c = options.byKey ? compareKeys(a, b) : compareValues(a, b);
    if (c == 0) c = options.byKey ? compareValues(a, b) : compareKeys(a, b);
    return options.reverse ? c > 0 : c < 0;
  });
}

void AggregationTable::sort(const SortOptions& options) {
  if (columns_.empty()) return;
  const size_t ncols = columns_.size();
  const KeyOrder keys(columns_[0]->aggregation(), options.keyPosition);
  const ir::Aggregation& first = columns_[0]->aggregation();
  const ir::AggDisplay display = first.info().display;
  if (ncols == 1 && display <= ir::AggDisplay::StandardDeviation) {
    // Signed numbers order as unsigned ones once their top bit flips; a
    // standard deviation is unsigned.
    const uint64_t flip = display == ir::AggDisplay::StandardDeviation ? 0 : kSignBit;
    for (Row& row : rows_) {
      row.sortWord = static_cast<uint64_t>(ir::aggregationScalar(first, row.value)) ^ flip;
    }
    sortRows(options, keys,
             [](const Row& a, const Row& b) { return order(a.sortWord, b.sortWord); });
    return;
  }
  if (ncols == 1) {
    const DistributionOrder distribution(first);
    for (Row& row : rows_) {
      const SortValue s = distribution.of<SortValue>(row.value);
      const std::array<uint64_t, 2> weight = orderedWords(s.weight);
      row.sortWord = weight[0];
      row.moreSortWords = {weight[1], static_cast<uint64_t>(s.atZero) ^ kSignBit};
    }
    sortRows(options, keys, [](const Row& a, const Row& b) {
      if (int c = order(a.sortWord, b.sortWord)) return c;
      const auto c = a.moreSortWords <=> b.moreSortWords;
      return c < 0 ? -1 : c > 0 ? 1 : 0;
    });
    return;
  }
  // Joined tables: each value of each row is compared in turn.
  if (sortValues_.empty()) computeSortValues();
  const uint32_t firstColumn = options.valuePosition < ncols ? options.valuePosition : 0;
  sortRows(options, keys, [this, ncols, firstColumn](const Row& a, const Row& b) {
    for (size_t i = 0; i < ncols; i++) {
      const size_t c = (firstColumn + i) % ncols;
      const SortValue& va = sortValues_[a.index * ncols + c];
      if (int r = va.compare(sortValues_[b.index * ncols + c])) return r;
    }
    return 0;
  });
}

}  // namespace dtrace::consume
