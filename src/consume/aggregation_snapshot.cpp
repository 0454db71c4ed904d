#include "consume/aggregation_snapshot.h"

#include <algorithm>
#include <cstring>

#include "print/printf.h"

namespace dtrace::consume {

size_t AggregationData::add(const uint8_t* key) {
  keys_.insert(keys_.end(), key, key + keySize());
  slots_.resize(slots_.size() + ncpus_, CpuSlot::Absent);
  data_.resize(data_.size() + static_cast<size_t>(ncpus_) * words_, 0);
  return size() - 1;
}

void AggregationData::set(size_t i, int cpu, CpuSlot slot, const int64_t* words) {
  slots_[i * ncpus_ + cpu] = slot;
  std::memcpy(data_.data() + (i * ncpus_ + cpu) * words_, words, words_ * sizeof(int64_t));
}

void AggregationData::reserve(size_t n) {
  keys_.reserve(n * keySize());
  slots_.reserve(n * ncpus_);
  data_.reserve(n * ncpus_ * words_);
}

void mergeCpus(const AggregationData& data, size_t i, int64_t* out) {
  std::fill(out, out + data.words(), 0);
  bool first = true;
  for (int cpu = 0; cpu < data.ncpus(); cpu++) {
    if (data.slot(i, cpu) != CpuSlot::Current) continue;
    ir::mergeAggregationData(*data.aggregation, data.data(i, cpu), out, first);
    first = false;
  }
}

MergedAggregation::MergedAggregation(const AggregationData& data)
    : aggregation_(data.aggregation) {
  const size_t n = data.size();
  words_.resize(n * data.words());
  entries_.reserve(n);
  for (size_t i = 0; i < n; i++) {
    int64_t* out = words_.data() + i * data.words();
    mergeCpus(data, i, out);
    entries_.push_back({data.key(i), out});
  }
}

int compareKeys(const ir::Aggregation& agg, const uint8_t* a, const uint8_t* b) {
  for (const ir::Field& f : agg.keys) {
    const uint8_t* pa = a + f.offset;
    const uint8_t* pb = b + f.offset;
    const bool integer = f.kind != ir::DataKind::String &&
                         (f.size == 1 || f.size == 2 || f.size == 4 || f.size == 8);
    if (integer) {
      const uint64_t va = print::readUnsigned(pa, f.size);
      const uint64_t vb = print::readUnsigned(pb, f.size);
      if (va != vb) return va < vb ? -1 : 1;
    } else {
      const int c = std::memcmp(pa, pb, f.size);
      if (c != 0) return c;
    }
  }
  return 0;
}

namespace {

template <class T>
int order(T a, T b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

// A distribution's weight: each bucket's count times the bucket's value,
// and the count at zero (which breaks ties), as dt_aggregate_valcmp has it.
struct Weight {
  long double total = 0;
  int64_t atZero = 0;
};

Weight distributionWeight(const ir::Aggregation& agg, const int64_t* buckets) {
  Weight w;
  const uint32_t n = agg.dataWords();
  for (uint32_t i = 0; i < n; i++) {
    int64_t value = 0;
    switch (agg.func) {
      case ir::AggFunc::Quantize:
        value = ir::quantizeBucketValue(i);
        break;
      case ir::AggFunc::Lquantize:
        value = ir::lquantizeBucketValue(agg.params, i);
        break;
      default:
        value = ir::llquantizeBucketValue(agg.params, i);
        break;
    }
    if (value == 0) w.atZero = buckets[i];
    w.total += static_cast<long double>(value) * static_cast<long double>(buckets[i]);
  }
  return w;
}

}  // namespace

int compareValues(const ir::Aggregation& agg, const int64_t* a, const int64_t* b) {
  switch (agg.info().display) {
    case ir::AggDisplay::Scalar:
    case ir::AggDisplay::Average:
      return order(ir::aggregationScalar(agg, a), ir::aggregationScalar(agg, b));
    case ir::AggDisplay::StandardDeviation:
      return order(ir::standardDeviation(a), ir::standardDeviation(b));
    default: {
      const Weight wa = distributionWeight(agg, a), wb = distributionWeight(agg, b);
      if (int c = order(wa.total, wb.total)) return c;
      return order(wa.atZero, wb.atZero);
    }
  }
}

void sortByValue(MergedAggregation& merged) {
  const ir::Aggregation& agg = merged.aggregation();
  const bool distribution = agg.info().display >= ir::AggDisplay::Quantize;
  auto& entries = merged.entries();
  if (!distribution) {
    // The common case, kept cheap for a million keys: one scalar each.
    std::vector<std::pair<int64_t, size_t>> keyed;
    keyed.reserve(entries.size());
    for (size_t i = 0; i < entries.size(); i++) {
      keyed.emplace_back(ir::aggregationScalar(agg, entries[i].data), i);
    }
    const bool unsignedOrder = agg.info().display == ir::AggDisplay::StandardDeviation;  // %llu
    std::sort(keyed.begin(), keyed.end(), [&](const auto& l, const auto& r) {
      if (l.first != r.first) {
        return unsignedOrder ? static_cast<uint64_t>(l.first) < static_cast<uint64_t>(r.first)
                             : l.first < r.first;
      }
      return compareKeys(agg, entries[l.second].key, entries[r.second].key) < 0;
    });
    std::vector<MergedEntry> sorted;
    sorted.reserve(entries.size());
    for (const auto& [v, i] : keyed) sorted.push_back(entries[i]);
    entries.swap(sorted);
    return;
  }
  std::stable_sort(entries.begin(), entries.end(), [&](const MergedEntry& l, const MergedEntry& r) {
    if (int c = compareValues(agg, l.data, r.data)) return c < 0;
    return compareKeys(agg, l.key, r.key) < 0;
  });
}

}  // namespace dtrace::consume
