// The distributions quantize(), lquantize() and llquantize() print: a
// header, then one row per bucket from just before the first bucket with
// data to just after the last, with '@' bars scaled to the total (bars to
// both sides of a centre line when some counts are negative).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/aggregation.h"

namespace dtrace::print {

// One row a distribution shows: its label ("1024", "< 0", ">= 100"), the
// bucket's lowest value (INT64_MIN for the buckets below the lowest
// bound), and its count.
struct DistributionRow {
  std::string label;
  int64_t value;
  int64_t count;
};

// The rows DTrace shows of `buckets`, a distribution's merged value
// (ir::SparseDistribution).
std::vector<DistributionRow> distributionRows(const ir::Aggregation& agg, const int64_t* buckets);

// How long the bars are: shares of the counts' sum (DTrace's default), or
// with -x aggzoom shares of the largest count, whose bar fills 95 % of the
// width.
enum class BarScale { Sum, Largest };

// The distribution of `buckets`, each count divided by `normal` as
// normalize() asks. Starts with a newline.
void appendDistribution(std::string& out, const ir::Aggregation& agg, const int64_t* buckets,
                        uint64_t normal, BarScale scale = BarScale::Sum);

}  // namespace dtrace::print
