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
  // In sorted order after sort().
  const uint8_t* key(size_t row) const { return keyOf(rows_[row]); }
  const int64_t* value(size_t row, size_t column) const {
    const Row& r = rows_[row];
    if (columns_.size() > 1) return values_[r.index * columns_.size() + column];
    return inlineValues_ ? r.inlineValue : r.value;
  }
  // For a table of one aggregation: the row's index in the snapshot it was
  // merged from (where its per-CPU data are).
  size_t snapshotIndex(size_t row) const { return rows_[row].index; }

  void sort(const SortOptions& options);

 private:
  // A value of at most this many words travels with its row, so that the
  // rows of a large table sort and print without chasing pointers.
  static constexpr uint32_t kInlineWords = 4;
  // So does a key of at most this many bytes.
  static constexpr uint32_t kInlineKeyBytes = 16;

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
    uint64_t keyPrefix;    // KeyOrder::prefix(), of the current order
    uint32_t index;        // the snapshot's tuple, or a joined table's index into values_
    // A table of one aggregation: what a row sorts by, as unsigned words
    // compared in turn, so that a million rows sort with integer compares.
    // A number is one word; a distribution's weight is two (sortWord and
    // the first of moreSortWords), then its count at zero.
    uint64_t sortWord;
    union {
      int64_t inlineValue[kInlineWords];
      std::array<uint64_t, 2> moreSortWords;  // distributions, never inline
    };
    alignas(8) uint8_t inlineKey[kInlineKeyBytes];
  };
  const uint8_t* keyOf(const Row& row) const { return inlineKeys_ ? row.inlineKey : row.key; }
  template <class CompareValues>
  void sortRows(const SortOptions& options, const KeyOrder& keys, CompareValues compareValues);

  std::vector<const MergedAggregation*> columns_;
  std::vector<std::vector<int64_t>> zeros_;  // per column: a value never set
  LargeVector<Row> rows_;
  bool inlineValues_ = false;
  bool inlineKeys_ = false;
  LargeVector<const int64_t*> values_;  // joined tables: per row index, per column
  LargeVector<SortValue> sortValues_;   // per row index, per column, once needed
  void computeSortValues();
};

}  // namespace dtrace::consume
