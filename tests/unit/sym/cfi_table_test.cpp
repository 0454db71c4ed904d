#include "sym/cfi_table.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "sym/object_file.h"
#include "test_support.h"

namespace dtrace::sym {
namespace {

using test_support::nmValue;
using test_support::run;
using test_support::TempDir;
using Rule = CfiRow::Rule;

constexpr const char* kLibc = "/lib/x86_64-linux-gnu/libc.so.6";

// The row a lookup finds for `pc`: the last one at or below it.
CfiRow rowAt(const std::vector<CfiRow>& rows, uint64_t pc) {
  auto it = std::upper_bound(rows.begin(), rows.end(), pc,
                             [](uint64_t a, const CfiRow& r) { return a < r.address; });
  return it == rows.begin() ? CfiRow{} : *std::prev(it);
}

CfiRow row(uint64_t address, Rule rule, int32_t cfaOffset, int32_t bpOffset = 0) {
  return CfiRow{address, rule, cfaOffset, bpOffset};
}

// A shared object built from C source with gcc and `flags`.
std::string compile(const TempDir& dir, const std::string& source, const std::string& flags) {
  const std::string c = dir.file("code.c"), so = dir.file("code.so");
  std::ofstream(c) << source;
  run("gcc " + flags + " -fcf-protection=none -fPIC -shared -o " + so + " " + c + " && echo ok");
  return so;
}

// The rows readelf's frames-interp table gives for the FDE starting at
// `start`, as compileCfi should compile them (equal neighbours merged).
std::vector<CfiRow> readelfRows(const std::string& file, uint64_t start) {
  std::istringstream table(run("readelf --debug-dump=frames-interp " + file));
  char fdeStart[32];
  std::snprintf(fdeStart, sizeof fdeStart, "pc=%016llx", static_cast<unsigned long long>(start));
  std::vector<CfiRow> rows;
  std::string line;
  while (std::getline(table, line) && line.find(fdeStart) == std::string::npos) {
  }
  std::getline(table, line);  // the header: LOC CFA <registers...> ra
  std::istringstream header(line);
  std::vector<std::string> columns;
  for (std::string c; header >> c;) columns.push_back(c);
  while (std::getline(table, line) && !line.empty()) {
    std::istringstream fields(line);
    std::vector<std::string> values;
    for (std::string v; fields >> v;) values.push_back(v);
    CfiRow r;
    r.address = std::stoull(values[0], nullptr, 16);
    const std::string& cfa = values[1];
    r.rule = cfa.rfind("rsp+", 0) == 0 ? Rule::SpOffset : Rule::BpOffset;
    r.cfaOffset = std::stoi(cfa.substr(4));
    for (size_t i = 2; i < columns.size(); i++) {
      if (columns[i] == "rbp" && values[i] != "u") r.bpOffset = std::stoi(values[i].substr(1));
      if (columns[i] == "ra") {
        EXPECT_EQ(values[i], "c-8");
      }
    }
    if (rows.empty() || rows.back().rule != r.rule || rows.back().cfaOffset != r.cfaOffset ||
        rows.back().bpOffset != r.bpOffset) {
      rows.push_back(r);
    }
  }
  return rows;
}

std::vector<CfiRow> rowsIn(const std::vector<CfiRow>& rows, uint64_t start, uint64_t end) {
  std::vector<CfiRow> inside;
  for (const CfiRow& r : rows) {
    if (r.address >= start && r.address < end) inside.push_back(r);
  }
  return inside;
}

TEST(CfiTableTest, LibcRowsAreSortedAndStartFunctionsAtRspPlus8) {
  auto rows = compileCfi(kLibc);
  ASSERT_TRUE(rows.ok()) << rows.error().message;
  ASSERT_GT(rows->size(), 1000u);
  for (size_t i = 1; i < rows->size(); i++) {
    ASSERT_LT((*rows)[i - 1].address, (*rows)[i].address) << i;
  }
  EXPECT_EQ(rows->back().rule, Rule::Unknown);  // where the last FDE ends
  auto libc = ObjectFile::load(kLibc);
  for (const char* name : {"getppid", "memcpy", "malloc"}) {
    auto function = libc->function(name);
    ASSERT_TRUE(function) << name;
    const CfiRow entry = rowAt(*rows, function->address);
    EXPECT_EQ(entry.rule, Rule::SpOffset) << name;
    EXPECT_EQ(entry.cfaOffset, 8) << name;
    EXPECT_EQ(entry.bpOffset, 0) << name;
  }
}

TEST(CfiTableTest, LibcSignalTrampolineIsASignalFrame) {
  auto rows = compileCfi(kLibc);
  ASSERT_TRUE(rows.ok()) << rows.error().message;
  EXPECT_TRUE(std::any_of(rows->begin(), rows->end(),
                          [](const CfiRow& r) { return r.rule == Rule::SignalFrame; }));
  // Named when libc's separate debug file (libc6-dbg) is installed.
  if (auto restore = ObjectFile::load(kLibc)->function("__restore_rt")) {
    EXPECT_EQ(rowAt(*rows, restore->address).rule, Rule::SignalFrame);
  }
}

TEST(CfiTableTest, FunctionWithoutFramePointerFollowsItsPushesAndFrame) {
  TempDir dir;
  const std::string so = compile(dir, R"(
int work(int *values, int count);
__attribute__((noinline)) int recurse(int n) {
  int local[64];
  for (int i = 0; i < 64; i++) local[i] = n * i;
  if (n <= 0) return work(local, 64);
  return recurse(n - 1) + work(local, 64);
}
)",
                                 "-O2 -fomit-frame-pointer");
  const uint64_t start = nmValue(so, "recurse");
  ASSERT_NE(start, 0u);
  auto rows = compileCfi(so);
  ASSERT_TRUE(rows.ok()) << rows.error().message;
  const std::vector<CfiRow> expected = readelfRows(so, start);
  ASSERT_GE(expected.size(), 3u);
  EXPECT_EQ(rowsIn(*rows, start, expected.back().address + 1), expected);
  // At the entry CFA = rsp+8; after the first push, rsp+16; then a frame.
  EXPECT_EQ(expected[0], row(start, Rule::SpOffset, 8));
  EXPECT_EQ(expected[1].rule, Rule::SpOffset);
  EXPECT_EQ(expected[1].cfaOffset, 16);
  EXPECT_GT(
      std::max_element(expected.begin(), expected.end(),
                       [](const CfiRow& a, const CfiRow& b) { return a.cfaOffset < b.cfaOffset; })
          ->cfaOffset,
      256);
}

TEST(CfiTableTest, FramePointerFunctionFindsItsCallerThroughRbp) {
  TempDir dir;
  const std::string so =
      compile(dir, "int framed(int x) { volatile int y = x; return y + 1; }\n", "-O0");
  const uint64_t start = nmValue(so, "framed");
  ASSERT_NE(start, 0u);
  auto rows = compileCfi(so);
  ASSERT_TRUE(rows.ok()) << rows.error().message;
  // push %rbp (1 byte); mov %rsp,%rbp (3 bytes)
  EXPECT_EQ(rowAt(*rows, start), row(start, Rule::SpOffset, 8));
  EXPECT_EQ(rowAt(*rows, start + 1), row(start + 1, Rule::SpOffset, 16, -16));
  EXPECT_EQ(rowAt(*rows, start + 4), row(start + 4, Rule::BpOffset, 16, -16));
  const std::vector<CfiRow> expected = readelfRows(so, start);
  EXPECT_EQ(rowsIn(*rows, start, expected.back().address + 1), expected);
}

// Code built without unwind tables, with debug information: only a
// .debug_frame describes it, in the object or in a separate debug file.
TEST(CfiTableTest, DebugFrameOwnOrInASeparateDebugFile) {
  TempDir dir;
  const std::string so = compile(dir, "int framed(int x) { volatile int y = x; return y + 1; }\n",
                                 "-O0 -g -fno-asynchronous-unwind-tables -fno-unwind-tables");
  ASSERT_EQ(run("readelf -S " + so + " | grep -c debug_frame"), "1\n");
  const uint64_t start = nmValue(so, "framed");
  ASSERT_NE(start, 0u);
  auto rows = compileCfi(so);
  ASSERT_TRUE(rows.ok()) << rows.error().message;
  const std::vector<CfiRow> expected = readelfRows(so, start);
  ASSERT_GE(expected.size(), 3u);  // entry, push %rbp, mov %rsp,%rbp, ...
  EXPECT_EQ(rowsIn(*rows, start, expected.back().address + 1), expected);

  // The debug file beside the object, named by its .gnu_debuglink.
  const std::string stripped = dir.file("stripped.so"), debug = dir.file("stripped.debug");
  ASSERT_NE(run("objcopy --only-keep-debug " + so + " " + debug + " && objcopy --strip-debug " +
                "--add-gnu-debuglink=" + debug + " " + so + " " + stripped + " && echo ok"),
            "");
  ASSERT_EQ(run("readelf -S " + stripped + " | grep -c debug_frame || true"), "0\n");
  auto separateRows = compileCfi(stripped);
  ASSERT_TRUE(separateRows.ok()) << separateRows.error().message;
  EXPECT_EQ(*separateRows, *rows);
}

TEST(CfiTableTest, GapsBetweenFunctionsAreUnknown) {
  auto rows = compileCfi(kLibc);
  ASSERT_TRUE(rows.ok()) << rows.error().message;
  // Unknown rows only where they separate known ones, never two in a row.
  for (size_t i = 1; i < rows->size(); i++) {
    EXPECT_FALSE((*rows)[i - 1] == (*rows)[i]);
    if ((*rows)[i].rule == Rule::Unknown) {
      EXPECT_NE((*rows)[i - 1].rule, Rule::Unknown) << i;
    }
  }
}

TEST(CfiTableTest, ObjectWithoutCfiHasNoRows) {
  TempDir dir;
  const std::string so =
      compile(dir, "int plain(int x) { return x + 1; }\n",
              "-O2 -nostdlib -fno-asynchronous-unwind-tables -fno-unwind-tables");
  // The linker leaves an empty .eh_frame: no FDE in it.
  ASSERT_EQ(run("readelf --debug-dump=frames " + so + " | grep -c FDE || true"), "0\n");
  auto rows = compileCfi(so);
  ASSERT_TRUE(rows.ok()) << rows.error().message;
  EXPECT_TRUE(rows->empty());
}

TEST(CfiTableTest, FileThatIsNotElfIsAnError) {
  TempDir dir;
  std::ofstream(dir.file("empty"));
  std::ofstream(dir.file("text")) << "not an object\n";
  EXPECT_FALSE(compileCfi(dir.file("empty")).ok());
  EXPECT_FALSE(compileCfi(dir.file("text")).ok());
  EXPECT_FALSE(compileCfi(dir.file("missing")).ok());
}

// Large objects compile whole: tens of thousands of rows, in order (their
// time and memory are measured in bench/cfi-unwind.sh, not asserted).
TEST(CfiTableTest, LargeObjectsCompileWhole) {
  for (const char* path : {kLibc, "/usr/bin/python3.11"}) {
    if (!std::ifstream(path)) continue;
    auto rows = compileCfi(path);
    ASSERT_TRUE(rows.ok()) << rows.error().message;
    EXPECT_GT(rows->size(), 10000u) << path;
    for (size_t i = 1; i < rows->size(); i++) {
      ASSERT_LT((*rows)[i - 1].address, (*rows)[i].address) << path;
    }
  }
}

}  // namespace
}  // namespace dtrace::sym
