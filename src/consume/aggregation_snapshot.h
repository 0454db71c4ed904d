// Aggregation snapshots: the per-CPU values of each tuple merged the way
// DTrace merges them, and the entries put in DTrace's default print order.
#pragma once

#include <cstdint>
#include <vector>

#include "ir/program.h"

namespace dtrace::consume {

// One tuple of an aggregation as read from the kernel.
struct AggregationEntry {
  std::vector<uint8_t> key;          // Aggregation::keySize bytes
  std::vector<ir::AggValue> perCpu;  // one slot per possible CPU
};

struct AggregationData {
  const ir::Aggregation* aggregation = nullptr;  // owned by the ir::Program
  std::vector<AggregationEntry> entries;
};

// A tuple with its CPUs merged.
struct MergedEntry {
  const uint8_t* key = nullptr;  // points into the AggregationEntry
  uint64_t count = 0;            // firings over all CPUs
  int64_t value = 0;             // count(): the count; sum/min/max; avg(): the total
  int64_t result = 0;            // what is printed and sorted by (see aggregationResult)
};

MergedEntry mergeEntry(const ir::Aggregation& agg, const AggregationEntry& entry);

// The value printed and sorted by: avg() is total / count (truncated).
int64_t aggregationResult(ir::AggFunc func, const MergedEntry& merged);

// DTrace's key order: field by field, integers as unsigned numbers of their
// size, strings and other bytes bytewise. Returns <0, 0 or >0.
int compareKeys(const ir::Aggregation& agg, const uint8_t* a, const uint8_t* b);

// The entries that saw data (count > 0), merged, in DTrace's default order:
// ascending value, ties broken by ascending key.
std::vector<MergedEntry> sortedSnapshot(const AggregationData& data);

}  // namespace dtrace::consume
