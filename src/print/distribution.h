// The distributions quantize(), lquantize() and llquantize() print: a
// header, then one row per bucket from just before the first bucket with
// data to just after the last, with '@' bars scaled to the total (bars to
// both sides of a centre line when some counts are negative).
#pragma once

#include <cstdint>
#include <memory>
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

// How bars are drawn: their scale, and (-x encoding=utf8) with UTF-8 block
// characters, eighths of a column, rather than '@'.
struct BarStyle {
  BarScale scale = BarScale::Sum;
  bool utf8 = false;
};

// A distribution's header line, after a blank line: "value" in 16
// columns, or "key" in `keyWidth` (-x agghist, whose keys are that wide).
void appendDistributionHeader(std::string& out, size_t keyWidth);

// -x agghist: the values of a count() or sum() as the bars of one
// histogram, each a share of all of them (as a distribution's bars are of
// its buckets).
class Histogram {
 public:
  explicit Histogram(BarStyle style);
  ~Histogram();
  // Every value first.
  void add(int64_t value);
  // " |@@@@    count" and a newline; the count divided by `normal`.
  void appendBar(std::string& out, int64_t value, uint64_t normal) const;

 private:
  struct Total;
  std::unique_ptr<Total> total_;
  bool positives_ = false, negatives_ = false;
};

// -x aggpack: each key's quantize() or lquantize() on one line, a
// character per bucket over the buckets every key of the aggregation
// shares (lquantize(): all of them), under one header.
class PackedDistributions {
 public:
  // style.utf8: block characters (U+2581 to U+2588) rather than "_xX".
  PackedDistributions(const ir::Aggregation& agg, BarStyle style);
  // Every key's value first: the buckets shown span them all.
  void add(const int64_t* buckets);
  void appendHeader(std::string& out, size_t keyWidth) const;
  // " min :chars: max | count" and a newline.
  void appendLine(std::string& out, const int64_t* buckets) const;

 private:
  struct Span {
    uint32_t first, last;
  };
  Span shown() const;
  void appendChar(std::string& out, int64_t count, long double total) const;

  const ir::Aggregation& agg_;
  bool zoom_, utf8_;
  uint32_t firstUsed_ = UINT32_MAX, lastUsed_ = 0;
};

// The distribution of `buckets`, each count divided by `normal` as
// normalize() asks. Starts with a newline.
void appendDistribution(std::string& out, const ir::Aggregation& agg, const int64_t* buckets,
                        uint64_t normal, BarStyle style = {});

}  // namespace dtrace::print
