#include "sym/user_symbols.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <thread>

#include "sym/mapping_events.h"
#include "test_support.h"

// A function of this test program, named from its own symbol table.
extern "C" __attribute__((noinline)) int symTestKnownFunction(int x) { return x * 3 + 1; }

namespace dtrace::sym {
namespace {

namespace fs = std::filesystem;

uint64_t knownAddress() { return reinterpret_cast<uint64_t>(&symTestKnownFunction); }

// A child that waits to be killed, in a copy of this program's image.
pid_t forkWaitingChild() {
  const pid_t child = fork();
  if (child == 0) {
    pause();
    _exit(0);
  }
  return child;
}

void killAndReap(pid_t pid) {
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
}

// Runs `path arg` as a child.
pid_t spawn(const std::string& path, const char* arg) {
  const pid_t child = fork();
  if (child == 0) {
    execl(path.c_str(), path.c_str(), arg, static_cast<char*>(nullptr));
    _exit(127);
  }
  return child;
}

// The same, waiting until the exec happened.
pid_t spawnExec(const std::string& path, const char* arg) {
  const pid_t child = spawn(path, arg);
  const std::string exe = "/proc/" + std::to_string(child) + "/exe";
  for (int i = 0; i < 500; i++) {
    std::error_code ec;
    if (fs::read_symlink(exe, ec) == fs::path(path)) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return child;
}

using test_support::nmValue;
using test_support::run;
using test_support::TempDir;

const std::string kWorkload = std::string(DTRACE_WORKLOADS_DIR) + "/stacks";

TEST(ProcessMaps, ParsesMapsLines) {
  Mapping m;
  ASSERT_TRUE(
      parseMapsLine("7f0a1c028000-7f0a1c1bd000 r-xp 00028000 fe:01 1835013    "
                    "/usr/lib/x86_64-linux-gnu/libc.so.6",
                    m));
  EXPECT_EQ(m.start, 0x7f0a1c028000u);
  EXPECT_EQ(m.end, 0x7f0a1c1bd000u);
  EXPECT_EQ(m.offset, 0x28000u);
  EXPECT_EQ(m.inode, 1835013u);
  EXPECT_EQ(m.device, uint64_t{0xfe} << 32 | 0x01);
  EXPECT_TRUE(m.executable);
  EXPECT_TRUE(m.isFile());
  EXPECT_EQ(baseName(m.path), "libc.so.6");
  ASSERT_TRUE(
      parseMapsLine("55d0c0a00000-55d0c0a01000 r-xp 00001000 fe:01 42 /tmp/x (deleted)", m));
  EXPECT_EQ(m.path, "/tmp/x");
  ASSERT_TRUE(parseMapsLine("7ffd5b3f2000-7ffd5b3f4000 r-xp 00000000 00:00 0      [vdso]", m));
  EXPECT_FALSE(m.isFile());
  ASSERT_TRUE(parseMapsLine("7f0000000000-7f0000001000 rw-p 00000000 00:00 0 ", m));
  EXPECT_FALSE(m.executable);
  EXPECT_TRUE(m.path.empty());
  EXPECT_FALSE(parseMapsLine("not a mapping", m));
}

// A child that has exited but was not reaped has no mappings left: it is
// not a process there is anything to trace in.
TEST(ProcessMaps, AZombieDoesNotExist) {
  const pid_t child = forkWaitingChild();
  EXPECT_TRUE(processExists(child));
  EXPECT_FALSE(isZombie(child));
  kill(child, SIGKILL);
  siginfo_t info{};
  ASSERT_EQ(waitid(P_PID, static_cast<id_t>(child), &info, WEXITED | WNOWAIT), 0);
  EXPECT_TRUE(isZombie(child));
  EXPECT_FALSE(processExists(child));
  waitpid(child, nullptr, 0);
  EXPECT_FALSE(processExists(child));
}

TEST(UserSymbols, NamesAFunctionOfALiveProcess) {
  UserSymbols symbols;
  const UserSymbol s = symbols.lookup(getpid(), knownAddress() + 2);
  EXPECT_EQ(s.object, "unit_sym");
  EXPECT_EQ(s.function, "symTestKnownFunction");
  EXPECT_EQ(s.functionAddress, knownAddress());
}

// Mappings read while a process ran name its addresses after it exits.
TEST(UserSymbols, NamesAProcessThatHasExited) {
  UserSymbols symbols;
  const pid_t child = forkWaitingChild();
  symbols.notePid(child);
  killAndReap(child);
  const UserSymbol s = symbols.lookup(child, knownAddress() + 2);
  EXPECT_EQ(s.object, "unit_sym");
  EXPECT_EQ(s.function, "symTestKnownFunction");
}

// With the object gone too, the mapping still names the object (DTrace
// prints "object`0xaddress").
TEST(UserSymbols, KeepsTheObjectWhenItsFileIsGone) {
  TempDir dir;
  const std::string copy = dir.file("stackcopy");
  fs::copy_file(kWorkload, copy);
  const pid_t child = spawnExec(copy, "100000000");
  // The child may not have reached its exec yet on a busy machine.
  uint64_t text = 0;
  for (int tries = 0; text == 0 && tries < 500; tries++) {
    for (const Mapping& m : readExecutableMappings(child)) {
      if (m.path == copy) text = m.start;
    }
    if (text == 0) usleep(10000);
  }
  UserSymbols symbols;
  symbols.notePid(child);
  killAndReap(child);
  fs::remove(copy);
  ASSERT_NE(text, 0u);
  const UserSymbol s = symbols.lookup(child, text + 4);
  EXPECT_EQ(s.object, "stackcopy");
  EXPECT_TRUE(s.function.empty());
  EXPECT_TRUE(symbols.lookup(child, 0x10).object.empty());
}

// A process that runs and exits while events are followed is named from
// the kernel's account of its mappings.
TEST(MappingEvents, NameAShortLivedProcessAfterItExits) {
  auto events = MappingEvents::open();
  ASSERT_TRUE(events.ok()) << events.error().message;
  const pid_t child = spawn(kWorkload, "1");
  waitpid(child, nullptr, 0);
  UserSymbols symbols;
  Mapping text;
  bool execed = false;
  (*events)->drain([&](const MappingEvent& e) {
    symbols.apply(e);
    if (e.pid != child) return;
    if (e.kind == MappingEvent::Kind::Execed) execed = true;
    if (e.kind == MappingEvent::Kind::Mapped && e.mapping.path == kWorkload) text = e.mapping;
  });
  EXPECT_TRUE(execed);
  ASSERT_NE(text.start, 0u) << "no mapping event for " << kWorkload;
  // The text segment's addresses are its file offsets (ld lays it out so).
  const uint64_t middle = nmValue(kWorkload, "stack_middle");
  ASSERT_NE(middle, 0u);
  const UserSymbol s = symbols.lookup(child, text.start - text.offset + middle + 1);
  EXPECT_EQ(s.object, "stacks");
  EXPECT_EQ(s.function, "stack_middle");
}

// Symbols stripped into a separate debug file are found through the
// .gnu_debuglink section.
TEST(ObjectFile, ReadsSymbolsThroughDebugLink) {
  TempDir dir;
  const std::string debug = dir.file("stacks.debug"), linked = dir.file("stacks");
  if (run("objcopy --only-keep-debug '" + kWorkload + "' '" + debug + "' && objcopy --strip-all " +
          "--add-gnu-debuglink='" + debug + "' '" + kWorkload + "' '" + linked + "' && echo ok")
          .empty()) {
    GTEST_SKIP() << "objcopy failed";
  }
  ASSERT_TRUE(run("nm '" + linked + "' 2>/dev/null").empty());  // stripped
  const uint64_t middle = nmValue(kWorkload, "stack_middle");
  const auto object = ObjectFile::load(linked);  // the symbol's name is a view into it
  std::optional<FunctionSymbol> f = object->containing(middle + 1);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->name, "stack_middle");
}

// MiniDebugInfo: a stripped file with its function symbols in an
// xz-compressed ELF in .gnu_debugdata (as Fedora ships binaries).
TEST(ObjectFile, ReadsMiniDebugInfo) {
  TempDir dir;
  const std::string full = dir.file("full.debug"), mini = dir.file("mini"),
                    stripped = dir.file("stacks");
  if (run("objcopy --only-keep-debug '" + kWorkload + "' '" + full +
          "' && objcopy --strip-debug '" + full + "' '" + mini + "' && xz '" + mini +
          "' && objcopy --strip-all '" + kWorkload + "' '" + stripped +
          "' && objcopy --add-section .gnu_debugdata='" + mini + ".xz' '" + stripped + "' && rm '" +
          full + "' && echo ok")
          .empty()) {
    GTEST_SKIP() << "objcopy or xz failed";
  }
  const uint64_t leaf = nmValue(kWorkload, "stack_leaf");
  const auto object = ObjectFile::load(stripped);  // the symbol's name is a view into it
  std::optional<FunctionSymbol> f = object->containing(leaf + 3);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->name, "stack_leaf");
  EXPECT_EQ(f->address, leaf);
}

TEST(ObjectFile, UnreadableFileHasNoSymbols) {
  auto object = ObjectFile::load("/nonexistent/file");
  EXPECT_EQ(object->functionCount(), 0u);
  EXPECT_FALSE(object->containing(0x1000));
}

TEST(PerfMap, NamesJitCode) {
  PerfMap map = PerfMap::parse(
      "7f0000001000 40 LazyCompile:*fib /app/x.js:3\n"
      "garbage line\n"
      "7f0000002000 20 Interpreter\n"
      "7f0000001000 10 recompiled\n");
  std::optional<JitSymbol> j = map.containing(0x7f0000001008);
  ASSERT_TRUE(j);
  EXPECT_EQ(j->name, "recompiled");  // the later line wins
  EXPECT_EQ(j->address, 0x7f0000001000u);
  EXPECT_FALSE(map.containing(0x7f0000001010));
  ASSERT_TRUE(map.containing(0x7f000000201f));
  EXPECT_EQ(map.containing(0x7f000000201f)->name, "Interpreter");
  EXPECT_FALSE(map.containing(0x7f0000002020));
}

}  // namespace
}  // namespace dtrace::sym
