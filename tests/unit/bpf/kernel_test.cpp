// Tests against the running kernel: they load real programs and maps, so
// they need root (CAP_BPF + CAP_PERFMON) and are skipped without it.
#include <bpf/bpf.h>
#include <gtest/gtest.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstring>
#include <map>
#include <vector>

#include "bpf/assembler.h"
#include "bpf/attach.h"
#include "bpf/disasm.h"
#include "bpf/map.h"
#include "bpf/program.h"
#include "bpf/ringbuf.h"
#include "test_programs.h"

namespace dtrace::bpf {
namespace {

class KernelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (geteuid() != 0) GTEST_SKIP() << "needs root";
    ASSERT_TRUE(prepareProcess().ok());
  }
};

void callGetppid(int times) {
  for (int i = 0; i < times; ++i) syscall(SYS_getppid);
}

uint64_t counterValue(const Map& map) {
  uint32_t key = 0;
  uint64_t value = 0;
  EXPECT_TRUE(map.lookup(&key, &value));
  return value;
}

TEST_F(KernelTest, TracepointCountsAndDetaches) {
  auto map = Map::create(BPF_MAP_TYPE_ARRAY, "test_counter", 4, 8, 1);
  ASSERT_TRUE(map.ok()) << map.error().message;
  auto insns = testing::countingProgram(map->fd());
  auto prog = Program::load(BPF_PROG_TYPE_TRACEPOINT, "syscall::getppid:entry", insns);
  ASSERT_TRUE(prog.ok()) << prog.error().message;
  auto id = tracepointId("syscalls", "sys_enter_getppid");
  ASSERT_TRUE(id.ok()) << id.error().message;
  {
    auto link = attachTracepoint(prog->fd(), *id);
    ASSERT_TRUE(link.ok()) << link.error().message;
    EXPECT_TRUE(link->attached());
    callGetppid(10);
    EXPECT_GE(counterValue(*map), 10u);
  }
  const uint64_t afterDetach = counterValue(*map);
  callGetppid(10);
  EXPECT_EQ(counterValue(*map), afterDetach);
}

TEST_F(KernelTest, DisassemblyNamesLiveMapsById) {
  auto map = Map::create(BPF_MAP_TYPE_ARRAY, "named", 4, 8, 1);
  ASSERT_TRUE(map.ok());
  bpf_map_info info{};
  uint32_t len = sizeof info;
  ASSERT_EQ(bpf_obj_get_info_by_fd(map->fd(), &info, &len), 0);
  auto wide = ldMapFd(R1, map->fd());
  EXPECT_EQ(disassemble(wide), "   0: (18) r1 = map[id:" + std::to_string(info.id) + "]\n");
}

TEST_F(KernelTest, UnknownTracepointIsAClearError) {
  auto id = tracepointId("syscalls", "sys_enter_no_such_call");
  ASSERT_FALSE(id.ok());
  EXPECT_NE(id.error().message.find("does not exist"), std::string::npos);
}

TEST_F(KernelTest, VerifierRejectionCarriesTheLog) {
  // r0 is never set before exit.
  const std::vector<Insn> insns = {exit()};
  std::string log;
  auto prog = Program::load(BPF_PROG_TYPE_TRACEPOINT, "bad", insns, &log);
  ASSERT_FALSE(prog.ok());
  const std::string& message = prog.error().message;
  EXPECT_EQ(message.substr(0, message.find('\n')), "Permission denied");
  EXPECT_NE(message.find("R0 !read_ok"), std::string::npos) << message;
  EXPECT_NE(log.find("R0 !read_ok"), std::string::npos) << log;
}

TEST_F(KernelTest, VerboseLoadFillsTheLog) {
  const std::vector<Insn> insns = {mov64(R0, 0), exit()};
  std::string log;
  auto prog = Program::load(BPF_PROG_TYPE_TRACEPOINT, "ok", insns, &log, true);
  ASSERT_TRUE(prog.ok()) << prog.error().message;
  EXPECT_FALSE(log.empty());
  EXPECT_EQ(prog->instructionCount(), 2u);
}

TEST_F(KernelTest, PerCpuHashRoundTrip) {
  auto map = Map::create(BPF_MAP_TYPE_PERCPU_HASH, "percpu", 8, 4, 16);
  ASSERT_TRUE(map.ok()) << map.error().message;
  const int cpus = Map::possibleCpus();
  ASSERT_GT(cpus, 0);
  ASSERT_EQ(map->valueBufferSize(), 8u * cpus);  // 4-byte values padded to 8 per CPU
  std::vector<uint64_t> values(cpus);
  for (int cpu = 0; cpu < cpus; ++cpu) values[cpu] = 100 + cpu;
  const uint64_t key = 7;
  ASSERT_TRUE(map->update(&key, values.data()).ok());
  std::vector<uint64_t> read(cpus);
  ASSERT_TRUE(map->lookup(&key, read.data()));
  for (int cpu = 0; cpu < cpus; ++cpu) EXPECT_EQ(static_cast<uint32_t>(read[cpu]), 100u + cpu);

  int visited = 0;
  ASSERT_TRUE(map->forEach([&](const void* k, const void* v) {
                   ++visited;
                   EXPECT_EQ(*static_cast<const uint64_t*>(k), key);
                   EXPECT_EQ(static_cast<const uint32_t*>(v)[2 * (cpus - 1)], 100u + cpus - 1);
                 })
                  .ok());
  EXPECT_EQ(visited, 1);

  EXPECT_TRUE(map->erase(&key));
  EXPECT_FALSE(map->erase(&key));
  EXPECT_FALSE(map->lookup(&key, read.data()));
  EXPECT_FALSE(map->update(&key, values.data(), BPF_EXIST).ok());
}

TEST_F(KernelTest, ForEachVisitsEveryEntryBothWays) {
  constexpr uint32_t kEntries = 5000;
  auto map = Map::create(BPF_MAP_TYPE_HASH, "many", 8, 8, kEntries);
  ASSERT_TRUE(map.ok()) << map.error().message;
  for (uint64_t k = 0; k < kEntries; ++k) {
    const uint64_t v = k * 3;
    ASSERT_TRUE(map->update(&k, &v).ok());
  }
  for (bool batched : {true, false}) {
    std::map<uint64_t, uint64_t> seen;
    auto collect = [&](const void* k, const void* v) {
      seen[*static_cast<const uint64_t*>(k)] = *static_cast<const uint64_t*>(v);
    };
    auto result = batched ? map->forEach(collect) : map->forEachByNextKey(collect);
    ASSERT_TRUE(result.ok()) << result.error().message;
    ASSERT_EQ(seen.size(), kEntries) << (batched ? "batched" : "by next key");
    for (const auto& [k, v] : seen) ASSERT_EQ(v, k * 3);
  }
  uint64_t first = 0;
  EXPECT_TRUE(map->nextKey(nullptr, &first));
  EXPECT_LT(first, kEntries);
}

TEST_F(KernelTest, MmapableArray) {
  auto map = Map::create(BPF_MAP_TYPE_ARRAY, "mmapped", 4, 64, 1, BPF_F_MMAPABLE);
  ASSERT_TRUE(map.ok()) << map.error().message;
  auto mem = map->mmapValue();
  ASSERT_TRUE(mem.ok()) << mem.error().message;
  std::memcpy(*mem, "hello", 6);
  char value[64] = {};
  const uint32_t key = 0;
  ASSERT_TRUE(map->lookup(&key, value));
  EXPECT_STREQ(value, "hello");
  Map moved = std::move(*map);
  auto again = moved.mmapValue();
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, *mem);
}

TEST_F(KernelTest, RingBufferRecordRoundTrip) {
  auto ring = Map::create(BPF_MAP_TYPE_RINGBUF, "principal", 0, 0, 64 * 1024);
  ASSERT_TRUE(ring.ok()) << ring.error().message;
  constexpr int32_t kMagic = 0x5eed;
  Assembler a;
  Label out = a.newLabel();
  a.emit(call(BPF_FUNC_get_current_pid_tgid));
  a.emit(mov64(R6, R0));
  a.emit(alu64(BPF_RSH, R0, 32));
  a.jumpIf(BPF_JNE, R0, static_cast<int32_t>(getpid()), out);
  a.emit(st(Size::DW, R10, -16, kMagic));
  a.emit(stx(Size::DW, R10, -8, R6));
  a.emit(ldMapFd(R1, ring->fd()));
  a.emit(mov64(R2, R10));
  a.emit(alu64(BPF_ADD, R2, -16));
  a.emit(mov64(R3, 16));
  a.emit(mov64(R4, 0));
  a.emit(call(BPF_FUNC_ringbuf_output));
  a.bind(out);
  a.emit(mov64(R0, 0));
  a.emit(exit());
  auto insns = a.finish();
  ASSERT_TRUE(insns.ok());
  std::string log;
  auto prog = Program::load(BPF_PROG_TYPE_TRACEPOINT, "ringbuf_test", *insns, &log);
  ASSERT_TRUE(prog.ok()) << prog.error().message;

  std::vector<std::pair<uint64_t, uint64_t>> records;
  auto rb = RingBuffer::open(ring->fd(), [&](const void* data, size_t size) {
    EXPECT_EQ(size, 16u);
    uint64_t fields[2];
    std::memcpy(fields, data, sizeof fields);
    records.emplace_back(fields[0], fields[1]);
    return 0;
  });
  ASSERT_TRUE(rb.ok()) << rb.error().message;
  EXPECT_GE(rb->epollFd(), 0);

  auto id = tracepointId("syscalls", "sys_enter_getppid");
  ASSERT_TRUE(id.ok());
  auto link = attachTracepoint(prog->fd(), *id);
  ASSERT_TRUE(link.ok()) << link.error().message;
  callGetppid(3);
  for (int tries = 0; tries < 20 && records.size() < 3; ++tries) {
    auto n = rb->poll(100);
    ASSERT_TRUE(n.ok()) << n.error().message;
  }
  link->detach();
  ASSERT_EQ(records.size(), 3u);
  for (const auto& [magic, pidTgid] : records) {
    EXPECT_EQ(magic, static_cast<uint64_t>(kMagic));
    EXPECT_EQ(pidTgid >> 32, static_cast<uint64_t>(getpid()));
  }
  auto drained = rb->consume();
  ASSERT_TRUE(drained.ok());
  EXPECT_EQ(*drained, 0);
}

}  // namespace
}  // namespace dtrace::bpf

namespace dtrace::bpf {
namespace {

TEST_F(KernelTest, RunFiresARawTracepointProgramDirectly) {
  // r0 = args[0] + args[1]
  const std::vector<Insn> insns = {ldx(Size::DW, R0, R1, 0), ldx(Size::DW, R2, R1, 8),
                                   alu64(BPF_ADD, R0, R2), exit()};
  auto prog = Program::load(BPF_PROG_TYPE_RAW_TRACEPOINT, "BEGIN", insns);
  ASSERT_TRUE(prog.ok()) << prog.error().message;
  const uint64_t args[] = {40, 2};
  auto r0 = prog->run(args);
  ASSERT_TRUE(r0.ok()) << r0.error().message;
  EXPECT_EQ(*r0, 42u);

  const std::vector<Insn> noArgs = {mov64(R0, 7), exit()};
  auto simple = Program::load(BPF_PROG_TYPE_RAW_TRACEPOINT, "END", noArgs);
  ASSERT_TRUE(simple.ok());
  auto seven = simple->run();
  ASSERT_TRUE(seven.ok()) << seven.error().message;
  EXPECT_EQ(*seven, 7u);
}

TEST_F(KernelTest, BpfLoopRunsACallbackFromLoadFunction) {
  // Sums 0..9 with bpf_loop: the callback adds its index to a stack slot
  // the context pointer names.
  Assembler a;
  Label callback = a.newLabel();
  a.emit(st(Size::DW, R10, -8, 0));
  a.emit(mov64(R1, 10));
  a.loadFunction(R2, callback);
  a.emit(mov64(R3, R10));
  a.emit(alu64(BPF_ADD, R3, -8));
  a.emit(mov64(R4, 0));
  a.emit(call(BPF_FUNC_loop));
  a.emit(ldx(Size::DW, R0, R10, -8));
  a.emit(exit());
  a.bind(callback);  // r1 = index, r2 = context
  a.emit(ldx(Size::DW, R3, R2, 0));
  a.emit(alu64(BPF_ADD, R3, R1));
  a.emit(stx(Size::DW, R2, 0, R3));
  a.emit(mov64(R0, 0));
  a.emit(exit());
  auto insns = a.finish();
  ASSERT_TRUE(insns.ok()) << insns.error().message;
  auto prog = Program::load(BPF_PROG_TYPE_RAW_TRACEPOINT, "loop", *insns);
  ASSERT_TRUE(prog.ok()) << prog.error().message;
  auto sum = prog->run();
  ASSERT_TRUE(sum.ok()) << sum.error().message;
  EXPECT_EQ(*sum, 45u);
}

TEST_F(KernelTest, RawTracepointCountsAndDetaches) {
  auto map = Map::create(BPF_MAP_TYPE_ARRAY, "raw_counter", 4, 8, 1);
  ASSERT_TRUE(map.ok());
  auto prog = Program::load(BPF_PROG_TYPE_RAW_TRACEPOINT, "raw_sys_enter",
                            testing::countingProgram(map->fd()));
  ASSERT_TRUE(prog.ok()) << prog.error().message;
  {
    auto link = attachRawTracepoint(prog->fd(), "sys_enter");
    ASSERT_TRUE(link.ok()) << link.error().message;
    EXPECT_GE(link->bpfLinkFd(), 0);
    callGetppid(10);
    EXPECT_GE(counterValue(*map), 10u);
  }
  const uint64_t afterDetach = counterValue(*map);
  callGetppid(10);
  EXPECT_EQ(counterValue(*map), afterDetach);
  EXPECT_FALSE(attachRawTracepoint(prog->fd(), "no_such_raw_tracepoint").ok());
}

}  // namespace
}  // namespace dtrace::bpf
