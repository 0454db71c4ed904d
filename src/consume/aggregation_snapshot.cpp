#include "consume/aggregation_snapshot.h"

#include <algorithm>
#include <cstring>
#include <utility>

namespace dtrace::consume {

namespace {

// The buckets of each owner in increasing order, counts of one bucket
// added (wrapping as the kernel's do) and zeros left out, each owner's
// value an ir::SparseDistribution in `words` from offsets[owner].
template <class BucketCount>
void layOutDistributions(const LargeVector<BucketCount>& counts, size_t owners,
                         LargeVector<int64_t>& words, LargeVector<size_t>& offsets) {
  // A counting sort by owner: a million owners of a bucket or two each.
  LargeVector<uint32_t> start(owners + 1, 0);
  for (const BucketCount& c : counts) start[c.owner + 1]++;
  for (size_t o = 0; o < owners; o++) start[o + 1] += start[o];
  LargeVector<std::pair<uint32_t, uint64_t>> byOwner(counts.size());
  {
    LargeVector<uint32_t> next(start.begin(), start.end() - 1);
    for (const BucketCount& c : counts) {
      byOwner[next[c.owner]++] = {c.bucket, static_cast<uint64_t>(c.count)};
    }
  }
  words.clear();
  words.reserve(owners + 2 * counts.size());
  offsets.resize(owners);
  for (size_t o = 0; o < owners; o++) {
    const auto first = byOwner.begin() + start[o], last = byOwner.begin() + start[o + 1];
    std::sort(first, last, [](const auto& a, const auto& b) { return a.first < b.first; });
    offsets[o] = words.size();
    words.push_back(0);
    int64_t used = 0;
    for (auto it = first; it != last;) {
      const uint32_t bucket = it->first;
      uint64_t sum = 0;
      for (; it != last && it->first == bucket; ++it) sum += it->second;
      if (sum == 0) continue;
      words.push_back(bucket);
      words.push_back(static_cast<int64_t>(sum));
      used++;
    }
    words[offsets[o]] = used;
  }
}

}  // namespace

void AggregationData::reserve(size_t entries) {
  keys_.reserve(entries * keySize());
  current_.reserve(entries);
  if (sparse_) {
    pending_.reserve(entries);
  } else {
    merged_.reserve(entries * words_);
  }
  if (!perCpu_) return;
  slots_.reserve(entries * ncpus_);
  if (sparse_) {
    cpuPending_.reserve(entries);
  } else {
    cpuData_.reserve(entries * ncpus_ * words_);
  }
}

size_t AggregationData::add(const uint8_t* key) {
  keys_.insert(keys_.end(), key, key + keySize());
  if (!sparse_) merged_.resize(merged_.size() + words_, 0);
  current_.push_back(0);
  if (perCpu_) {
    slots_.resize(slots_.size() + ncpus_, CpuSlot::Absent);
    if (!sparse_) cpuData_.resize(cpuData_.size() + static_cast<size_t>(ncpus_) * words_, 0);
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
    pending_.push_back({static_cast<uint32_t>(i), bucket, count});
    current_[i] = 1;
  }
  if (!perCpu_) return;
  // A CPU's buckets of older generations read as zeros.
  const size_t at = i * ncpus_ + cpu;
  CpuSlot& old = slots_[at];
  if (old == CpuSlot::Absent || (old == CpuSlot::Cleared && current)) old = slot;
  if (current) cpuPending_.push_back({static_cast<uint32_t>(at), bucket, count});
}

void AggregationData::finish() {
  if (!sparse_) return;
  layOutDistributions(pending_, size(), merged_, offsets_);
  LargeVector<BucketCount>().swap(pending_);
  if (!perCpu_) return;
  layOutDistributions(cpuPending_, size() * ncpus_, cpuData_, cpuOffsets_);
  LargeVector<BucketCount>().swap(cpuPending_);
}

}  // namespace dtrace::consume
