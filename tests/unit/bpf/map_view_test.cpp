// bpf::MapView (entries of a map held by descriptor) and the link ids the
// syscall dispatcher checks, against the running kernel: need root.
#include "bpf/map_view.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <set>

#include "bpf/attach.h"
#include "bpf/map.h"
#include "bpf/program.h"
#include "test_programs.h"

namespace dtrace::bpf {
namespace {

class MapViewTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (geteuid() != 0) GTEST_SKIP() << "needs root";
    ASSERT_TRUE(prepareProcess().ok());
  }
};

TEST_F(MapViewTest, LooksUpWalksAndErases) {
  auto map = Map::create(BPF_MAP_TYPE_HASH, "test_view", 4, 8, 16);
  ASSERT_TRUE(map.ok()) << map.error().message;
  for (uint32_t key = 1; key <= 3; key++) {
    const uint64_t value = key * 10;
    ASSERT_TRUE(map->update(&key, &value).ok());
  }
  const MapView view(map->fd());
  uint32_t key = 2;
  uint64_t value = 0;
  ASSERT_TRUE(view.lookup(&key, &value));
  EXPECT_EQ(value, 20u);

  std::set<uint32_t> seen;
  uint32_t previous = 0, next = 0;
  for (const void* at = nullptr; view.nextKey(at, &next); at = &previous) {
    seen.insert(next);
    previous = next;
  }
  EXPECT_EQ(errno, ENOENT);
  EXPECT_EQ(seen, (std::set<uint32_t>{1, 2, 3}));

  EXPECT_TRUE(view.erase(&key));
  EXPECT_FALSE(view.lookup(&key, &value));
  EXPECT_EQ(errno, ENOENT);
  EXPECT_FALSE(view.erase(&key));
  EXPECT_GT(possibleCpuCount(), 0);
}

TEST_F(MapViewTest, LinkIdsNameTheLinkAndItsProgram) {
  auto map = Map::create(BPF_MAP_TYPE_ARRAY, "test_counter", 4, 8, 1);
  ASSERT_TRUE(map.ok()) << map.error().message;
  auto prog = Program::load(BPF_PROG_TYPE_RAW_TRACEPOINT, "test_link_ids",
                            testing::countingProgram(map->fd()));
  ASSERT_TRUE(prog.ok()) << prog.error().message;
  auto link = attachRawTracepoint(prog->fd(), "sys_enter");
  ASSERT_TRUE(link.ok()) << link.error().message;
  const std::optional<LinkIds> ids = linkIds(link->bpfLinkFd());
  ASSERT_TRUE(ids);
  EXPECT_NE(ids->link, 0u);
  EXPECT_NE(ids->program, 0u);
  Fd again = openLinkById(ids->link);
  ASSERT_TRUE(again);
  const std::optional<LinkIds> againIds = linkIds(again.get());
  ASSERT_TRUE(againIds);
  EXPECT_EQ(againIds->link, ids->link);
  EXPECT_EQ(againIds->program, ids->program);
  EXPECT_FALSE(linkIds(-1));
}

TEST_F(MapViewTest, RunProgramByDescriptor) {
  auto map = Map::create(BPF_MAP_TYPE_ARRAY, "test_counter", 4, 8, 1);
  ASSERT_TRUE(map.ok()) << map.error().message;
  auto prog = Program::load(BPF_PROG_TYPE_RAW_TRACEPOINT, "test_run_fd",
                            testing::countingProgram(map->fd()));
  ASSERT_TRUE(prog.ok()) << prog.error().message;
  const uint64_t context[6] = {};
  EXPECT_TRUE(runProgram(prog->fd(), context, std::nullopt));
  EXPECT_TRUE(runProgram(prog->fd(), context, std::nullopt));
  uint32_t key = 0;
  uint64_t count = 0;
  ASSERT_TRUE(map->lookup(&key, &count));
  EXPECT_EQ(count, 2u);
  EXPECT_FALSE(runProgram(-1, context, std::nullopt));
}

}  // namespace
}  // namespace dtrace::bpf
