// Aggregation snapshots: every tuple of one aggregation with its per-CPU
// data words, merged the way DTrace merges CPUs (ir/aggregation.h). A
// snapshot is flat (one array of keys, one of words) so that a million
// keys read, sort and print in well under a second.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "ir/aggregation.h"
#include "util/large_vector.h"

namespace dtrace::consume {

// What one CPU's entry of a tuple holds.
enum class CpuSlot : uint8_t {
  Absent,   // this CPU never fired for the tuple
  Current,  // data of the current generation
  Cleared,  // data from before a clear(): read as zeros
};

// Every tuple of one aggregation as read from the kernel, its CPUs merged
// as they are read (one slot of dataWords() words per tuple; a
// distribution's value is an ir::SparseDistribution, laid out by finish()).
// With `perCpu` (aggpercpu) each CPU's own words are kept as well, one slot
// per possible CPU; otherwise memory grows with the tuples only, which
// matters for a million keys.
class AggregationData {
 public:
  AggregationData() = default;
  AggregationData(const ir::Aggregation* aggregation, int ncpus, bool perCpu = false)
      : aggregation(aggregation),
        ncpus_(ncpus),
        words_(aggregation->dataWords()),
        sparse_(aggregation->bucketed()),
        perCpu_(perCpu) {}

  const ir::Aggregation* aggregation = nullptr;  // owned by the ir::Program

  size_t size() const { return current_.size(); }
  int ncpus() const { return ncpus_; }
  const uint8_t* key(size_t i) const { return keys_.data() + i * keySize(); }
  // The tuple's current data of every CPU merged; zeros (an empty
  // distribution) if it has none (it was seen only before a clear()).
  const int64_t* merged(size_t i) const {
    return merged_.data() + (sparse_ ? offsets_[i] : i * words_);
  }

  // Each CPU's own entry, kept only with perCpu.
  bool perCpu() const { return perCpu_; }
  CpuSlot slot(size_t i, int cpu) const { return slots_[i * ncpus_ + cpu]; }
  const int64_t* data(size_t i, int cpu) const {
    const size_t at = i * ncpus_ + cpu;
    return cpuData_.data() + (sparse_ ? cpuOffsets_[at] : at * words_);
  }

  // Room for up to `entries` map entries, reserved but not touched: the
  // arrays then never move as they grow, and only the memory used is
  // faulted in (fresh memory is the largest cost of a large snapshot).
  void reserve(size_t entries);
  // Appends a tuple (keySize bytes) with every CPU absent; returns its index.
  size_t add(const uint8_t* key);
  // Adds one map entry of tuple i: the words of `cpu`, current or from
  // before a clear(). Several entries of one CPU (keys that merged by what
  // they name) fold together.
  void fold(size_t i, int cpu, CpuSlot slot, const int64_t* words);
  // Adds one map entry of a distribution's tuple i: the count of one bucket
  // of `cpu`.
  void foldBucket(size_t i, int cpu, CpuSlot slot, uint32_t bucket, int64_t count, int64_t sum);
  // Lays out the distributions folded so far: call once every entry is in,
  // before merged() or data().
  void finish();

 private:
  // One bucket's count as read, for the tuple (or tuple and CPU) it is of.
  struct BucketCount {
    uint32_t owner;
    uint32_t bucket;
    int64_t count;
    int64_t sum;  // of the values counted
  };
  uint32_t keySize() const { return aggregation ? aggregation->keySize : 0; }
  int ncpus_ = 0;
  uint32_t words_ = 0;
  bool sparse_ = false;
  bool perCpu_ = false;
  LargeVector<uint8_t> keys_;
  LargeVector<int64_t> merged_;
  LargeVector<uint8_t> current_;  // per tuple: merged_ holds current data
  LargeVector<CpuSlot> slots_;    // per tuple and CPU, with perCpu only
  LargeVector<int64_t> cpuData_;  // likewise
  // Distributions: where each value starts, and the counts until finish().
  LargeVector<size_t> offsets_, cpuOffsets_;
  LargeVector<BucketCount> pending_, cpuPending_;
};

// A tuple with its CPUs merged.
struct MergedEntry {
  const uint8_t* key = nullptr;   // into the AggregationData
  const int64_t* data = nullptr;  // dataWords() merged words, likewise
};

// Every tuple of an aggregation with its CPUs merged, in the order read: a
// view of the snapshot, which must outlive it.
class MergedAggregation {
 public:
  explicit MergedAggregation(const AggregationData& data) : data_(&data) {}
  const ir::Aggregation& aggregation() const { return *data_->aggregation; }
  size_t size() const { return data_->size(); }
  MergedEntry entry(size_t i) const { return {data_->key(i), data_->merged(i)}; }
  const AggregationData& data() const { return *data_; }

 private:
  const AggregationData* data_;
};

}  // namespace dtrace::consume
