#include "ir/aggregation.h"

#include <gtest/gtest.h>

#include <climits>

namespace dtrace::ir {
namespace {

TEST(AggregationTable, EveryFunctionHasItsRow) {
  for (const char* name :
       {"count", "sum", "avg", "min", "max", "stddev", "quantize", "lquantize", "llquantize"}) {
    const AggFuncInfo* info = findAggFunc(name);
    ASSERT_NE(info, nullptr) << name;
    EXPECT_STREQ(aggFuncInfo(info->func).name, name);
  }
  EXPECT_EQ(findAggFunc("printf"), nullptr);
}

TEST(Quantize, BucketsArePowersOfTwoEitherSideOfZero) {
  EXPECT_EQ(quantizeBucket(0), kQuantizeZeroBucket);
  EXPECT_EQ(quantizeBucketValue(quantizeBucket(1)), 1);
  EXPECT_EQ(quantizeBucketValue(quantizeBucket(3)), 2);
  EXPECT_EQ(quantizeBucketValue(quantizeBucket(1024)), 1024);
  EXPECT_EQ(quantizeBucketValue(quantizeBucket(1025)), 1024);
  EXPECT_EQ(quantizeBucketValue(quantizeBucket(-1)), -1);
  EXPECT_EQ(quantizeBucketValue(quantizeBucket(-3)), -2);
  EXPECT_EQ(quantizeBucketValue(quantizeBucket(-4)), -4);
  EXPECT_EQ(quantizeBucket(INT64_MAX), kQuantizeBuckets - 1);
  EXPECT_EQ(quantizeBucket(INT64_MIN), 0u);
  EXPECT_EQ(quantizeBucketValue(0), -(int64_t{1} << 62));
}

TEST(Lquantize, BelowBaseLevelsAndAboveLimit) {
  AggParams p;
  p.base = -10;
  p.step = 5;
  p.levels = 4;  // -10 .. 10
  EXPECT_EQ(lquantizeBucket(p, -11), 0u);
  EXPECT_EQ(lquantizeBucket(p, -10), 1u);
  EXPECT_EQ(lquantizeBucket(p, -6), 1u);
  EXPECT_EQ(lquantizeBucket(p, 9), 4u);
  EXPECT_EQ(lquantizeBucket(p, 10), 5u);
  EXPECT_EQ(lquantizeBucket(p, INT64_MAX), 5u);
  EXPECT_EQ(lquantizeBucket(p, INT64_MIN), 0u);
  EXPECT_EQ(lquantizeBucketValue(p, 2), -5);
}

// Every value lands in a bucket whose lowest value is at or below it, the
// buckets grow with the values, each bucket's lowest value lands in it,
// and negative values mirror the positive ones.
TEST(Llquantize, BucketsAndTheirValuesAgree) {
  for (AggParams p : {AggParams{.factor = 10, .lowMagnitude = 0, .highMagnitude = 2, .steps = 20},
                      AggParams{.factor = 10, .lowMagnitude = 1, .highMagnitude = 3, .steps = 10},
                      AggParams{.factor = 10, .lowMagnitude = 0, .highMagnitude = 3, .steps = 1000},
                      AggParams{.factor = 6, .lowMagnitude = 0, .highMagnitude = 3, .steps = 54},
                      AggParams{.factor = 10, .lowMagnitude = 0, .highMagnitude = 19, .steps = 10},
                      AggParams{.factor = 2, .lowMagnitude = 0, .highMagnitude = 63, .steps = 2},
                      AggParams{.factor = 2, .lowMagnitude = 0, .highMagnitude = 8, .steps = 2}}) {
    const uint32_t zero = llquantizeZeroBucket(p);
    uint32_t previous = 0;
    for (int64_t v = 1; v > 0 && v < INT64_MAX / 2; v += v / 7 + 1) {
      const uint32_t b = llquantizeBucket(p, v);
      ASSERT_LE(b, 2 * zero);
      EXPECT_GE(b, previous) << v;
      previous = b;
      EXPECT_EQ(llquantizeBucket(p, -v), 2 * zero - b) << v;
      if (b == zero) continue;  // below factor^low
      EXPECT_LE(llquantizeBucketValue(p, b), v) << v;
      EXPECT_EQ(llquantizeBucket(p, llquantizeBucketValue(p, b)), b) << v;
    }
  }
}

// illumos's layout (dtrace_aggregate_llquantize_bucket): a magnitude has
// min(steps, factor^(m+1)) parts, those below factor^m not kept.
TEST(Llquantize, MagnitudesCutAsIllumosCutsThem) {
  const AggParams p{.factor = 10, .lowMagnitude = 0, .highMagnitude = 3, .steps = 1000};
  EXPECT_EQ(llquantizeMagnitude(p, 0).buckets, 9u);    // 1 .. 9
  EXPECT_EQ(llquantizeMagnitude(p, 1).buckets, 90u);   // 10 .. 99
  EXPECT_EQ(llquantizeMagnitude(p, 2).buckets, 900u);  // 100 .. 999
  EXPECT_EQ(llquantizeMagnitude(p, 3).width, 10u);     // 1000, 1010 .. 9990
  EXPECT_EQ(llquantizeZeroBucket(p), 1u + 9 + 90 + 900 + 900);
  const uint32_t zero = llquantizeZeroBucket(p);
  EXPECT_EQ(llquantizeBucketValue(p, llquantizeBucket(p, 1234)), 1230);
  EXPECT_EQ(llquantizeBucket(p, 10000), 2 * zero);
  EXPECT_EQ(llquantizeBucketMagnitude(p, 2 * zero), 10000u);
  // 10^20 does not fit in 64 bits: nothing is above the 19th magnitude.
  const AggParams wide{.factor = 10, .lowMagnitude = 0, .highMagnitude = 19, .steps = 10};
  EXPECT_FALSE(llquantizeMagnitude(wide, 19).bounded);
  EXPECT_LT(llquantizeBucket(wide, INT64_MAX), 2 * llquantizeZeroBucket(wide));
  EXPECT_EQ(llquantizeBucketValue(wide, llquantizeBucket(wide, INT64_MAX)), 9000000000000000000);
}

TEST(Merge, StddevCarriesIntoTheHighWordOfTheSumOfSquares) {
  Aggregation agg;
  agg.func = AggFunc::Stddev;
  int64_t merged[4] = {1, 2, -1, 0};  // low word 2^64 - 1
  const int64_t cpu[4] = {1, 3, 1, 5};
  mergeAggregationData(agg, cpu, merged, false);
  EXPECT_EQ(merged[0], 2);
  EXPECT_EQ(merged[1], 5);
  EXPECT_EQ(merged[2], 0);
  EXPECT_EQ(merged[3], 6);
}

TEST(Merge, MinAndMaxFollowTheValueType) {
  Aggregation agg;
  agg.func = AggFunc::Max;
  int64_t merged[1] = {5};
  const int64_t negative[1] = {-1};
  mergeAggregationData(agg, negative, merged, false);
  EXPECT_EQ(merged[0], 5);
  agg.valueKind = DataKind::Unsigned;  // -1 is the largest unsigned value
  mergeAggregationData(agg, negative, merged, false);
  EXPECT_EQ(merged[0], -1);
}

TEST(StandardDeviation, IntegerStepsAndWideSquares) {
  // 3, 5, 10: the average of squares 44 (134 / 3), the square of the
  // average 36, sqrt(8) = 2.
  const int64_t small[4] = {3, 18, 134, 0};
  EXPECT_EQ(standardDeviation(small), 2u);
  // 4e12 and 6e12: squares beyond 64 bits; the deviation is 1e12.
  const unsigned __int128 squares = (unsigned __int128)4000000000000 * 4000000000000 +
                                    (unsigned __int128)6000000000000 * 6000000000000;
  const int64_t wide[4] = {2, 10000000000000, static_cast<int64_t>(static_cast<uint64_t>(squares)),
                           static_cast<int64_t>(static_cast<uint64_t>(squares >> 64))};
  EXPECT_EQ(standardDeviation(wide), 1000000000000u);
  // Normalized as illumos's dt_stddev() does: the squares divided by the
  // normal twice, the sum once, so an exact deviation is divided by it.
  EXPECT_EQ(standardDeviation(wide, 1000), 1000000000u);
  // Truncated at each step: 5 by 2 gives 25/2/2/1 = 6 and (5/2/1)^2 = 4.
  const int64_t one[4] = {1, 5, 25, 0};
  EXPECT_EQ(standardDeviation(one, 2), 1u);
}

}  // namespace
}  // namespace dtrace::ir
