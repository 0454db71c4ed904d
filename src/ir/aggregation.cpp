#include "ir/aggregation.h"

#include <algorithm>
#include <bit>
#include <cstdint>

namespace dtrace::ir {
namespace {

// DTrace's prototypes: count(), sum(x) ... quantize(x[, incr]),
// lquantize(x, base, limit[, step[, incr]]),
// llquantize(x, factor, low, high, steps[, incr]).
constexpr AggFuncInfo kAggFuncs[] = {
    {AggFunc::Count, "count", 0, 0, false, false, AggMerge::Add, AggDisplay::Scalar},
    {AggFunc::Sum, "sum", 1, 1, true, false, AggMerge::Add, AggDisplay::Scalar},
    {AggFunc::Avg, "avg", 1, 1, true, false, AggMerge::Add, AggDisplay::Average},
    {AggFunc::Min, "min", 1, 1, true, false, AggMerge::Min, AggDisplay::Scalar},
    {AggFunc::Max, "max", 1, 1, true, false, AggMerge::Max, AggDisplay::Scalar},
    {AggFunc::Stddev, "stddev", 1, 1, true, false, AggMerge::Stddev, AggDisplay::StandardDeviation},
    {AggFunc::Quantize, "quantize", 1, 2, true, true, AggMerge::Add, AggDisplay::Quantize},
    {AggFunc::Lquantize, "lquantize", 3, 5, true, true, AggMerge::Add, AggDisplay::Lquantize},
    {AggFunc::Llquantize, "llquantize", 5, 6, true, true, AggMerge::Add, AggDisplay::Llquantize},
};

uint64_t power(uint64_t base, uint32_t exponent) {
  uint64_t r = 1;
  for (uint32_t i = 0; i < exponent; i++) r *= base;
  return r;
}

// llquantize's bucket for a value >= 0, on the positive side of the zero
// bucket (dtrace_aggregate_llquantize_bucket).
uint32_t llquantizePositive(const AggParams& p, uint64_t v) {
  const uint32_t zero = llquantizeZeroBucket(p);
  if (v < power(p.factor, p.lowMagnitude)) return zero;
  uint32_t first = zero + 1;  // the bucket holding factor^magnitude
  for (uint32_t mag = p.lowMagnitude; mag <= p.highMagnitude; mag++) {
    const LlquantizeMagnitude m = llquantizeMagnitude(p, mag);
    if (!m.bounded || v < m.next) return first + static_cast<uint32_t>(v / m.width - m.skipped);
    first += m.buckets;
  }
  return 2 * zero;  // >= factor^(high+1)
}

}  // namespace

const AggFuncInfo* findAggFunc(std::string_view name) {
  for (const AggFuncInfo& f : kAggFuncs) {
    if (name == f.name) return &f;
  }
  return nullptr;
}

const AggFuncInfo& aggFuncInfo(AggFunc func) { return kAggFuncs[static_cast<size_t>(func)]; }

int64_t quantizeBucketValue(uint32_t i) {
  if (i < kQuantizeZeroBucket) return -(int64_t{1} << (kQuantizeZeroBucket - 1 - i));
  if (i == kQuantizeZeroBucket) return 0;
  return int64_t{1} << (i - kQuantizeZeroBucket - 1);
}

uint32_t quantizeBucket(int64_t value) {
  if (value == 0) return kQuantizeZeroBucket;
  if (value > 0) {
    const uint32_t log2 =
        63 - static_cast<uint32_t>(std::countl_zero(static_cast<uint64_t>(value)));
    return std::min<uint32_t>(kQuantizeZeroBucket + 1 + log2, kQuantizeBuckets - 1);
  }
  if (value <= -(int64_t{1} << 62)) return 0;
  const uint32_t log2 = 63 - static_cast<uint32_t>(std::countl_zero(static_cast<uint64_t>(-value)));
  return kQuantizeZeroBucket - 1 - log2;
}

uint32_t lquantizeBucket(const AggParams& p, int64_t value) {
  if (value < p.base) return 0;
  // value >= base: the distance fits in 64 unsigned bits where the signed
  // difference may not (INT64_MAX - -100).
  const uint64_t distance = static_cast<uint64_t>(value) - static_cast<uint64_t>(p.base);
  const uint64_t level = distance / static_cast<uint64_t>(p.step);
  return level < p.levels ? static_cast<uint32_t>(level) + 1 : p.levels + 1;
}

LlquantizeMagnitude llquantizeMagnitude(const AggParams& p, uint32_t mag) {
  LlquantizeMagnitude m;
  m.low = power(p.factor, mag);  // the compiler saw factor^high fit
  m.bounded = m.low <= UINT64_MAX / p.factor;
  if (m.bounded) m.next = m.low * p.factor;
  uint64_t parts;
  if (m.bounded && m.next <= p.steps) {
    parts = m.next;  // each integer its own bucket
  } else {
    // steps divides a power of the factor not below it, so the parts are
    // whole: factor^(m+1) / steps, written so as not to overflow.
    parts = p.steps;
    m.width = m.low / (p.steps / p.factor);
  }
  m.skipped = static_cast<uint32_t>(parts / p.factor);
  m.buckets = static_cast<uint32_t>(parts - m.skipped);
  return m;
}

uint32_t llquantizeZeroBucket(const AggParams& p) {
  uint32_t buckets = 0;
  for (uint32_t mag = p.lowMagnitude; mag <= p.highMagnitude; mag++) {
    buckets += llquantizeMagnitude(p, mag).buckets;
  }
  return 1 + buckets;
}

uint32_t llquantizeBucket(const AggParams& p, int64_t value) {
  if (value >= 0) return llquantizePositive(p, static_cast<uint64_t>(value));
  // Negative values mirror the positive buckets around the zero bucket.
  const uint64_t magnitude = value == INT64_MIN ? uint64_t{1} << 63 : static_cast<uint64_t>(-value);
  return 2 * llquantizeZeroBucket(p) - llquantizePositive(p, magnitude);
}

int64_t lquantizeBucketValue(const AggParams& p, uint32_t bucket) {
  if (bucket == 0) return p.base - 1;
  if (bucket > p.levels) return p.base + static_cast<int64_t>(p.levels) * p.step + 1;
  return p.base + static_cast<int64_t>(bucket - 1) * p.step;
}

uint64_t llquantizeBucketMagnitude(const AggParams& p, uint32_t bucket) {
  const uint32_t zero = llquantizeZeroBucket(p);
  if (bucket == zero) return 0;
  uint32_t index = bucket > zero ? bucket - zero - 1 : zero - bucket - 1;
  for (uint32_t mag = p.lowMagnitude; mag <= p.highMagnitude; mag++) {
    const LlquantizeMagnitude m = llquantizeMagnitude(p, mag);
    if (index < m.buckets) return (index + m.skipped) * m.width;
    index -= m.buckets;
  }
  const LlquantizeMagnitude top = llquantizeMagnitude(p, p.highMagnitude);
  return top.bounded ? top.next : UINT64_MAX;
}

int64_t llquantizeBucketValue(const AggParams& p, uint32_t bucket) {
  const uint32_t zero = llquantizeZeroBucket(p);
  const uint64_t magnitude =
      std::min<uint64_t>(llquantizeBucketMagnitude(p, bucket), static_cast<uint64_t>(INT64_MAX));
  return bucket < zero ? -static_cast<int64_t>(magnitude) : static_cast<int64_t>(magnitude);
}

uint32_t Aggregation::dataWords() const {
  switch (func) {
    case AggFunc::Count:
    case AggFunc::Sum:
    case AggFunc::Min:
    case AggFunc::Max:
      return 1;
    case AggFunc::Avg:
      return 2;  // count, sum
    case AggFunc::Stddev:
      return 4;  // count, sum, sum of squares (128 bits)
    case AggFunc::Quantize:
      return kQuantizeBuckets;
    case AggFunc::Lquantize:
      return params.levels + 2;  // below the base, the levels, at or above the limit
    case AggFunc::Llquantize:
      return 2 * llquantizeZeroBucket(params) + 1;
  }
  return 1;
}

bool Aggregation::bucketed() const {
  const AggDisplay d = info().display;
  return d == AggDisplay::Quantize || d == AggDisplay::Lquantize || d == AggDisplay::Llquantize;
}

void mergeAggregationData(const Aggregation& agg, const int64_t* cpu, int64_t* merged,
                          bool firstCpu) {
  const uint32_t n = agg.dataWords();
  const bool isUnsigned = agg.valueKind == DataKind::Unsigned;
  switch (agg.info().merge) {
    case AggMerge::Add:
      for (uint32_t i = 0; i < n; i++) {
        merged[i] =
            static_cast<int64_t>(static_cast<uint64_t>(merged[i]) + static_cast<uint64_t>(cpu[i]));
      }
      break;
    case AggMerge::Min:
    case AggMerge::Max: {
      const bool less = isUnsigned
                            ? static_cast<uint64_t>(cpu[0]) < static_cast<uint64_t>(merged[0])
                            : cpu[0] < merged[0];
      const bool greater = isUnsigned
                               ? static_cast<uint64_t>(cpu[0]) > static_cast<uint64_t>(merged[0])
                               : cpu[0] > merged[0];
      if (firstCpu || (agg.info().merge == AggMerge::Min ? less : greater)) merged[0] = cpu[0];
      break;
    }
    case AggMerge::Stddev: {
      merged[0] += cpu[0];
      merged[1] =
          static_cast<int64_t>(static_cast<uint64_t>(merged[1]) + static_cast<uint64_t>(cpu[1]));
      const uint64_t low = static_cast<uint64_t>(merged[2]) + static_cast<uint64_t>(cpu[2]);
      const uint64_t carry = low < static_cast<uint64_t>(cpu[2]) ? 1 : 0;
      merged[2] = static_cast<int64_t>(low);
      merged[3] = static_cast<int64_t>(static_cast<uint64_t>(merged[3]) +
                                       static_cast<uint64_t>(cpu[3]) + carry);
      break;
    }
  }
}

int64_t aggregationScalar(const Aggregation& agg, const int64_t* merged) {
  switch (agg.info().display) {
    case AggDisplay::Average:
      return merged[0] ? merged[1] / merged[0] : 0;
    case AggDisplay::StandardDeviation:
      return merged[0] ? static_cast<int64_t>(standardDeviation(merged)) : 0;
    default:
      return merged[0];
  }
}

uint64_t standardDeviation(const int64_t* words, uint64_t normal) {
  using u128 = unsigned __int128;
  const int64_t count = words[0];
  if (count <= 0) return 0;
  const u128 sumOfSquares =
      (u128{static_cast<uint64_t>(words[3])} << 64) | static_cast<uint64_t>(words[2]);
  // DTrace truncates each step: the average of the squares, the average.
  // Normalized, the squares are divided by normal twice (dt_stddev).
  if (normal == 0) normal = 1;
  const u128 averageOfSquares = sumOfSquares / normal / normal / static_cast<uint64_t>(count);
  int64_t average = words[1] / static_cast<int64_t>(normal) / count;
  if (average < 0) average = -average;
  const u128 squareOfAverage =
      u128{static_cast<uint64_t>(average)} * static_cast<uint64_t>(average);
  const u128 variance = averageOfSquares - squareOfAverage;  // wraps as DTrace's does
  // Integer square root, rounding down.
  u128 root = 0;
  for (int bit = 63; bit >= 0; bit--) {
    const u128 candidate = root | (u128{1} << bit);
    if (candidate * candidate <= variance) root = candidate;
  }
  return static_cast<uint64_t>(root);
}

int64_t distributionBucketValue(const Aggregation& agg, uint32_t bucket) {
  switch (agg.func) {
    case AggFunc::Quantize:
      return quantizeBucketValue(bucket);
    case AggFunc::Lquantize:
      return lquantizeBucketValue(agg.params, bucket);
    default:
      return llquantizeBucketValue(agg.params, bucket);
  }
}

}  // namespace dtrace::ir
