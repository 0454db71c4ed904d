// The aggregating functions, in one table: what the compiler accepts for
// each, the data words the kernel keeps per (tuple, CPU), how the consumer
// merges CPUs, and how the merged value prints. A new aggregating function
// is a row here, one emitter case and one printer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ir/record.h"
#include "ir/runtime.h"

namespace dtrace::ir {

enum class AggFunc : uint8_t {
  Count,
  Sum,
  Avg,
  Min,
  Max,
  Stddev,
  Quantize,
  Lquantize,
  Llquantize,
};

// How one CPU's data words join the others'.
enum class AggMerge : uint8_t {
  Add,     // every word adds
  Min,     // the single word: the smaller
  Max,     // the single word: the larger
  Stddev,  // count and sum add; the last two words are a 128-bit sum of squares
};

// How a merged value is shown.
enum class AggDisplay : uint8_t {
  Scalar,             // the single word
  Average,            // sum / count
  StandardDeviation,  // from count, sum and the sum of squares
  Quantize,           // power-of-two distribution
  Lquantize,          // linear distribution
  Llquantize,         // log-linear distribution
};

struct AggFuncInfo {
  AggFunc func;
  const char* name;
  uint8_t minArgs;  // arguments as DTrace's prototype counts them
  uint8_t maxArgs;
  bool takesValue;    // the first argument is the value aggregated
  bool hasIncrement;  // the last optional argument is an increment (weight)
  AggMerge merge;
  AggDisplay display;
};

// The function `name` names, or null.
const AggFuncInfo* findAggFunc(std::string_view name);
const AggFuncInfo& aggFuncInfo(AggFunc func);

// The constant parameters of lquantize and llquantize, checked by the
// compiler (DTrace's D_LQUANT_* and D_LLQUANT_* rules).
struct AggParams {
  int64_t base = 0;     // lquantize: the lowest bucket's value
  int64_t step = 1;     // lquantize: the width of a bucket
  uint32_t levels = 0;  // lquantize: buckets between base and the limit
  uint32_t factor = 0;  // llquantize
  uint32_t lowMagnitude = 0;
  uint32_t highMagnitude = 0;
  uint32_t steps = 0;
  bool operator==(const AggParams&) const = default;
};

// quantize(): 63 negative powers of two, zero, 63 positive ones.
constexpr uint32_t kQuantizeBuckets = 127;
constexpr uint32_t kQuantizeZeroBucket = 63;
// The value of quantize() bucket i: -2^62 .. -1, 0, 1 .. 2^62.
int64_t quantizeBucketValue(uint32_t i);
// The bucket quantize() puts `value` in.
uint32_t quantizeBucket(int64_t value);
// The bucket lquantize() and llquantize() put `value` in.
uint32_t lquantizeBucket(const AggParams& p, int64_t value);
uint32_t llquantizeBucket(const AggParams& p, int64_t value);
// llquantize's middle bucket: |value| below factor^lowMagnitude.
uint32_t llquantizeZeroBucket(const AggParams& p);
// One magnitude m of llquantize, as illumos's
// dtrace_aggregate_llquantize_bucket cuts it: [factor^m, factor^(m+1)) in
// min(steps, factor^(m+1)) parts of `width` counted from 0, of which the
// `skipped` ones below factor^m are not kept.
struct LlquantizeMagnitude {
  uint64_t low = 0;     // factor^m
  uint64_t next = 0;    // factor^(m+1), when `bounded`
  bool bounded = true;  // factor^(m+1) fits in 64 bits (else all above low is here)
  uint64_t width = 1;
  uint32_t skipped = 0;
  uint32_t buckets = 0;  // the parts kept: buckets of their own
};
LlquantizeMagnitude llquantizeMagnitude(const AggParams& p, uint32_t m);
// The smallest |value| of llquantize bucket `bucket` (above the zero bucket,
// or its mirror below it); factor^(high+1), saturated, for the outermost.
uint64_t llquantizeBucketMagnitude(const AggParams& p, uint32_t bucket);
// The smallest value a bucket holds (the value a distribution's row shows),
// for lquantize (below the base: base - 1; at or above the limit: limit +
// 1, as DTrace weighs them) and llquantize.
int64_t lquantizeBucketValue(const AggParams& p, uint32_t bucket);
int64_t llquantizeBucketValue(const AggParams& p, uint32_t bucket);

// One aggregation (@name): its function, tuple layout and map.
struct Aggregation {
  uint32_t id = 0;
  std::string name;  // without '@'; empty for the anonymous aggregation '@'
  AggFunc func = AggFunc::Count;
  AggParams params;
  std::vector<Field> keys;  // offsets within the key
  uint32_t keySize = 8;
  // The tuple's bytes in DTrace's aggregation record, where a string key
  // takes strsize whatever the strings it was given (aggsize's unit).
  uint32_t recordKeySize = 8;
  DataKind valueKind = DataKind::Signed;  // of the aggregated expression
  uint32_t maxEntries = 0;  // (tuple, CPU) entries the map holds; more are aggregation drops
  // The word of the globals holding this aggregation's generation (clear()).
  uint32_t generationOffset = 0;

  const AggFuncInfo& info() const { return aggFuncInfo(func); }
  // Data words of a tuple's value (a distribution: one per bucket, as the
  // kernel's buckets number them; the consumer keeps it sparse).
  uint32_t dataWords() const;
  // Whether the kernel keeps one map entry per bucket used rather than
  // every bucket of the distribution (ir/runtime.h): a million keys of
  // quantize(), each with a value or two, then read in a fraction of the
  // time.
  bool bucketed() const;
  // Data words of one map entry, after the generation word: a
  // distribution's entry holds its bucket's count and the sum of the
  // values counted there (for a metric's _sum; DTrace keeps no sum).
  uint32_t entryWords() const { return bucketed() ? 2 : dataWords(); }
  // Bytes of a map value: the generation word and the data words.
  uint32_t valueSize() const { return 8 * (kAggregationGenerationWords + entryWords()); }
  // Bytes DTrace's aggregation buffer gives a tuple (aggsize's unit).
  uint32_t recordSize() const { return recordKeySize + 8 * dataWords(); }
  // Bytes of aggsize a new entry spends: the record's, except for a
  // distribution, whose entries hold one bucket's count each (as DTrace
  // counts it: the sum beside it is not charged).
  uint32_t entryCharge() const { return recordKeySize + 8 * (bucketed() ? 1 : dataWords()); }
};

// The value of bucket `bucket` of a quantize(), lquantize() or
// llquantize() aggregation, as its function numbers buckets.
int64_t distributionBucketValue(const Aggregation& agg, uint32_t bucket);

// A distribution's value as the consumer holds it once CPUs are merged:
// only the buckets with a non-zero count, in increasing order, then the
// sum of the values counted, as words {n, bucket_0, count_0, ...,
// bucket_n-1, count_n-1, sum}. A million keys of quantize() then take what
// their used buckets take, not 127 words each; all-zero words (n = 0) are
// the empty distribution.
class SparseDistribution {
 public:
  explicit SparseDistribution(const int64_t* words) : words_(words) {}
  // Words a value of `buckets` used buckets takes.
  static constexpr size_t wordsFor(size_t buckets) { return 2 + 2 * buckets; }

  uint32_t size() const { return static_cast<uint32_t>(words_[0]); }
  bool empty() const { return size() == 0; }
  uint32_t bucket(uint32_t i) const { return static_cast<uint32_t>(words_[1 + 2 * i]); }
  int64_t count(uint32_t i) const { return words_[2 + 2 * i]; }
  // The values counted, each times its increment, added (wrapping).
  int64_t sum() const { return words_[1 + 2 * size()]; }

 private:
  const int64_t* words_;
};

// Folds one CPU's data words into `merged` (dataWords() of each).
// `firstCpu` is true for the first CPU seen: min/max take its value as is.
void mergeAggregationData(const Aggregation& agg, const int64_t* cpu, int64_t* merged,
                          bool firstCpu);

// The number printed and sorted by for scalar displays: count, sum, min,
// max, avg (sum / count, truncated), stddev.
int64_t aggregationScalar(const Aggregation& agg, const int64_t* merged);

// stddev() of DTrace's words {count, sum, sumsq low, sumsq high}, with its
// 128-bit arithmetic: sqrt(avg(x^2) - avg(x)^2), truncated; the values
// divided by `normal` first (normalize()).
uint64_t standardDeviation(const int64_t* words, uint64_t normal = 1);

}  // namespace dtrace::ir
