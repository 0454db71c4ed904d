// Aggregation snapshots: every tuple of one aggregation with its per-CPU
// data words, merged the way DTrace merges CPUs (ir/aggregation.h). A
// snapshot is flat (one array of keys, one of words) so that a million
// keys read, sort and print in well under a second.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "ir/aggregation.h"

namespace dtrace::consume {

// What one CPU's entry of a tuple holds.
enum class CpuSlot : uint8_t {
  Absent,   // this CPU never fired for the tuple
  Current,  // data of the current generation
  Cleared,  // data from before a clear(): read as zeros
};

// Every tuple of one aggregation as read from the kernel, with one slot of
// dataWords() words per possible CPU.
class AggregationData {
 public:
  AggregationData() = default;
  AggregationData(const ir::Aggregation* aggregation, int ncpus)
      : aggregation(aggregation), ncpus_(ncpus), words_(aggregation->dataWords()) {}

  const ir::Aggregation* aggregation = nullptr;  // owned by the ir::Program

  size_t size() const { return slots_.size() / (ncpus_ ? ncpus_ : 1); }
  int ncpus() const { return ncpus_; }
  uint32_t words() const { return words_; }
  const uint8_t* key(size_t i) const { return keys_.data() + i * keySize(); }
  CpuSlot slot(size_t i, int cpu) const { return slots_[i * ncpus_ + cpu]; }
  const int64_t* data(size_t i, int cpu) const {
    return data_.data() + (i * ncpus_ + cpu) * words_;
  }

  // Appends a tuple (keySize bytes) with every CPU absent; returns its index.
  size_t add(const uint8_t* key);
  // Sets one CPU's entry of tuple i.
  void set(size_t i, int cpu, CpuSlot slot, const int64_t* words);
  // The same, folding the words into an entry that CPU already has (map
  // entries whose keys merged by what they name).
  void fold(size_t i, int cpu, CpuSlot slot, const int64_t* words);
  void reserve(size_t n);

 private:
  uint32_t keySize() const { return aggregation ? aggregation->keySize : 0; }
  int ncpus_ = 0;
  uint32_t words_ = 0;
  std::vector<uint8_t> keys_;
  std::vector<CpuSlot> slots_;
  std::vector<int64_t> data_;
};

// A tuple with its CPUs merged.
struct MergedEntry {
  const uint8_t* key = nullptr;  // into the AggregationData
  const int64_t* data = nullptr;  // dataWords() merged words, into a MergedAggregation
};

// Every tuple of an aggregation with its CPUs merged, in the order read.
class MergedAggregation {
 public:
  explicit MergedAggregation(const AggregationData& data);
  const ir::Aggregation& aggregation() const { return *aggregation_; }
  std::vector<MergedEntry>& entries() { return entries_; }
  const std::vector<MergedEntry>& entries() const { return entries_; }

 private:
  const ir::Aggregation* aggregation_;
  std::vector<int64_t> words_;
  std::vector<MergedEntry> entries_;
};

// One tuple's CPUs merged into `out` (dataWords() words): cleared and
// absent CPUs add nothing, so a tuple seen only before clear() is all zeros.
void mergeCpus(const AggregationData& data, size_t i, int64_t* out);

}  // namespace dtrace::consume
