// The rows printa() and the end of tracing print: the tuples of one
// aggregation, or of several joined on their keys (a tuple missing from
// one aggregation has zeros there), in DTrace's order as the aggsort*
// options ask (dt_aggregate_walk_sorted and dt_aggregate_walk_joined).
#pragma once

#include <cstdint>
#include <vector>

#include "consume/aggregation_snapshot.h"
#include "util/option_table.h"

namespace dtrace::consume {

struct SortOptions {
  bool byKey = false;           // aggsortkey: keys first, values break ties
  bool reverse = false;         // aggsortrev
  uint32_t keyPosition = 0;     // aggsortkeypos: the key compared first
  uint32_t valuePosition = 0;   // aggsortpos: the aggregation compared first (joined)
  static SortOptions from(const OptionTable& options);
};

// DTrace's key order, starting at key `position` and wrapping around:
// integers as unsigned numbers of their size, program counters by pid then
// address, other bytes bytewise. compare() returns <0, 0 or >0.
class KeyOrder {
 public:
  KeyOrder(const ir::Aggregation& agg, uint32_t position);
  int compare(const uint8_t* a, const uint8_t* b) const;

 private:
  enum class Compare : uint8_t { Unsigned, Words, Bytes };
  struct Step {
    uint32_t offset, size;
    Compare compare;
  };
  std::vector<Step> steps_;
};


class AggregationTable {
 public:
  // `columns` share the first one's key layout (the compiler checked it).
  explicit AggregationTable(std::vector<const MergedAggregation*> columns);

  size_t rows() const { return order_.size(); }
  size_t columns() const { return columns_.size(); }
  const ir::Aggregation& aggregation(size_t column) const {
    return columns_[column]->aggregation();
  }
  // In sorted order after sort().
  const uint8_t* key(size_t row) const { return keys_[order_[row]]; }
  const int64_t* value(size_t row, size_t column) const {
    return values_[order_[row] * columns_.size() + column];
  }
  // For a table of one aggregation: the row's index in the snapshot it was
  // merged from (where its per-CPU data are).
  size_t snapshotIndex(size_t row) const { return order_[row]; }

  void sort(const SortOptions& options);

 private:
  // What one value is ordered by: scalars by their number, distributions
  // by their weighted sum and then the count at zero.
  struct SortValue {
    long double weight;
    int64_t atZero;
  };

  std::vector<const MergedAggregation*> columns_;
  std::vector<std::vector<int64_t>> zeros_;  // per column: a value never set
  std::vector<const uint8_t*> keys_;        // per row
  std::vector<const int64_t*> values_;      // per row, per column
  std::vector<SortValue> sortValues_;       // per row, per column
  std::vector<uint32_t> order_;
};

}  // namespace dtrace::consume
