#include "providers/tick_timer.h"

#include <bpf/bpf.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <functional>
#include <thread>
#include <vector>

namespace dtrace::providers {
namespace {

dtrace::Fd loadTrivialRawTracepoint() {
  struct bpf_insn insns[2] = {};
  insns[0].code = BPF_ALU64 | BPF_MOV | BPF_K;
  insns[0].dst_reg = BPF_REG_0;
  insns[1].code = BPF_JMP | BPF_EXIT;
  return dtrace::Fd(
      bpf_prog_load(BPF_PROG_TYPE_RAW_TRACEPOINT, "ticktest", "GPL", insns, 2, nullptr));
}

bool waitUntil(const std::function<bool()>& done) {
  for (int tries = 0; tries < 200; ++tries) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return false;
}

TEST(TickTimers, DroppingTheLinkStopsTheThread) {
  if (geteuid() != 0) GTEST_SKIP() << "loading a program needs root";
  dtrace::Fd prog = loadTrivialRawTracepoint();
  ASSERT_TRUE(prog.valid());
  TickTimers timers;
  std::vector<bpf::Link> links;
  for (int i = 0; i < 40; ++i) {
    Result<bpf::Link> link = timers.start(prog.get(), 200000);
    ASSERT_TRUE(link.ok()) << link.error().message;
    links.push_back(std::move(*link));
  }
  EXPECT_EQ(timers.running(), 40u);
  links.erase(links.begin() + 10, links.end());
  EXPECT_TRUE(waitUntil([&] { return timers.running() == 10; }));
  links.clear();
  EXPECT_TRUE(waitUntil([&] { return timers.running() == 0; }));
}

TEST(TickTimers, DestroyingTheOwnerStopsThreadsWhoseLinksLive) {
  if (geteuid() != 0) GTEST_SKIP() << "loading a program needs root";
  dtrace::Fd prog = loadTrivialRawTracepoint();
  ASSERT_TRUE(prog.valid());
  std::vector<bpf::Link> links;
  {
    TickTimers timers;
    for (int i = 0; i < 3; ++i) links.push_back(std::move(*timers.start(prog.get(), 1000000)));
  }  // joins: would hang if the threads ignored the owner
  SUCCEED();
}

TEST(TickTimers, TheThreadKeepsItsProgram) {
  if (geteuid() != 0) GTEST_SKIP() << "loading a program needs root";
  dtrace::Fd stats(bpf_enable_stats(BPF_STATS_RUN_TIME));
  if (!stats.valid()) GTEST_SKIP() << "BPF run-time stats unavailable";
  dtrace::Fd prog = loadTrivialRawTracepoint();
  ASSERT_TRUE(prog.valid());
  bpf_prog_info info{};
  uint32_t len = sizeof info;
  ASSERT_EQ(bpf_obj_get_info_by_fd(prog.get(), &info, &len), 0);
  TickTimers timers;
  Result<bpf::Link> link = timers.start(prog.get(), 1000000);
  ASSERT_TRUE(link.ok());
  prog.reset();  // the caller's reference is gone; the thread has its own
  dtrace::Fd again(bpf_prog_get_fd_by_id(info.id));
  ASSERT_TRUE(again.valid());
  EXPECT_TRUE(waitUntil([&] {
    bpf_prog_info now{};
    uint32_t n = sizeof now;
    return bpf_obj_get_info_by_fd(again.get(), &now, &n) == 0 && now.run_cnt >= 5;
  }));
}

}  // namespace
}  // namespace dtrace::providers
