#include "consume/aggregation_snapshot.h"

#include <algorithm>
#include <cstring>

#include "print/printf.h"

namespace dtrace::consume {

namespace {

bool less(const ir::Aggregation& agg, int64_t a, int64_t b) {
  return agg.valueKind == ir::DataKind::Unsigned
             ? static_cast<uint64_t>(a) < static_cast<uint64_t>(b)
             : a < b;
}

}  // namespace

size_t AggregationData::add(const uint8_t* key) {
  keys_.insert(keys_.end(), key, key + keySize());
  values_.resize(values_.size() + ncpus_, ir::AggValue{0, 0});
  return size() - 1;
}

void AggregationData::reserve(size_t n) {
  keys_.reserve(n * keySize());
  values_.reserve(n * ncpus_);
}

MergedEntry mergeEntry(const AggregationData& data, size_t i) {
  const ir::Aggregation& agg = *data.aggregation;
  MergedEntry merged;
  merged.key = data.key(i);
  bool seen = false;
  for (const ir::AggValue& v : data.perCpu(i)) {
    if (v.count == 0) continue;  // an idle CPU's slot holds no extreme
    merged.count += v.count;
    switch (agg.func) {
      case ir::AggFunc::Count:
        break;
      case ir::AggFunc::Sum:
      case ir::AggFunc::Avg:
        merged.value += v.value;
        break;
      case ir::AggFunc::Min:
        if (!seen || less(agg, v.value, merged.value)) merged.value = v.value;
        break;
      case ir::AggFunc::Max:
        if (!seen || less(agg, merged.value, v.value)) merged.value = v.value;
        break;
    }
    seen = true;
  }
  if (agg.func == ir::AggFunc::Count) merged.value = static_cast<int64_t>(merged.count);
  merged.result = aggregationResult(agg.func, merged);
  return merged;
}

int64_t aggregationResult(ir::AggFunc func, const MergedEntry& merged) {
  if (func == ir::AggFunc::Avg) {
    return merged.count ? merged.value / static_cast<int64_t>(merged.count) : 0;
  }
  return merged.value;
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

std::vector<MergedEntry> sortedSnapshot(const AggregationData& data) {
  std::vector<MergedEntry> result;
  if (data.aggregation == nullptr) return result;
  const ir::Aggregation& agg = *data.aggregation;
  result.reserve(data.size());
  for (size_t i = 0; i < data.size(); i++) {
    MergedEntry merged = mergeEntry(data, i);
    if (merged.count > 0) result.push_back(merged);
  }
  std::sort(result.begin(), result.end(), [&](const MergedEntry& l, const MergedEntry& r) {
    if (l.result != r.result) return l.result < r.result;
    return compareKeys(agg, l.key, r.key) < 0;
  });
  return result;
}

}  // namespace dtrace::consume
