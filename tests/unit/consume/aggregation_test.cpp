#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "../print/record_builder.h"
#include "consume/aggregation_snapshot.h"
#include "consume/consumer.h"

namespace dtrace::consume {
namespace {

using testing::RecordBuilder;

std::string pad(size_t n) { return std::string(n, ' '); }

std::string printed(const std::vector<AggregationData>& aggs, bool final = false) {
  char* buf = nullptr;
  size_t len = 0;
  FILE* f = open_memstream(&buf, &len);
  ir::Program program;
  Consumer c(program, f, true);
  auto r = final ? c.printFinal(aggs) : c.printAggregations(aggs);
  EXPECT_TRUE(r.ok());
  std::fclose(f);
  std::string s(buf, len);
  std::free(buf);
  return s;
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

// One tuple with its per-CPU slots, as a test writes it.
struct AggregationEntry {
  std::vector<uint8_t> key;
  std::vector<ir::AggValue> perCpu;
};

// A snapshot of `entries`, with as many CPUs as the longest slot list.
AggregationData build(const ir::Aggregation* agg, const std::vector<AggregationEntry>& entries) {
  size_t ncpus = 1;
  for (const auto& e : entries) ncpus = std::max(ncpus, e.perCpu.size());
  AggregationData data(agg, static_cast<int>(ncpus));
  for (const auto& e : entries) {
    size_t i = data.add(e.key.data());
    for (size_t cpu = 0; cpu < e.perCpu.size(); cpu++)
      data.slot(i, static_cast<int>(cpu)) = e.perCpu[cpu];
  }
  return data;
}

AggregationEntry entry(const RecordBuilder& key, std::vector<ir::AggValue> perCpu) {
  AggregationEntry e;
  e.key = key.padded();
  if (e.key.empty()) e.key.assign(8, 0);
  e.perCpu = std::move(perCpu);
  return e;
}

// The tuple's CPUs merged (its key pointer is not used).
MergedEntry merge(const ir::Aggregation& agg, const AggregationEntry& e) {
  return mergeEntry(build(&agg, {e}), 0);
}

RecordBuilder stringKey(const std::string& s) {
  RecordBuilder b;
  b.addString(s, 16);
  return b;
}

TEST(AggregationMerge, CountSumsEveryCpu) {
  ir::Aggregation agg = makeAgg(0, ir::AggFunc::Count, RecordBuilder());
  MergedEntry m = merge(agg, entry(RecordBuilder(), {{2, 0}, {0, 0}, {3, 0}}));
  EXPECT_EQ(m.count, 5u);
  EXPECT_EQ(aggregationResult(agg.func, m), 5);
}

TEST(AggregationMerge, MinAndMaxIgnoreIdleCpus) {
  ir::Aggregation min = makeAgg(0, ir::AggFunc::Min, RecordBuilder());
  EXPECT_EQ(merge(min, entry(RecordBuilder(), {{0, 0}, {1, 5}, {2, 9}})).value, 5);
  ir::Aggregation max = makeAgg(0, ir::AggFunc::Max, RecordBuilder());
  EXPECT_EQ(merge(max, entry(RecordBuilder(), {{1, -3}, {0, 0}, {1, -7}})).value, -3);
}

TEST(AggregationMerge, AverageIsTotalOverCountTruncated) {
  ir::Aggregation avg = makeAgg(0, ir::AggFunc::Avg, RecordBuilder());
  EXPECT_EQ(aggregationResult(avg.func, merge(avg, entry(RecordBuilder(), {{3, 7}, {1, 3}}))),
            2);
  EXPECT_EQ(aggregationResult(avg.func, merge(avg, entry(RecordBuilder(), {{2, -7}}))), -3);
  EXPECT_EQ(aggregationResult(avg.func, MergedEntry{}), 0);
}

TEST(AggregationPrint, KeylessCountAtExit) {
  ir::Aggregation agg = makeAgg(0, ir::AggFunc::Count, RecordBuilder());
  AggregationData data = build(&agg, {entry(RecordBuilder(), {{4, 0}, {6, 0}})});
  EXPECT_EQ(printed({data}, true), "\n" + pad(15) + "10\n");
}

TEST(AggregationPrint, StringKeysSortByValueThenKey) {
  RecordBuilder layout = stringKey("");
  ir::Aggregation agg = makeAgg(0, ir::AggFunc::Count, layout);
  AggregationData data =
      build(&agg, {entry(stringKey("sshd"), {{5, 0}}), entry(stringKey("bash"), {{1, 0}}),
                   entry(stringKey("zsh"), {{1, 0}}), entry(stringKey("awk"), {{1, 0}}),
                   entry(stringKey("cron"), {{0, 0}, {2, 0}})});
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
  auto one = [&](const ir::Aggregation& agg, std::vector<ir::AggValue> v) {
    return build(&agg, {entry(stringKey("k"), std::move(v))});
  };
  const std::string key = "  k" + pad(49);
  EXPECT_EQ(printed({one(sum, {{2, 100}, {1, -1}})}), key + pad(15) + "99\n");
  EXPECT_EQ(printed({one(min, {{2, -4}, {0, 0}, {1, 8}})}), key + pad(15) + "-4\n");
  EXPECT_EQ(printed({one(max, {{2, -4}, {0, 0}, {1, -8}})}), key + pad(15) + "-4\n");
  EXPECT_EQ(printed({one(avg, {{2, 10}, {1, 5}})}), key + pad(16) + "5\n");
}

TEST(AggregationPrint, NegativeValuesSortFirst) {
  RecordBuilder layout = stringKey("");
  ir::Aggregation agg = makeAgg(0, ir::AggFunc::Sum, layout);
  AggregationData data =
      build(&agg, {entry(stringKey("b"), {{1, 3}}), entry(stringKey("a"), {{1, -3}})});
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
  AggregationData data =
      build(&agg, {entry(key("bash", 200), {{2, 0}}), entry(key("bash", 100), {{2, 0}}),
                   entry(key("sh", 1), {{1, 0}})});
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
      build(&agg, {entry(key(-1), {{1, 0}}), entry(key(2), {{1, 0}}), entry(key(1), {{1, 0}})});
  const std::string one = pad(16) + "1\n";
  EXPECT_EQ(printed({data}), pad(16) + "1" + one + pad(16) + "2" + one + pad(15) + "-1" + one);
}

TEST(AggregationPrint, SeveralAggregationsInIdOrderWithoutBlankLines) {
  RecordBuilder none;
  ir::Aggregation a = makeAgg(0, ir::AggFunc::Count, none);
  ir::Aggregation b = makeAgg(1, ir::AggFunc::Sum, none);
  ir::Aggregation empty = makeAgg(2, ir::AggFunc::Max, none);
  AggregationData da = build(&a, {entry(none, {{3, 0}})});
  AggregationData db = build(&b, {entry(none, {{1, 50}})});
  AggregationData de = build(&empty, {entry(none, {{0, 0}})});  // a slot that never fired
  EXPECT_EQ(printed({db, de, da}, true), "\n" + pad(16) + "3\n" + pad(15) + "50\n");
}

TEST(AggregationPrint, NothingWhenEmpty) {
  EXPECT_EQ(printed({}), "");
  EXPECT_EQ(printed({}, true), "\n");
}

TEST(AggregationSnapshot, LargeSnapshotSortsQuickly) {
  RecordBuilder layout;
  layout.add(int64_t{0});
  ir::Aggregation agg = makeAgg(0, ir::AggFunc::Count, layout);
  std::vector<AggregationEntry> entries;
  for (int64_t i = 0; i < 100000; i++) {
    RecordBuilder k;
    k.add(i);
    entries.push_back(entry(k, {{static_cast<uint64_t>(i % 97 + 1), 0}}));
  }
  AggregationData data = build(&agg, entries);
  std::vector<MergedEntry> sorted = sortedSnapshot(data);
  ASSERT_EQ(sorted.size(), data.size());
  for (size_t i = 1; i < sorted.size(); i++) {
    ASSERT_LE(sorted[i - 1].count, sorted[i].count);
  }
}

}  // namespace
}  // namespace dtrace::consume
