// A uprobe and a uretprobe on a function of this very test binary.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "bpf/attach.h"
#include "bpf/map.h"
#include "bpf/program.h"
#include "test_programs.h"

extern "C" __attribute__((noinline)) int dtraceBpfUprobeTarget(int x) {
  asm volatile("" ::: "memory");
  return x * 2 + 1;
}

namespace dtrace::bpf {
namespace {

struct FileLocation {
  std::string path;
  uint64_t offset = 0;
};

// Where the code at `address` lives on disk, from /proc/self/maps.
bool locate(uintptr_t address, FileLocation* out) {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line)) {
    uint64_t start = 0, end = 0, offset = 0;
    char perms[8] = {};
    int pathStart = 0;
    if (sscanf(line.c_str(), "%" SCNx64 "-%" SCNx64 " %7s %" SCNx64 " %*s %*s %n", &start, &end,
               perms, &offset, &pathStart) < 4) {
      continue;
    }
    if (address < start || address >= end || pathStart == 0) continue;
    out->path = line.substr(pathStart);
    out->offset = address - start + offset;
    return true;
  }
  return false;
}

int (*volatile target)(int) = dtraceBpfUprobeTarget;

TEST(UprobeTest, EntryAndReturnProbesFire) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root";
  ASSERT_TRUE(prepareProcess().ok());
  FileLocation where;
  ASSERT_TRUE(locate(reinterpret_cast<uintptr_t>(&dtraceBpfUprobeTarget), &where));

  auto counter = Map::create(BPF_MAP_TYPE_ARRAY, "uprobe_count", 4, 8, 1);
  ASSERT_TRUE(counter.ok());
  auto entry =
      Program::load(BPF_PROG_TYPE_KPROBE, "uprobe_entry", testing::countingProgram(counter->fd()));
  ASSERT_TRUE(entry.ok()) << entry.error().message;

  // The return probe stores the return value (pt_regs->ax, offset 80 on
  // x86_64) at key 0.
  auto result = Map::create(BPF_MAP_TYPE_ARRAY, "uprobe_ret", 4, 8, 1);
  ASSERT_TRUE(result.ok());
  Assembler a;
  Label out = a.newLabel();
  a.emit(ldx(Size::DW, R6, R1, 80));
  a.emit(st(Size::W, R10, -4, 0));
  a.emit(mov64(R2, R10));
  a.emit(alu64(BPF_ADD, R2, -4));
  a.emit(ldMapFd(R1, result->fd()));
  a.emit(call(BPF_FUNC_map_lookup_elem));
  a.jumpIf(BPF_JEQ, R0, 0, out);
  a.emit(stx(Size::DW, R0, 0, R6));
  a.bind(out);
  a.emit(mov64(R0, 0));
  a.emit(exit());
  auto retInsns = a.finish();
  ASSERT_TRUE(retInsns.ok());
  auto ret = Program::load(BPF_PROG_TYPE_KPROBE, "uprobe_return", *retInsns);
  ASSERT_TRUE(ret.ok()) << ret.error().message;

  const uint32_t key = 0;
  uint64_t count = 0, returned = 0;
  {
    auto entryLink = attachUprobe(entry->fd(), where.path, {where.offset}, false, -1);
    ASSERT_TRUE(entryLink.ok()) << entryLink.error().message;
    auto returnLink = attachUprobe(ret->fd(), where.path, {where.offset}, true, getpid());
    ASSERT_TRUE(returnLink.ok()) << returnLink.error().message;
    for (int i = 0; i < 5; ++i) target(i);
    ASSERT_TRUE(counter->lookup(&key, &count));
    EXPECT_EQ(count, 5u);
    ASSERT_TRUE(result->lookup(&key, &returned));
    EXPECT_EQ(returned, 9u);  // 4 * 2 + 1
  }
  target(100);
  ASSERT_TRUE(counter->lookup(&key, &count));
  EXPECT_EQ(count, 5u);
  ASSERT_TRUE(result->lookup(&key, &returned));
  EXPECT_EQ(returned, 9u);
}

TEST(UprobeTest, MissingBinaryIsAnError) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root";
  auto link = attachUprobe(-1, "/no/such/binary", {0x1000}, false, -1);
  ASSERT_FALSE(link.ok());
  EXPECT_NE(link.error().message.find("/no/such/binary"), std::string::npos);
}

}  // namespace
}  // namespace dtrace::bpf
