#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "../print/record_builder.h"
#include "consume/aggregation_snapshot.h"
#include "consume/aggregation_table.h"
#include "consume/consumer.h"
#include "output/text_sink.h"

namespace dtrace::consume {
namespace {

using testing::RecordBuilder;

std::string pad(size_t n) { return std::string(n, ' '); }

// Aggregations as a test lays them out, in place of the kernel's maps.
class FakeAggregations : public AggregationSource {
 public:
  explicit FakeAggregations(const std::vector<AggregationData>& data) : data_(data) {}
  Result<AggregationData> snapshot(const ir::Aggregation& agg, bool) override {
    for (const AggregationData& d : data_) {
      if (d.aggregation->id == agg.id) return d;
    }
    return AggregationData(&agg, 1);
  }
  void clear(const ir::Aggregation&) override {}
  void remove(const ir::Aggregation&, const std::vector<const uint8_t*>&) override {}

 private:
  std::vector<AggregationData> data_;
};

// What the end of tracing prints of these aggregations; without `final`,
// the leading empty line is left out.
std::string printed(const std::vector<AggregationData>& aggs, bool final = false) {
  char* buf = nullptr;
  size_t len = 0;
  FILE* f = open_memstream(&buf, &len);
  ir::Program program;
  for (const AggregationData& d : aggs) {
    program.aggregations.resize(
        std::max<size_t>(program.aggregations.size(), d.aggregation->id + 1));
    program.aggregations[d.aggregation->id] = *d.aggregation;
  }
  FakeAggregations source(aggs);
  Consumer c(program, std::make_unique<output::TextSink>(f, true, false));
  c.setAggregationSource(&source);
  auto r = c.printFinal();
  EXPECT_TRUE(r.ok());
  std::fclose(f);
  std::string s(buf, len);
  std::free(buf);
  return final ? s : s.substr(1);
}

ir::Aggregation makeAgg(uint32_t id, ir::AggFunc func, const RecordBuilder& keyLayout) {
  ir::Aggregation agg;
  agg.id = id;
  agg.func = func;
  agg.keys = keyLayout.fields();
  agg.keySize = static_cast<uint32_t>(keyLayout.padded().size());
  if (agg.keys.empty()) agg.keySize = 8;
  return agg;
}

// One tuple with its per-CPU data words, as a test writes it; an empty
// list is a CPU that never fired for the tuple.
using Words = std::vector<int64_t>;
struct AggregationEntry {
  std::vector<uint8_t> key;
  std::vector<Words> perCpu;
  std::vector<bool> cleared = {};  // per CPU: data from before a clear()
};

// A snapshot of `entries`, with as many CPUs as the longest slot list.
AggregationData build(const ir::Aggregation* agg, const std::vector<AggregationEntry>& entries) {
  size_t ncpus = 1;
  for (const auto& e : entries) ncpus = std::max(ncpus, e.perCpu.size());
  AggregationData data(agg, static_cast<int>(ncpus), true);
  for (const auto& e : entries) {
    size_t i = data.add(e.key.data());
    for (size_t cpu = 0; cpu < e.perCpu.size(); cpu++) {
      if (e.perCpu[cpu].empty()) continue;
      Words w = e.perCpu[cpu];
      w.resize(agg->dataWords(), 0);
      const bool cleared = cpu < e.cleared.size() && e.cleared[cpu];
      data.fold(i, static_cast<int>(cpu), cleared ? CpuSlot::Cleared : CpuSlot::Current, w.data());
    }
  }
  return data;
}

AggregationEntry entry(const RecordBuilder& key, std::vector<Words> perCpu) {
  AggregationEntry e;
  e.key = key.padded();
  if (e.key.empty()) e.key.assign(8, 0);
  e.perCpu = std::move(perCpu);
  return e;
}

// The tuple's CPUs merged.
Words merge(const ir::Aggregation& agg, const AggregationEntry& e) {
  const AggregationData data = build(&agg, {e});
  return Words(data.merged(0), data.merged(0) + agg.dataWords());
}

RecordBuilder stringKey(const std::string& s) {
  RecordBuilder b;
  b.addString(s, 16);
  return b;
}

TEST(AggregationMerge, CountSumsEveryCpu) {
  ir::Aggregation agg = makeAgg(0, ir::AggFunc::Count, RecordBuilder());
  EXPECT_EQ(merge(agg, entry(RecordBuilder(), {{2}, {}, {3}})), Words{5});
}

TEST(AggregationMerge, MinAndMaxIgnoreIdleCpus) {
  ir::Aggregation min = makeAgg(0, ir::AggFunc::Min, RecordBuilder());
  EXPECT_EQ(merge(min, entry(RecordBuilder(), {{}, {5}, {9}})), Words{5});
  ir::Aggregation max = makeAgg(0, ir::AggFunc::Max, RecordBuilder());
  EXPECT_EQ(merge(max, entry(RecordBuilder(), {{-3}, {}, {-7}})), Words{-3});
}

TEST(AggregationMerge, ClearedCpusCountAsZero) {
  ir::Aggregation sum = makeAgg(0, ir::AggFunc::Sum, RecordBuilder());
  AggregationEntry e = entry(RecordBuilder(), {{100}, {7}});
  e.cleared = {true, false};
  EXPECT_EQ(merge(sum, e), Words{7});
  ir::Aggregation max = makeAgg(0, ir::AggFunc::Max, RecordBuilder());
  AggregationEntry m = entry(RecordBuilder(), {{100}, {-7}});
  m.cleared = {true, false};
  EXPECT_EQ(merge(max, m), Words{-7});
  m.cleared = {true, true};
  EXPECT_EQ(merge(max, m), Words{0});
}

TEST(AggregationMerge, AverageIsTotalOverCountTruncated) {
  ir::Aggregation avg = makeAgg(0, ir::AggFunc::Avg, RecordBuilder());
  EXPECT_EQ(ir::aggregationScalar(avg, merge(avg, entry(RecordBuilder(), {{3, 7}, {1, 3}})).data()),
            2);
  EXPECT_EQ(ir::aggregationScalar(avg, merge(avg, entry(RecordBuilder(), {{2, -7}})).data()), -3);
  const Words none = {0, 0};
  EXPECT_EQ(ir::aggregationScalar(avg, none.data()), 0);
}

TEST(AggregationMerge, StddevCarriesTheSumOfSquaresAcrossCpus) {
  ir::Aggregation sd = makeAgg(0, ir::AggFunc::Stddev, RecordBuilder());
  const int64_t allOnes = -1;  // low word 2^64 - 1
  EXPECT_EQ(merge(sd, entry(RecordBuilder(), {{1, 2, allOnes, 0}, {1, 3, 1, 5}})),
            (Words{2, 5, 0, 6}));
}

// A distribution's value as {bucket, count} pairs.
using Buckets = std::vector<std::pair<uint32_t, int64_t>>;
Buckets bucketsOf(const int64_t* value) {
  const ir::SparseDistribution d(value);
  Buckets b;
  for (uint32_t i = 0; i < d.size(); i++) b.emplace_back(d.bucket(i), d.count(i));
  return b;
}

TEST(DistributionSnapshot, BucketsOfEveryCpuAddUpInBucketOrder) {
  ir::Aggregation q = makeAgg(0, ir::AggFunc::Quantize, RecordBuilder());
  const std::vector<uint8_t> one(8, 1), two(8, 2);
  AggregationData data(&q, 2, true);
  const size_t first = data.add(one.data()), second = data.add(two.data());
  data.foldBucket(first, 1, CpuSlot::Current, 70, 3, 10 * 3);
  data.foldBucket(first, 0, CpuSlot::Current, 65, 2, 10 * 2);
  data.foldBucket(second, 0, CpuSlot::Cleared, 80, 9, 10 * 9);  // before a clear(): nothing
  data.foldBucket(first, 0, CpuSlot::Current, 70, 1, 10 * 1);
  data.foldBucket(first, 0, CpuSlot::Current, 66, 5, 10 * 5);
  data.foldBucket(first, 1, CpuSlot::Current, 66, -5, 10 * -5);  // adds up to zero: not shown
  data.foldBucket(first, 1, CpuSlot::Cleared, 90, 4, 10 * 4);
  data.finish();
  EXPECT_EQ(bucketsOf(data.merged(first)), (Buckets{{65, 2}, {70, 4}}));
  EXPECT_EQ(bucketsOf(data.data(first, 0)), (Buckets{{65, 2}, {66, 5}, {70, 1}}));
  EXPECT_EQ(bucketsOf(data.data(first, 1)), (Buckets{{66, -5}, {70, 3}}));
  EXPECT_TRUE(bucketsOf(data.merged(second)).empty());
  // The values' sum beside the buckets: what the current entries held.
  EXPECT_EQ(ir::SparseDistribution(data.merged(first)).sum(), 10 * (3 + 2 + 1 + 5 - 5));
  EXPECT_EQ(ir::SparseDistribution(data.merged(second)).sum(), 0);
  EXPECT_EQ(data.slot(second, 0), CpuSlot::Cleared);
  EXPECT_EQ(data.slot(second, 1), CpuSlot::Absent);
}

// Buckets come in the map's order: tuple by tuple (no sort needed) or
// interleaved; both lay out the same distributions.
TEST(DistributionSnapshot, TuplesReadInAnyOrderLayOutAlike) {
  ir::Aggregation q = makeAgg(0, ir::AggFunc::Quantize, RecordBuilder());
  struct Fold {
    size_t tuple;
    uint32_t bucket;
    int64_t count;
  };
  auto layOut = [&](const std::vector<Fold>& folds) {
    AggregationData data(&q, 1, false);
    for (uint8_t t = 0; t < 3; t++) data.add(std::vector<uint8_t>(8, t).data());
    for (const Fold& f : folds) data.foldBucket(f.tuple, 0, CpuSlot::Current, f.bucket, f.count, 0);
    data.finish();
    std::vector<Buckets> out;
    for (size_t t = 0; t < 3; t++) out.push_back(bucketsOf(data.merged(t)));
    return out;
  };
  const std::vector<Buckets> expected = {{{2, 7}, {5, 1}}, {{3, 4}}, {{1, 1}}};
  EXPECT_EQ(layOut({{0, 5, 1}, {0, 2, 7}, {1, 3, 4}, {2, 1, 1}}), expected);
  EXPECT_EQ(layOut({{0, 5, 1}, {1, 3, 3}, {0, 2, 7}, {2, 1, 1}, {1, 3, 1}}), expected);
}

TEST(DistributionSnapshot, PrintsTheRowsAroundTheBucketsUsed) {
  ir::Aggregation q = makeAgg(0, ir::AggFunc::Quantize, RecordBuilder());
  const std::vector<uint8_t> key(8, 0);
  AggregationData data(&q, 1, false);
  const size_t i = data.add(key.data());
  data.foldBucket(i, 0, CpuSlot::Current, ir::quantizeBucket(4), 3, 12);
  data.foldBucket(i, 0, CpuSlot::Current, ir::quantizeBucket(1), 1, 1);
  data.finish();
  EXPECT_EQ(printed({data}),
            "\n           value  ------------- Distribution ------------- count    \n"
            "               0 |                                         0        \n"
            "               1 |@@@@@@@@@@                               1        \n"
            "               2 |                                         0        \n"
            "               4 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@           3        \n"
            "               8 |                                         0        \n"
            "\n");
}

// A bar is |count| * 40 / total rounded half up, as DTrace's long double
// arithmetic rounds it, for small totals and for totals past 2^50 alike.
std::string barsOf(int64_t low, int64_t high) {
  ir::Aggregation q = makeAgg(0, ir::AggFunc::Quantize, RecordBuilder());
  const std::vector<uint8_t> key(8, 0);
  AggregationData data(&q, 1, false);
  const size_t i = data.add(key.data());
  data.foldBucket(i, 0, CpuSlot::Current, ir::quantizeBucket(1), low, 0);
  data.foldBucket(i, 0, CpuSlot::Current, ir::quantizeBucket(2), high, 0);
  data.finish();
  std::string bars;
  for (char c : printed({data})) {
    if (c == '@' || c == '\n') bars += c;
  }
  return bars;
}

TEST(DistributionSnapshot, BarsRoundHalfUp) {
  // 1 of 80 is half an '@'; 79 of 80 is 39.5.
  EXPECT_EQ(barsOf(1, 79), "\n\n\n@\n" + std::string(40, '@') + "\n\n\n");
  EXPECT_EQ(barsOf(1, 3), "\n\n\n" + std::string(10, '@') + "\n" + std::string(30, '@') + "\n\n\n");
  const int64_t big = int64_t{1} << 55;
  EXPECT_EQ(barsOf(big, 79 * big), "\n\n\n@\n" + std::string(40, '@') + "\n\n\n");
  EXPECT_EQ(barsOf(big / 64, big),  // 40/65 of a bar and 2560/65
            "\n\n\n@\n" + std::string(39, '@') + "\n\n\n");
}

TEST(AggregationPrint, KeylessCountAtExit) {
  ir::Aggregation agg = makeAgg(0, ir::AggFunc::Count, RecordBuilder());
  AggregationData data = build(&agg, {entry(RecordBuilder(), {{4}, {6}})});
  EXPECT_EQ(printed({data}, true), "\n" + pad(15) + "10\n");
}

TEST(AggregationPrint, StringKeysSortByValueThenKey) {
  RecordBuilder layout = stringKey("");
  ir::Aggregation agg = makeAgg(0, ir::AggFunc::Count, layout);
  AggregationData data =
      build(&agg, {entry(stringKey("sshd"), {{5}}), entry(stringKey("bash"), {{1}}),
                   entry(stringKey("zsh"), {{1}}), entry(stringKey("awk"), {{1}}),
                   entry(stringKey("cron"), {{}, {2}})});
  auto line = [](const std::string& key, const std::string& value) {
    return "  " + key + pad(50 - key.size()) + pad(17 - value.size()) + value + "\n";
  };
  EXPECT_EQ(printed({data}), line("awk", "1") + line("bash", "1") + line("zsh", "1") +
                                 line("cron", "2") + line("sshd", "5"));
}

TEST(AggregationPrint, SumMinMaxAvgValues) {
  RecordBuilder layout = stringKey("");
  ir::Aggregation sum = makeAgg(0, ir::AggFunc::Sum, layout);
  ir::Aggregation min = makeAgg(1, ir::AggFunc::Min, layout);
  ir::Aggregation max = makeAgg(2, ir::AggFunc::Max, layout);
  ir::Aggregation avg = makeAgg(3, ir::AggFunc::Avg, layout);
  auto one = [&](const ir::Aggregation& agg, std::vector<Words> v) {
    return build(&agg, {entry(stringKey("k"), std::move(v))});
  };
  const std::string key = "  k" + pad(49);
  EXPECT_EQ(printed({one(sum, {{100}, {-1}})}), key + pad(15) + "99\n");
  EXPECT_EQ(printed({one(min, {{-4}, {}, {8}})}), key + pad(15) + "-4\n");
  EXPECT_EQ(printed({one(max, {{-4}, {}, {-8}})}), key + pad(15) + "-4\n");
  EXPECT_EQ(printed({one(avg, {{2, 10}, {1, 5}})}), key + pad(16) + "5\n");
}

TEST(AggregationPrint, NegativeValuesSortFirst) {
  RecordBuilder layout = stringKey("");
  ir::Aggregation agg = makeAgg(0, ir::AggFunc::Sum, layout);
  AggregationData data = build(&agg, {entry(stringKey("b"), {{3}}), entry(stringKey("a"), {{-3}})});
  EXPECT_EQ(printed({data}),
            "  a" + pad(49) + pad(15) + "-3\n" + "  b" + pad(49) + pad(16) + "3\n");
}

TEST(AggregationPrint, TwoMixedKeys) {
  RecordBuilder layout;
  layout.addString("", 16).add(int32_t{0});
  ir::Aggregation agg = makeAgg(0, ir::AggFunc::Count, layout);
  auto key = [](const std::string& s, int32_t n) {
    RecordBuilder b;
    b.addString(s, 16).add(n);
    return b;
  };
  AggregationData data = build(&agg, {entry(key("bash", 200), {{2}}),
                                      entry(key("bash", 100), {{2}}), entry(key("sh", 1), {{1}})});
  EXPECT_EQ(printed({data}), "  sh" + pad(48) + "        1" + pad(16) + "1\n" +  //
                                 "  bash" + pad(46) + "      100" + pad(16) + "2\n" + "  bash" +
                                 pad(46) + "      200" + pad(16) + "2\n");
}

TEST(AggregationPrint, IntegerKeysSortAsUnsigned) {
  RecordBuilder layout;
  layout.add(int64_t{0});
  ir::Aggregation agg = makeAgg(0, ir::AggFunc::Count, layout);
  auto key = [](int64_t n) {
    RecordBuilder b;
    b.add(n);
    return b;
  };
  AggregationData data =
      build(&agg, {entry(key(-1), {{1}}), entry(key(2), {{1}}), entry(key(1), {{1}})});
  const std::string one = pad(16) + "1\n";
  EXPECT_EQ(printed({data}), pad(16) + "1" + one + pad(16) + "2" + one + pad(15) + "-1" + one);
}

TEST(AggregationPrint, SeveralAggregationsInIdOrderWithoutBlankLines) {
  RecordBuilder none;
  ir::Aggregation a = makeAgg(0, ir::AggFunc::Count, none);
  ir::Aggregation b = makeAgg(1, ir::AggFunc::Sum, none);
  ir::Aggregation empty = makeAgg(2, ir::AggFunc::Max, none);
  AggregationData da = build(&a, {entry(none, {{3}})});
  AggregationData db = build(&b, {entry(none, {{50}})});
  AggregationData de = build(&empty, {});  // never fired
  EXPECT_EQ(printed({db, de, da}, true), "\n" + pad(16) + "3\n" + pad(15) + "50\n");
}

TEST(AggregationPrint, NothingWhenEmpty) {
  EXPECT_EQ(printed({}), "");
  EXPECT_EQ(printed({}, true), "\n");
}

// A large table's rows come out whole and in order.
TEST(AggregationPrint, LargeTablePrintsEveryRowInOrder) {
  RecordBuilder layout;
  layout.add(int64_t{0});
  ir::Aggregation agg = makeAgg(0, ir::AggFunc::Count, layout);
  std::vector<AggregationEntry> entries;
  const int64_t n = 50000;
  for (int64_t i = 0; i < n; i++) {
    RecordBuilder k;
    k.add((i * 7919) % n);  // keys out of order, each with its own count
    entries.push_back(entry(k, {{(i * 7919) % n + 1}}));
  }
  std::string expected;
  for (int64_t i = 0; i < n; i++) {
    char line[64];
    std::snprintf(line, sizeof line, " %16lld %16lld\n", static_cast<long long>(i),
                  static_cast<long long>(i + 1));
    expected += line;
  }
  EXPECT_EQ(printed({build(&agg, entries)}), expected);
}

TEST(AggregationSnapshot, LargeSnapshotSortsQuickly) {
  RecordBuilder layout;
  layout.add(int64_t{0});
  ir::Aggregation agg = makeAgg(0, ir::AggFunc::Count, layout);
  std::vector<AggregationEntry> entries;
  for (int64_t i = 0; i < 100000; i++) {
    RecordBuilder k;
    k.add(i);
    entries.push_back(entry(k, {{i % 97 + 1}}));
  }
  AggregationData data = build(&agg, entries);
  MergedAggregation merged(data);
  AggregationTable table({&merged});
  table.sort(SortOptions{});
  ASSERT_EQ(table.rows(), data.size());
  for (size_t i = 1; i < table.rows(); i++) {
    ASSERT_LE(table.value(i - 1, 0)[0], table.value(i, 0)[0]);
  }
}

// The first 8 bytes of each row's key, in the table's order.
std::vector<int64_t> sortedKeys(const AggregationData& data, SortOptions options) {
  MergedAggregation merged(data);
  AggregationTable table({&merged});
  table.sort(options);
  std::vector<int64_t> keys;
  for (size_t i = 0; i < table.rows(); i++) {
    int64_t k;
    std::memcpy(&k, table.key(i), sizeof k);
    keys.push_back(k);
  }
  return keys;
}

// Distributions sort by the sum of each bucket's value times its count,
// then by the count at zero, then by key (dt_aggregate_valcmp): negative
// sums first, and sums past 2^64 in order.
TEST(AggregationSort, DistributionsByWeightThenCountAtZeroThenKey) {
  RecordBuilder layout;
  layout.add(int64_t{0});
  ir::Aggregation q = makeAgg(0, ir::AggFunc::Quantize, layout);
  AggregationData data(&q, 1, false);
  auto add = [&](int64_t key, std::vector<std::pair<int64_t, int64_t>> values) {
    const std::vector<uint8_t> k(reinterpret_cast<const uint8_t*>(&key),
                                 reinterpret_cast<const uint8_t*>(&key) + 8);
    const size_t i = data.add(k.data());
    for (auto [v, n] : values)
      data.foldBucket(i, 0, CpuSlot::Current, ir::quantizeBucket(v), n, 0);
  };
  add(1, {{8, 1}});                       // 8
  add(2, {{0, 2}});                       // 0, two at zero
  add(3, {{-4, 1}});                      // -4
  add(4, {{0, 1}});                       // 0, one at zero
  add(5, {{1, 3}});                       // 3
  add(6, {{INT64_MIN, 3}});               // about -2^64.6
  add(7, {{int64_t{1} << 62, 1 << 20}});  // 2^82
  add(8, {{int64_t{1} << 62, (1 << 20) + 1}});
  add(9, {{0, 1}});    // as key 4: the key decides
  add(10, {{-4, 3}});  // -12
  add(11, {{-8, 1}});  // -8
  data.finish();
  EXPECT_EQ(sortedKeys(data, {}), (std::vector<int64_t>{6, 10, 11, 3, 4, 9, 2, 5, 1, 7, 8}));
  SortOptions reverse;
  reverse.reverse = true;
  EXPECT_EQ(sortedKeys(data, reverse), (std::vector<int64_t>{8, 7, 1, 5, 2, 9, 4, 3, 11, 10, 6}));
  SortOptions byKey;
  byKey.byKey = true;
  EXPECT_EQ(sortedKeys(data, byKey), (std::vector<int64_t>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}));
}

// Numbers sort as signed values; a standard deviation is never negative.
TEST(AggregationSort, NumbersAsSignedValues) {
  RecordBuilder layout;
  layout.add(int64_t{0});
  ir::Aggregation sum = makeAgg(0, ir::AggFunc::Sum, layout);
  std::vector<AggregationEntry> entries;
  const int64_t values[] = {5, INT64_MIN, -1, INT64_MAX, 0, -1};
  for (int64_t k = 0; k < 6; k++) {
    RecordBuilder key;
    key.add(k);
    entries.push_back(entry(key, {{values[k]}}));
  }
  EXPECT_EQ(sortedKeys(build(&sum, entries), {}), (std::vector<int64_t>{1, 2, 5, 4, 0, 3}));
}

// Keys whose first 8 bytes tie (a string, then a number) and values that
// tie: every order still compares the whole key, as DTrace does.
TEST(AggregationSort, KeysPastTheirFirstWordInEveryOrder) {
  RecordBuilder layout;
  layout.addString("", 16).add(int32_t{0});
  ir::Aggregation agg = makeAgg(0, ir::AggFunc::Count, layout);
  struct Tuple {
    std::string name;
    int32_t n;
    int64_t count;
  };
  std::vector<Tuple> tuples;
  std::vector<AggregationEntry> entries;
  for (int32_t i = 0; i < 40; i++) {
    Tuple t{i % 3 ? "prefix_shared_b" : "prefix_shared_a", (i * 17) % 40 - 20, i % 2 + 1};
    RecordBuilder key;
    key.addString(t.name, 16).add(t.n);
    entries.push_back(entry(key, {{t.count}}));
    tuples.push_back(t);
  }
  const AggregationData data = build(&agg, entries);
  auto tableOrder = [&](SortOptions options) {
    MergedAggregation merged(data);
    AggregationTable table({&merged});
    table.sort(options);
    std::vector<std::string> rows;
    for (size_t i = 0; i < table.rows(); i++) {
      int32_t n;
      std::memcpy(&n, table.key(i) + 16, sizeof n);
      rows.push_back(std::string(reinterpret_cast<const char*>(table.key(i))) + " " +
                     std::to_string(n) + " " + std::to_string(table.value(i, 0)[0]));
    }
    return rows;
  };
  // Integers compare as unsigned numbers of their size.
  auto keyLess = [](const Tuple& a, const Tuple& b) {
    if (a.name != b.name) return a.name < b.name;
    return static_cast<uint32_t>(a.n) < static_cast<uint32_t>(b.n);
  };
  auto expected = [&](auto less) {
    std::vector<Tuple> sorted = tuples;
    std::sort(sorted.begin(), sorted.end(), less);
    std::vector<std::string> rows;
    for (const Tuple& t : sorted) {
      rows.push_back(t.name + " " + std::to_string(t.n) + " " + std::to_string(t.count));
    }
    return rows;
  };
  auto byValue = [&](const Tuple& a, const Tuple& b) {
    return a.count != b.count ? a.count < b.count : keyLess(a, b);
  };
  auto byKey = [&](const Tuple& a, const Tuple& b) { return keyLess(a, b); };
  EXPECT_EQ(tableOrder({}), expected(byValue));
  SortOptions key;
  key.byKey = true;
  EXPECT_EQ(tableOrder(key), expected(byKey));
  SortOptions reverse;
  reverse.reverse = true;
  std::vector<std::string> backwards = expected(byValue);
  std::reverse(backwards.begin(), backwards.end());
  EXPECT_EQ(tableOrder(reverse), backwards);
}

}  // namespace
}  // namespace dtrace::consume
