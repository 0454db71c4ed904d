#include <atomic>
#include <cstring>
#include <string_view>
#include <unordered_set>

#include "bpf/map_view.h"
#include "consume/aggregation_reader.h"
#include "consume/aggregation_source.h"

namespace dtrace::consume {

Result<AggregationData> KernelAggregations::snapshot(const ir::Aggregation& agg, bool perCpu) {
  return readAggregation(agg, mapFds_.at(agg.id),
                         std::atomic_ref<uint64_t>(globals_[agg.generationOffset / 8]).load(),
                         perCpu, symbolKeys_);
}

// Entries of older generations read as zeros, and the kernel starts each
// one afresh the next time its CPU updates it (ir/runtime.h).
void KernelAggregations::clear(const ir::Aggregation& agg) {
  std::atomic_ref<uint64_t>(globals_[agg.generationOffset / 8]).fetch_add(1);
}

void KernelAggregations::remove(const ir::Aggregation& agg,
                                const std::vector<const uint8_t*>& keys) {
  if (agg.bucketed() || (symbolKeys_ && SymbolKeys::merges(agg))) {
    removeByScan(agg, keys);
    return;
  }
  const int ncpus = bpf::possibleCpuCount();
  const bpf::MapView map(mapFds_.at(agg.id));
  std::vector<uint8_t> mapKey(agg.keySize + ir::kAggregationCpuSlot);
  for (const uint8_t* key : keys) {
    std::memcpy(mapKey.data(), key, agg.keySize);
    for (uint64_t cpu = 0; cpu < static_cast<uint64_t>(ncpus); cpu++) {
      std::memcpy(mapKey.data() + agg.keySize, &cpu, sizeof cpu);
      (void)map.erase(mapKey.data());  // absent on idle CPUs
    }
  }
}

// A distribution's tuple has an entry per CPU and bucket, and keys that
// merged by symbol stand for every map entry whose key names the same:
// those entries are found by reading every key.
void KernelAggregations::removeByScan(const ir::Aggregation& agg,
                                      const std::vector<const uint8_t*>& keys) {
  const bool normalizes = symbolKeys_ && SymbolKeys::merges(agg);
  const bpf::MapView map(mapFds_.at(agg.id));
  const size_t mapKeySize = agg.keySize + ir::kAggregationCpuSlot;
  auto tuple = [&agg](const uint8_t* key) {
    return std::string_view(reinterpret_cast<const char*>(key), agg.keySize);
  };
  std::unordered_set<std::string_view> removed;
  for (const uint8_t* key : keys) removed.insert(tuple(key));
  std::vector<uint8_t> prev(mapKeySize), next(mapKeySize), normalized(mapKeySize);
  std::vector<std::vector<uint8_t>> doomed;
  bool first = true;
  while (map.nextKey(first ? nullptr : prev.data(), next.data())) {
    first = false;
    normalized = next;
    if (normalizes) symbolKeys_->normalize(agg, normalized.data());
    if (removed.contains(tuple(normalized.data()))) doomed.push_back(next);
    prev.swap(next);
  }
  for (const std::vector<uint8_t>& key : doomed) (void)map.erase(key.data());
}

}  // namespace dtrace::consume
