#include "consume/aggregation_reader.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <map>

namespace dtrace::consume {
namespace {

// A hash map laid out as a sum() aggregation's: (tuple, CPU) ->
// (generation, total).
struct SumValue {
  uint64_t generation;
  int64_t total;
};
class AggregationMap {
 public:
  AggregationMap(uint32_t keySize, uint32_t maxEntries) {
    fd_ = bpf_map_create(BPF_MAP_TYPE_HASH, "test_agg", keySize + ir::kAggregationCpuSlot,
                         sizeof(SumValue), maxEntries, nullptr);
  }
  ~AggregationMap() {
    if (fd_ >= 0) close(fd_);
  }
  int fd() const { return fd_; }

 private:
  int fd_ = -1;
};

TEST(AggregationReader, ReadsEveryKeyAndEveryCpu) {
  constexpr uint32_t kKeys = 10000;
  const int ncpus = libbpf_num_possible_cpus();
  AggregationMap map(8, kKeys * static_cast<uint32_t>(ncpus));
  if (map.fd() < 0) GTEST_SKIP() << "cannot create BPF maps here";
  ASSERT_GT(ncpus, 0);

  for (uint64_t k = 0; k < kKeys; k++) {
    for (uint64_t cpu = 0; cpu < static_cast<uint64_t>(ncpus); cpu++) {
      const uint64_t mapKey[2] = {k, cpu};
      // Even keys were last updated before a clear() (generation 1).
      const SumValue value = {k % 2 ? 2u : 1u, static_cast<int64_t>(k * 10 + cpu)};
      ASSERT_EQ(bpf_map_update_elem(map.fd(), mapKey, &value, BPF_ANY), 0);
    }
  }

  ir::Aggregation agg;
  agg.name = "test";
  agg.func = ir::AggFunc::Sum;
  agg.keySize = 8;
  auto read = readAggregation(agg, map.fd(), 2, true);
  ASSERT_TRUE(read.ok()) << read.error().message;
  ASSERT_EQ(read->size(), kKeys);
  EXPECT_EQ(read->aggregation, &agg);

  std::map<uint64_t, size_t> byKey;
  for (size_t i = 0; i < read->size(); i++) {
    uint64_t k;
    std::memcpy(&k, read->key(i), 8);
    byKey[k] = i;
  }
  ASSERT_EQ(byKey.size(), kKeys);
  ASSERT_EQ(read->ncpus(), ncpus);
  for (int cpu = 0; cpu < ncpus; cpu++) {
    EXPECT_EQ(read->slot(byKey.at(1235), cpu), CpuSlot::Current);
    EXPECT_EQ(read->data(byKey.at(1235), cpu)[0], 12350 + cpu);
    EXPECT_EQ(read->slot(byKey.at(1234), cpu), CpuSlot::Cleared);
  }
  // Current CPUs add up; a tuple seen only before the clear() is zero.
  const int64_t total = 12350 * ncpus + ncpus * (ncpus - 1) / 2;
  EXPECT_EQ(read->merged(byKey.at(1235))[0], total);
  EXPECT_EQ(read->merged(byKey.at(1234))[0], 0);

  // Without per-CPU data the merged values are the same.
  auto merged = readAggregation(agg, map.fd(), 2, false);
  ASSERT_TRUE(merged.ok()) << merged.error().message;
  ASSERT_EQ(merged->size(), kKeys);
  EXPECT_FALSE(merged->perCpu());
  for (size_t i = 0; i < merged->size(); i++) {
    uint64_t k;
    std::memcpy(&k, merged->key(i), 8);
    if (k == 1235) {
      EXPECT_EQ(merged->merged(i)[0], total);
    } else if (k == 1234) {
      EXPECT_EQ(merged->merged(i)[0], 0);
    }
  }
}

TEST(AggregationReader, EmptyMapGivesNoEntries) {
  AggregationMap map(16, 64);
  if (map.fd() < 0) GTEST_SKIP() << "cannot create BPF maps here";
  ir::Aggregation agg;
  agg.keySize = 16;
  auto read = readAggregation(agg, map.fd(), 1, false);
  ASSERT_TRUE(read.ok()) << read.error().message;
  EXPECT_EQ(read->size(), 0u);
}

TEST(AggregationReader, BadFdIsAnError) {
  ir::Aggregation agg;
  agg.name = "x";
  auto read = readAggregation(agg, -1, 1, false);
  EXPECT_FALSE(read.ok());
}

}  // namespace
}  // namespace dtrace::consume
