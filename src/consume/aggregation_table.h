// The rows printa() and the end of tracing print: the tuples of one
// aggregation, or of several joined on their keys (a tuple missing from
// one aggregation has zeros there), in DTrace's order as the aggsort*
// options ask (dt_aggregate_walk_sorted and dt_aggregate_walk_joined).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "consume/aggregation_snapshot.h"
#include "util/option_table.h"

namespace dtrace::consume {

struct SortOptions {
  bool byKey = false;          // aggsortkey: keys first, values break ties
  bool reverse = false;        // aggsortrev
  uint32_t keyPosition = 0;    // aggsortkeypos: the key compared first
  uint32_t valuePosition = 0;  // aggsortpos: the aggregation compared first (joined)
  static SortOptions from(const OptionTable& options);
};

// DTrace's key order, starting at key `position` and wrapping around:
// integers as unsigned numbers of their size, program counters by pid then
// address, other bytes bytewise. compare() returns <0, 0 or >0.
class KeyOrder {
 public:
  KeyOrder(const ir::Aggregation& agg, uint32_t position);
  int compare(const uint8_t* a, const uint8_t* b) const;
  // A number that orders keys as compare() does as far as it goes (the
  // first key compared, or its first 8 bytes): keys with different
  // prefixes need no compare().
  uint64_t prefix(const uint8_t* key) const;
  // Whether equal prefixes mean equal keys.
  bool prefixIsWhole() const {
    return steps_.size() <= 1 && (steps_.empty() || steps_[0].size <= 8);
  }

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

  size_t rows() const { return rows_.size(); }
  size_t columns() const { return columns_.size(); }
  const ir::Aggregation& aggregation(size_t column) const {
    return columns_[column]->aggregation();
  }
  // The snapshot a column's rows come from.
  const AggregationData& data(size_t column) const { return columns_[column]->data(); }
  // In sorted order after sort().
  const uint8_t* key(size_t row) const { return rows_[row].key; }
  const int64_t* value(size_t row, size_t column) const {
    const Row& r = rows_[row];
    if (columns_.size() > 1) return values_[r.index * columns_.size() + column];
    return r.value;
  }
  // For a table of one aggregation: the row's index in the snapshot it was
  // merged from (where its per-CPU data are).
  size_t snapshotIndex(size_t row) const { return rows_[row].index; }

  void sort(const SortOptions& options);

 private:
  // What one value is ordered by: scalars by their number, distributions
  // by their weighted sum and then the count at zero.
  struct SortValue {
    long double weight;
    int64_t atZero;
    // <0, 0 or >0 as this value orders before, with or after `other`.
    int compare(const SortValue& other) const;
  };
  struct Row {
    const uint8_t* key;
    const int64_t* value;  // a table of one aggregation: the row's value (else null)
    uint32_t index;        // the snapshot's tuple, or a joined table's index into values_
  };
  // Sorting yields the rows' indices in order; the rows then move once.
  void sortOneAggregation(const SortOptions& options, const KeyOrder& keys,
                          LargeVector<uint32_t>& indices) const;
  void sortJoined(const SortOptions& options, const KeyOrder& keys, LargeVector<uint32_t>& indices);
  template <size_t W, class RowWords>
  void sortByWords(const std::array<uint32_t, 4>& words, const RowWords& rowWords,
                   const KeyOrder& keys, LargeVector<uint32_t>& indices) const;
  void moveRowsInto(const LargeVector<uint32_t>& indices);

  std::vector<const MergedAggregation*> columns_;
  std::vector<std::vector<int64_t>> zeros_;  // per column: a value never set
  LargeVector<Row> rows_;
  LargeVector<const int64_t*> values_;  // joined tables: per row index, per column
  LargeVector<SortValue> sortValues_;   // per row index, per column, once needed
  void computeSortValues();
};

}  // namespace dtrace::consume
