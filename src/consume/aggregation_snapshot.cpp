#include "consume/aggregation_snapshot.h"

#include <cstring>

namespace dtrace::consume {

size_t AggregationData::add(const uint8_t* key) {
  keys_.insert(keys_.end(), key, key + keySize());
  merged_.resize(merged_.size() + words_, 0);
  current_.push_back(0);
  if (perCpu_) {
    slots_.resize(slots_.size() + ncpus_, CpuSlot::Absent);
    cpuData_.resize(cpuData_.size() + static_cast<size_t>(ncpus_) * words_, 0);
  }
  return size() - 1;
}

void AggregationData::fold(size_t i, int cpu, CpuSlot slot, const int64_t* words) {
  // Cleared entries add nothing: a tuple seen only before clear() stays
  // all zeros.
  if (slot == CpuSlot::Current) {
    ir::mergeAggregationData(*aggregation, words, merged_.data() + i * words_, !current_[i]);
    current_[i] = 1;
  }
  if (!perCpu_) return;
  CpuSlot& old = slots_[i * ncpus_ + cpu];
  int64_t* mine = cpuData_.data() + (i * ncpus_ + cpu) * words_;
  if (old == CpuSlot::Absent || (old == CpuSlot::Cleared && slot == CpuSlot::Current)) {
    old = slot;
    std::memcpy(mine, words, words_ * sizeof(int64_t));
  } else if (old == CpuSlot::Current && slot == CpuSlot::Current) {
    ir::mergeAggregationData(*aggregation, words, mine, false);
  }
}

void AggregationData::foldBucket(size_t i, int cpu, CpuSlot slot, uint32_t bucket,
                                 int64_t count) {
  if (bucket >= words_) return;
  const bool current = slot == CpuSlot::Current;
  if (current) {
    int64_t& word = merged_[i * words_ + bucket];
    word = static_cast<int64_t>(static_cast<uint64_t>(word) + static_cast<uint64_t>(count));
    current_[i] = 1;
  }
  if (!perCpu_) return;
  // A CPU's buckets of older generations read as zeros.
  CpuSlot& old = slots_[i * ncpus_ + cpu];
  if (old == CpuSlot::Absent || (old == CpuSlot::Cleared && current)) old = slot;
  if (current) cpuData_[(i * ncpus_ + cpu) * words_ + bucket] += count;
}

MergedAggregation::MergedAggregation(const AggregationData& data) : aggregation_(data.aggregation) {
  const size_t n = data.size();
  entries_.reserve(n);
  for (size_t i = 0; i < n; i++) entries_.push_back({data.key(i), data.merged(i)});
}

}  // namespace dtrace::consume
