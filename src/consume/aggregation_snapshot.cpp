#include "consume/aggregation_snapshot.h"

#include <algorithm>
#include <cstring>
#include <utility>

namespace dtrace::consume {

namespace {

// The buckets of each owner in increasing order, counts of one bucket
// added (wrapping as the kernel's do) and zeros left out, then the sum of
// the values, each owner's value an ir::SparseDistribution in `words`
// from offsets[owner]. `counts` is used up.
template <class BucketCount>
void layOutDistributions(LargeVector<BucketCount>& counts, size_t owners,
                         LargeVector<int64_t>& words, LargeVector<size_t>& offsets) {
  // Owners are numbered as the map's entries are read, so a large table of
  // one entry per tuple (one bucket, one CPU) has its counts in order:
  // no sort then, and no memory for one. Otherwise a counting sort by owner.
  auto byOwner = [](const BucketCount& a, const BucketCount& b) { return a.owner < b.owner; };
  if (!std::is_sorted(counts.begin(), counts.end(), byOwner)) {
    LargeVector<uint32_t> next(owners + 1, 0);
    for (const BucketCount& c : counts) next[c.owner + 1]++;
    for (size_t o = 0; o < owners; o++) next[o + 1] += next[o];
    LargeVector<BucketCount> sorted(counts.size());
    for (const BucketCount& c : counts) sorted[next[c.owner]++] = c;
    counts.swap(sorted);
  }
  words.clear();
  words.reserve(2 * owners + 2 * counts.size());
  offsets.resize(owners);
  size_t k = 0;
  for (size_t o = 0; o < owners; o++) {
    const size_t first = k;
    while (k < counts.size() && counts[k].owner == o) k++;
    std::sort(counts.begin() + first, counts.begin() + k,
              [](const BucketCount& a, const BucketCount& b) { return a.bucket < b.bucket; });
    offsets[o] = words.size();
    words.push_back(0);
    int64_t used = 0;
    uint64_t valueSum = 0;
    for (size_t i = first; i < k;) {
      const uint32_t bucket = counts[i].bucket;
      uint64_t count = 0;
      for (; i < k && counts[i].bucket == bucket; ++i) {
        count += static_cast<uint64_t>(counts[i].count);
        valueSum += static_cast<uint64_t>(counts[i].sum);
      }
      if (count == 0) continue;
      words.push_back(bucket);
      words.push_back(static_cast<int64_t>(count));
      used++;
    }
    words.push_back(static_cast<int64_t>(valueSum));
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

void AggregationData::foldBucket(size_t i, int cpu, CpuSlot slot, uint32_t bucket, int64_t count,
                                 int64_t sum) {
  if (bucket >= words_) return;
  const bool current = slot == CpuSlot::Current;
  if (current) {
    pending_.push_back({static_cast<uint32_t>(i), bucket, count, sum});
    current_[i] = 1;
  }
  if (!perCpu_) return;
  // A CPU's buckets of older generations read as zeros.
  const size_t at = i * ncpus_ + cpu;
  CpuSlot& old = slots_[at];
  if (old == CpuSlot::Absent || (old == CpuSlot::Cleared && current)) old = slot;
  if (current) cpuPending_.push_back({static_cast<uint32_t>(at), bucket, count, sum});
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
