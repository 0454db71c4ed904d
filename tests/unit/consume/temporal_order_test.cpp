// -x temporal: records read CPU by CPU come out in the order of the times
// they carry, and only those older than the point every CPU's buffer has
// been read past; bufpolicy=ring bounds each CPU's queue.
#include "consume/temporal_order.h"

#include <gtest/gtest.h>

#include <cstring>

#include "ir/runtime.h"

namespace dtrace::consume {
namespace {

// A record as a probe writes it: header, one u64 of data, its time.
std::string record(uint32_t cpu, uint64_t value, uint64_t time) {
  const ir::RecordHeader header{1, cpu};
  std::string bytes(sizeof header + 2 * sizeof(uint64_t), '\0');
  std::memcpy(bytes.data(), &header, sizeof header);
  std::memcpy(bytes.data() + sizeof header, &value, sizeof value);
  std::memcpy(bytes.data() + sizeof header + sizeof value, &time, sizeof time);
  return bytes;
}

std::vector<uint64_t> released(TemporalOrder& order, uint64_t before) {
  std::vector<uint64_t> values;
  order.release(before, [&](const void* data, size_t) {
    uint64_t value = 0;
    std::memcpy(&value, static_cast<const char*>(data) + sizeof(ir::RecordHeader), sizeof value);
    values.push_back(value);
    return 0;
  });
  return values;
}

TEST(TemporalOrder, InterleavesTheCpusByTime) {
  TemporalOrder order;
  for (const std::string& r : {record(0, 2, 101), record(0, 4, 103)}) order.add(r.data(), r.size());
  for (const std::string& r : {record(1, 1, 100), record(1, 3, 102)}) order.add(r.data(), r.size());
  EXPECT_EQ(released(order, 102), (std::vector<uint64_t>{1, 2}));
  EXPECT_EQ(released(order, UINT64_MAX), (std::vector<uint64_t>{3, 4}));
  EXPECT_TRUE(released(order, UINT64_MAX).empty());
}

TEST(TemporalOrder, TheTimeIsTheRecordsLastWord) {
  const std::string r = record(3, 9, 12345);
  EXPECT_EQ(recordTime(r.data(), r.size()), 12345u);
}

TEST(TemporalOrder, StopsAtTheHandlersError) {
  TemporalOrder order;
  const std::string r = record(0, 1, 5);
  order.add(r.data(), r.size());
  EXPECT_EQ(order.releaseAll([](const void*, size_t) { return -7; }), -7);
}

// bufpolicy=ring: a CPU keeps its newest records within its bytes (the
// timestamps not counted); the other CPU's are untouched.
TEST(TemporalOrder, BoundedQueuesKeepEachCpusNewest) {
  const size_t counted = record(0, 0, 0).size() - ir::kRecordTimestampSize;
  TemporalOrder order(2 * counted);
  for (uint64_t v = 1; v <= 4; v++) {
    const std::string r = record(0, v, 10 * v);
    order.add(r.data(), r.size());
  }
  const std::string other = record(1, 9, 1);
  order.add(other.data(), other.size());
  EXPECT_EQ(released(order, UINT64_MAX), (std::vector<uint64_t>{9, 3, 4}));
}

}  // namespace
}  // namespace dtrace::consume
