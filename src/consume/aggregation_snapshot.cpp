#include "consume/aggregation_snapshot.h"

#include <algorithm>
#include <cstring>

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

void AggregationData::fold(size_t i, int cpu, CpuSlot slot, const int64_t* words) {
  const CpuSlot old = slots_[i * ncpus_ + cpu];
  if (old == CpuSlot::Absent || (old == CpuSlot::Cleared && slot == CpuSlot::Current)) {
    set(i, cpu, slot, words);
  } else if (old == CpuSlot::Current && slot == CpuSlot::Current) {
    int64_t* merged = data_.data() + (i * ncpus_ + cpu) * words_;
    ir::mergeAggregationData(*aggregation, words, merged, false);
  }
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

}  // namespace dtrace::consume
