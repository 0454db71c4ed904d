// Attaching real (trivial) BPF programs through each provider, as root.
// Firings are counted with the kernel's per-program run counter.
#include <bpf/bpf.h>
#include <gtest/gtest.h>
#include <linux/bpf.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "bpf/fd.h"
#include "providers/catalog.h"
#include "providers/description.h"
#include "providers/dtrace_provider.h"

namespace dtrace::providers {
namespace {

// r0 = 0; exit
bpf::Fd loadTrivial(bpf_prog_type type) {
  struct bpf_insn insns[2] = {};
  insns[0].code = BPF_ALU64 | BPF_MOV | BPF_K;
  insns[0].dst_reg = BPF_REG_0;
  insns[1].code = BPF_JMP | BPF_EXIT;
  return bpf::Fd(bpf_prog_load(type, "provtest", "GPL", insns, 2, nullptr));
}

uint64_t runCount(int progFd) {
  bpf_prog_info info{};
  uint32_t len = sizeof(info);
  if (bpf_obj_get_info_by_fd(progFd, &info, &len) != 0) return 0;
  return info.run_cnt;
}

class ProviderAttach : public ::testing::Test {
 protected:
  void SetUp() override {
    if (geteuid() != 0) GTEST_SKIP() << "attaching needs root";
    stats_ = bpf::Fd(bpf_enable_stats(BPF_STATS_RUN_TIME));
    if (!stats_.valid()) GTEST_SKIP() << "BPF run-time stats unavailable";
  }

  const Probe* probe(const char* text) {
    Result<std::vector<const Probe*>> r = catalog_.match(*splitProbeDescription(text));
    EXPECT_TRUE(r.ok() && r->size() == 1) << text;
    return r.ok() && r->size() == 1 ? r->front() : nullptr;
  }

  ProbeCatalog catalog_;
  bpf::Fd stats_;
};

TEST_F(ProviderAttach, SyscallEntry) {
  const Probe* p = probe("syscall::getppid:entry");
  ASSERT_NE(p, nullptr);
  bpf::Fd prog = loadTrivial(p->progType);
  ASSERT_TRUE(prog.valid());
  {
    Result<std::vector<bpf::Link>> links = catalog_.attach(*p, prog.get());
    ASSERT_TRUE(links.ok()) << links.error().message;
    for (int i = 0; i < 10; ++i) syscall(SYS_getppid);
    EXPECT_GE(runCount(prog.get()), 10u);
  }
  // Detached with the links: no more firings.
  const uint64_t after = runCount(prog.get());
  for (int i = 0; i < 10; ++i) syscall(SYS_getppid);
  EXPECT_EQ(runCount(prog.get()), after);
}

TEST_F(ProviderAttach, SyscallReturn) {
  const Probe* p = probe("syscall::getppid:return");
  ASSERT_NE(p, nullptr);
  bpf::Fd prog = loadTrivial(p->progType);
  ASSERT_TRUE(prog.valid());
  Result<std::vector<bpf::Link>> links = catalog_.attach(*p, prog.get());
  ASSERT_TRUE(links.ok()) << links.error().message;
  for (int i = 0; i < 5; ++i) syscall(SYS_getppid);
  EXPECT_GE(runCount(prog.get()), 5u);
}

TEST_F(ProviderAttach, BeginEndError) {
  for (const char* name : {"BEGIN", "END", "ERROR"}) {
    const Probe* p = probe(name);
    ASSERT_NE(p, nullptr);
    bpf::Fd prog = loadTrivial(p->progType);
    ASSERT_TRUE(prog.valid());
    Result<std::vector<bpf::Link>> links = catalog_.attach(*p, prog.get());
    ASSERT_TRUE(links.ok()) << name << ": " << links.error().message;
    fireBegin();
    fireEnd();
    fireError(0, 1, 2, 3, 4, 5);
    EXPECT_EQ(runCount(prog.get()), 1u) << name;
  }
}

TEST_F(ProviderAttach, TickFiresAtItsRateOnAnIdleMachine) {
  const Probe* p = probe("profile:::tick-10ms");
  ASSERT_NE(p, nullptr);
  bpf::Fd prog = loadTrivial(p->progType);
  ASSERT_TRUE(prog.valid());
  {
    Result<std::vector<bpf::Link>> links = catalog_.attach(*p, prog.get());
    ASSERT_TRUE(links.ok()) << links.error().message;
    std::this_thread::sleep_for(std::chrono::seconds(1));
    const uint64_t n = runCount(prog.get());
    EXPECT_GE(n, 90u);
    EXPECT_LE(n, 101u);
  }
  // Dropping the links stops the timer.
  const uint64_t after = runCount(prog.get());
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(runCount(prog.get()), after);
}

TEST_F(ProviderAttach, ProfileOpensOneEventPerCpu) {
  const Probe* p = probe("profile:::profile-997");
  ASSERT_NE(p, nullptr);
  bpf::Fd prog = loadTrivial(p->progType);
  ASSERT_TRUE(prog.valid());
  Result<std::vector<bpf::Link>> links = catalog_.attach(*p, prog.get());
  ASSERT_TRUE(links.ok()) << links.error().message;
  EXPECT_EQ(links->size(), static_cast<size_t>(sysconf(_SC_NPROCESSORS_ONLN)));
  // Keep this CPU busy so that its cpu-clock event certainly fires.
  const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(200);
  while (std::chrono::steady_clock::now() < end) {
  }
  EXPECT_GT(runCount(prog.get()), 0u);
}

TEST_F(ProviderAttach, FbtRefuses) {
  Result<std::vector<const Probe*>> r = catalog_.match(*splitProbeDescription("fbt:::"));
  EXPECT_FALSE(r.ok());
}

}  // namespace
}  // namespace dtrace::providers
