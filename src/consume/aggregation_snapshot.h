// Aggregation snapshots: the per-CPU values of each tuple merged the way
// DTrace merges them, and the entries put in DTrace's default print order.
// A snapshot is flat (one array of keys, one of per-CPU values) so that a
// million keys read, sort and print in well under a second.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "ir/program.h"

namespace dtrace::consume {

// Every tuple of one aggregation as read from the kernel, with one value
// slot per possible CPU (zero where that CPU never fired for the tuple).
class AggregationData {
 public:
  AggregationData() = default;
  AggregationData(const ir::Aggregation* aggregation, int ncpus)
      : aggregation(aggregation), ncpus_(ncpus) {}

  const ir::Aggregation* aggregation = nullptr;  // owned by the ir::Program

  size_t size() const { return ncpus_ ? values_.size() / ncpus_ : 0; }
  int ncpus() const { return ncpus_; }
  const uint8_t* key(size_t i) const { return keys_.data() + i * keySize(); }
  std::span<const ir::AggValue> perCpu(size_t i) const {
    return {values_.data() + i * ncpus_, static_cast<size_t>(ncpus_)};
  }

  // Appends a tuple (keySize bytes) with every CPU slot zero; returns its index.
  size_t add(const uint8_t* key);
  ir::AggValue& slot(size_t i, int cpu) { return values_[i * ncpus_ + cpu]; }
  void reserve(size_t n);

 private:
  uint32_t keySize() const { return aggregation ? aggregation->keySize : 0; }
  int ncpus_ = 0;
  std::vector<uint8_t> keys_;
  std::vector<ir::AggValue> values_;
};

// A tuple with its CPUs merged.
struct MergedEntry {
  const uint8_t* key = nullptr;  // points into the AggregationData
  uint64_t count = 0;            // firings over all CPUs
  int64_t value = 0;             // count(): the count; sum/min/max; avg(): the total
  int64_t result = 0;            // what is printed and sorted by (see aggregationResult)
};

MergedEntry mergeEntry(const AggregationData& data, size_t i);

// The value printed and sorted by: avg() is total / count (truncated).
int64_t aggregationResult(ir::AggFunc func, const MergedEntry& merged);

// DTrace's key order: field by field, integers as unsigned numbers of their
// size, strings and other bytes bytewise. Returns <0, 0 or >0.
int compareKeys(const ir::Aggregation& agg, const uint8_t* a, const uint8_t* b);

// The entries that saw data (count > 0), merged, in DTrace's default order:
// ascending value, ties broken by ascending key.
std::vector<MergedEntry> sortedSnapshot(const AggregationData& data);

}  // namespace dtrace::consume
