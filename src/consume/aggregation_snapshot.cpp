#include "consume/aggregation_snapshot.h"

#include <algorithm>
#include <cstring>

namespace dtrace::consume {
namespace {

uint64_t readKeyInteger(const uint8_t* p, uint32_t size) {
  uint64_t v = 0;
  std::memcpy(&v, p, size);  // little-endian: low bytes first
  return v;
}

}  // namespace

MergedEntry mergeEntry(const ir::Aggregation& agg, const AggregationEntry& entry) {
  MergedEntry merged;
  merged.key = entry.key.data();
  bool seen = false;
  for (const ir::AggValue& v : entry.perCpu) {
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
        merged.value = seen ? std::min(merged.value, v.value) : v.value;
        break;
      case ir::AggFunc::Max:
        merged.value = seen ? std::max(merged.value, v.value) : v.value;
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
      const uint64_t va = readKeyInteger(pa, f.size);
      const uint64_t vb = readKeyInteger(pb, f.size);
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
  result.reserve(data.entries.size());
  for (const AggregationEntry& entry : data.entries) {
    if (entry.key.size() < agg.keySize) continue;
    MergedEntry merged = mergeEntry(agg, entry);
    if (merged.count > 0) result.push_back(merged);
  }
  std::sort(result.begin(), result.end(), [&](const MergedEntry& l, const MergedEntry& r) {
    if (l.result != r.result) return l.result < r.result;
    return compareKeys(agg, l.key, r.key) < 0;
  });
  return result;
}

}  // namespace dtrace::consume
