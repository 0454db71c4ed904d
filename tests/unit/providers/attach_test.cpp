// Attaching real (small) BPF programs through each provider, as root.
// Firings are counted with the kernel's per-program run counter, or by a
// program that counts its own process's events in an array map.
#include <bpf/bpf.h>
#include <gtest/gtest.h>
#include <linux/bpf.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "bpf/assembler.h"
#include "bpf/map.h"
#include "bpf/program.h"
#include "providers/catalog.h"
#include "providers/description.h"
#include "providers/syscall_dispatch.h"
#include "providers/syscall_numbers.h"
#include "util/fd.h"

namespace dtrace::providers {
namespace {

using namespace bpf;

// r0 = 0; exit
Fd loadTrivial(bpf_prog_type type) {
  struct bpf_insn insns[2] = {};
  insns[0].code = BPF_ALU64 | BPF_MOV | BPF_K;
  insns[0].dst_reg = BPF_REG_0;
  insns[1].code = BPF_JMP | BPF_EXIT;
  return Fd(bpf_prog_load(type, "provtest", "GPL", insns, 2, nullptr));
}

uint64_t runCount(int progFd) {
  bpf_prog_info info{};
  uint32_t len = sizeof(info);
  if (bpf_obj_get_info_by_fd(progFd, &info, &len) != 0) return 0;
  return info.run_cnt;
}

// A raw-tracepoint program that, for events of this process, adds 1 to the
// u64 at key 0 of `counts` and stores ctx[ctxWord] at key 1. A syscall
// probe's program starts, as dtrace's do, with the guard that keeps other
// system calls (and ia32 ones) out.
std::vector<Insn> countingProgram(int mapFd, int16_t ctxWord, const Probe* syscallProbe) {
  Assembler a;
  Label out = a.newLabel();
  if (syscallProbe != nullptr) {
    syscallProbeGuard(
        a, syscallProbe->name == "entry" ? SyscallDirection::Entry : SyscallDirection::Return,
        syscallProbe->syscallNumber, out, false);
  }
  a.emit(mov64(R6, R1));
  a.emit(call(BPF_FUNC_get_current_pid_tgid));
  a.emit(alu64(BPF_RSH, R0, 32));
  a.jumpIf(BPF_JNE, R0, static_cast<int32_t>(getpid()), out);
  a.emit(st(Size::W, R10, -4, 0));
  a.emit(mov64(R2, R10));
  a.emit(alu64(BPF_ADD, R2, -4));
  a.emit(ldMapFd(R1, mapFd));
  a.emit(call(BPF_FUNC_map_lookup_elem));
  a.jumpIf(BPF_JEQ, R0, 0, out);
  a.emit(mov64(R1, 1));
  a.emit(atomicAdd64(R0, 0, R1));
  a.emit(st(Size::W, R10, -4, 1));
  a.emit(mov64(R2, R10));
  a.emit(alu64(BPF_ADD, R2, -4));
  a.emit(ldMapFd(R1, mapFd));
  a.emit(call(BPF_FUNC_map_lookup_elem));
  a.jumpIf(BPF_JEQ, R0, 0, out);
  a.emit(ldx(Size::DW, R1, R6, static_cast<int16_t>(8 * ctxWord)));
  a.emit(stx(Size::DW, R0, 0, R1));
  a.bind(out);
  a.emit(mov64(R0, 0));
  a.emit(exit());
  return a.finish().value();
}

struct Counter {
  Map map;
  Program program;

  static Counter make(int16_t ctxWord, const Probe* syscallProbe = nullptr) {
    Result<Map> map = Map::create(BPF_MAP_TYPE_ARRAY, "provtest", 4, 8, 2);
    Result<Program> prog = Program::load(BPF_PROG_TYPE_RAW_TRACEPOINT, "provtest",
                                         countingProgram(map->fd(), ctxWord, syscallProbe));
    return Counter{std::move(*map), std::move(*prog)};
  }
  uint64_t at(uint32_t key) const {
    uint64_t v = 0;
    map.lookup(&key, &v);
    return v;
  }
  uint64_t count() const { return at(0); }
};

class ProviderAttach : public ::testing::Test {
 protected:
  void SetUp() override {
    if (geteuid() != 0) GTEST_SKIP() << "attaching needs root";
    stats_ = Fd(bpf_enable_stats(BPF_STATS_RUN_TIME));
    if (!stats_.valid()) GTEST_SKIP() << "BPF run-time stats unavailable";
  }

  const Probe* probe(const char* text) {
    Result<std::vector<const Probe*>> r = catalog_.match(*splitProbeDescription(text));
    EXPECT_TRUE(r.ok() && r->size() == 1) << text;
    return r.ok() && r->size() == 1 ? r->front() : nullptr;
  }

  ProbeCatalog catalog_;
  Fd stats_;
};

TEST_F(ProviderAttach, SyscallEntryCountsThisProcessAndStopsWithItsLink) {
  const Probe* p = probe("syscall::getppid:entry");
  ASSERT_NE(p, nullptr);
  ASSERT_EQ(p->progType, BPF_PROG_TYPE_RAW_TRACEPOINT);
  Counter counter = Counter::make(1, p);  // ctx[1]: the system call number
  {
    Result<std::vector<Link>> links = catalog_.attach(*p, counter.program.fd());
    ASSERT_TRUE(links.ok()) << links.error().message;
    for (int i = 0; i < 10; ++i) syscall(SYS_getppid);
    EXPECT_EQ(counter.count(), 10u);
    EXPECT_EQ(counter.at(1), static_cast<uint64_t>(SYS_getppid));
    syscall(SYS_getpid);  // another call: not dispatched to this program
    EXPECT_EQ(counter.count(), 10u);
  }
  // Detached with the links: no more firings.
  for (int i = 0; i < 10; ++i) syscall(SYS_getppid);
  EXPECT_EQ(counter.count(), 10u);
}

TEST_F(ProviderAttach, SyscallReturnSeesTheReturnValue) {
  const Probe* p = probe("syscall::getppid:return");
  ASSERT_NE(p, nullptr);
  Counter counter = Counter::make(1, p);  // ctx[1]: the return value
  Result<std::vector<Link>> links = catalog_.attach(*p, counter.program.fd());
  ASSERT_TRUE(links.ok()) << links.error().message;
  for (int i = 0; i < 5; ++i) syscall(SYS_getppid);
  EXPECT_EQ(counter.count(), 5u);
  EXPECT_EQ(counter.at(1), static_cast<uint64_t>(getppid()));
}

TEST_F(ProviderAttach, SyscallEntryAndReturnTogether) {
  const Probe* entry = probe("syscall::getppid:entry");
  const Probe* ret = probe("syscall::getppid:return");
  const Probe* other = probe("syscall::getpid:entry");
  ASSERT_TRUE(entry && ret && other);
  Counter e = Counter::make(1, entry), r = Counter::make(1, ret), o = Counter::make(1, other);
  std::vector<Link> links;
  for (auto [p, c] : {std::pair{entry, &e}, std::pair{ret, &r}, std::pair{other, &o}}) {
    Result<std::vector<Link>> l = catalog_.attach(*p, c->program.fd());
    ASSERT_TRUE(l.ok()) << l.error().message;
    for (Link& x : *l) links.push_back(std::move(x));
  }
  for (int i = 0; i < 3; ++i) syscall(SYS_getppid);
  for (int i = 0; i < 4; ++i) syscall(SYS_getpid);
  EXPECT_EQ(e.count(), 3u);
  EXPECT_EQ(r.count(), 3u);
  EXPECT_EQ(o.count(), 4u);
}

TEST_F(ProviderAttach, SyscallReattachAfterDetachDoesNotReviveOldProbes) {
  const Probe* getppidEntry = probe("syscall::getppid:entry");
  const Probe* getpidEntry = probe("syscall::getpid:entry");
  ASSERT_TRUE(getppidEntry && getpidEntry);
  Counter first = Counter::make(1, getppidEntry), second = Counter::make(1, getpidEntry);
  {
    Result<std::vector<Link>> links = catalog_.attach(*getppidEntry, first.program.fd());
    ASSERT_TRUE(links.ok()) << links.error().message;
    syscall(SYS_getppid);
  }
  Result<std::vector<Link>> links = catalog_.attach(*getpidEntry, second.program.fd());
  ASSERT_TRUE(links.ok()) << links.error().message;
  syscall(SYS_getppid);
  syscall(SYS_getpid);
  EXPECT_EQ(first.count(), 1u);
  EXPECT_EQ(second.count(), 1u);
}

#if defined(__x86_64__)
// ia32 call 64 is getppid; x86-64 call 64 is semget.
long ia32Getppid() {
  long ret = 64;
  asm volatile("int $0x80" : "+a"(ret) : : "memory", "r8", "r9", "r10", "r11");
  return ret;
}

// Whether this kernel runs ia32 system calls: without ia32 emulation
// (ia32_emulation=0, or a guest that has none) int $0x80 kills the caller.
bool ia32SystemCallsRun() {
  const pid_t child = fork();
  if (child == 0) _exit(ia32Getppid() == getppid() ? 0 : 1);
  int status = 0;
  return child > 0 && waitpid(child, &status, 0) == child && WIFEXITED(status) &&
         WEXITSTATUS(status) == 0;
}

TEST_F(ProviderAttach, Ia32SystemCallsAreNotDispatched) {
  if (!ia32SystemCallsRun()) GTEST_SKIP() << "this kernel has no ia32 system calls";
  const Probe* semget = probe("syscall::semget:entry");
  ASSERT_NE(semget, nullptr);
  // The first on the raw tracepoint itself, the second from the dispatcher.
  Counter direct = Counter::make(1, semget), dispatched = Counter::make(1, semget);
  Result<std::vector<Link>> first = catalog_.attach(*semget, direct.program.fd());
  ASSERT_TRUE(first.ok()) << first.error().message;
  Result<std::vector<Link>> second = catalog_.attach(*semget, dispatched.program.fd());
  ASSERT_TRUE(second.ok()) << second.error().message;
  EXPECT_EQ(ia32Getppid(), getppid());  // it did run, as ia32 getppid
  EXPECT_EQ(direct.count(), 0u);
  EXPECT_EQ(dispatched.count(), 0u);
  syscall(SYS_semget, 0, -1, 0);  // EINVAL, but a semget all the same
  EXPECT_EQ(direct.count(), 1u);
  EXPECT_EQ(dispatched.count(), 1u);
}
#endif

TEST_F(ProviderAttach, BeginEndErrorAreRunNotAttached) {
  for (const char* name : {"BEGIN", "END", "ERROR"}) {
    const Probe* p = probe(name);
    ASSERT_NE(p, nullptr);
    ASSERT_EQ(p->progType, BPF_PROG_TYPE_RAW_TRACEPOINT);
    ASSERT_TRUE(catalog_.describeArgs(*p).ok());
    ASSERT_EQ(p->args.size(), 6u);
    // ERROR's arg5 is the faulting address, from the fault record it follows.
    const bool error = std::string(name) == "ERROR";
    EXPECT_EQ(p->args[5].kind, error ? ArgSource::Kind::FaultRecord : ArgSource::Kind::None);
    EXPECT_EQ(p->args[5].offset, error ? 8 : 0);
    Counter counter = Counter::make(1);
    Result<std::vector<Link>> links = catalog_.attach(*p, counter.program.fd());
    ASSERT_TRUE(links.ok()) << name << ": " << links.error().message;
    EXPECT_TRUE(links->empty());
    const uint64_t args[6] = {0, 7, 2, 3, 4, 5};
    ASSERT_TRUE(counter.program.run(args).ok());
    EXPECT_EQ(counter.count(), 1u) << name;
    EXPECT_EQ(counter.at(1), 7u) << name;  // arg1: the EPID for ERROR
  }
}

TEST_F(ProviderAttach, TickFiresAtItsRateOnAnIdleMachine) {
  const Probe* p = probe("profile:::tick-10ms");
  ASSERT_NE(p, nullptr);
  ASSERT_EQ(p->progType, BPF_PROG_TYPE_RAW_TRACEPOINT);
  Fd prog = loadTrivial(p->progType);
  ASSERT_TRUE(prog.valid());
  {
    Result<std::vector<Link>> links = catalog_.attach(*p, prog.get());
    ASSERT_TRUE(links.ok()) << links.error().message;
    std::this_thread::sleep_for(std::chrono::seconds(1));
    // About 100; a loaded machine (tests run in parallel) may delay some
    // firings, and a perf timer on an idle CPU would give 0-1.
    const uint64_t n = runCount(prog.get());
    EXPECT_GE(n, 50u);
    EXPECT_LE(n, 101u);
  }
  // Dropping the links stops the timer (a firing in progress may finish).
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  const uint64_t after = runCount(prog.get());
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(runCount(prog.get()), after);
}

TEST_F(ProviderAttach, ProfileOpensOneEventPerCpu) {
  const Probe* p = probe("profile:::profile-997");
  ASSERT_NE(p, nullptr);
  Fd prog = loadTrivial(p->progType);
  ASSERT_TRUE(prog.valid());
  Result<std::vector<Link>> links = catalog_.attach(*p, prog.get());
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
