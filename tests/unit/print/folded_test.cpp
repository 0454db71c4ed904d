#include "print/folded.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "print/stack_sample.h"

namespace dtrace::print {
namespace {

TEST(StackSample, DTraceStacksTurnRootFirst) {
  // As stack() records it: the probe's own function first.
  const std::vector<std::string> leafFirst = {
      "vmlinux`ksys_read+0x6f", "vmlinux`__x64_sys_read+0x19", "vmlinux`do_syscall_64+0x5b"};
  const StackSample sample = fromDTraceStack(leafFirst, 7);
  EXPECT_EQ(sample.frames,
            (std::vector<std::string>{"vmlinux`do_syscall_64", "vmlinux`__x64_sys_read",
                                      "vmlinux`ksys_read"}));
  EXPECT_EQ(sample.count, 7u);
}

TEST(StackSample, OnlyAHexOffsetAtTheEndIsDropped) {
  EXPECT_EQ(withoutOffset("libc.so.6`read+0x1e"), "libc.so.6`read");
  EXPECT_EQ(withoutOffset("vmlinux`f+0xABCdef"), "vmlinux`f");
  EXPECT_EQ(withoutOffset("vmlinux`f"), "vmlinux`f");
  EXPECT_EQ(withoutOffset("0xffffffff81000000"), "0xffffffff81000000");  // an address
  EXPECT_EQ(withoutOffset("f+0x"), "f+0x");
  EXPECT_EQ(withoutOffset("operator+0xzz"), "operator+0xzz");
  EXPECT_EQ(withoutOffset("+0x10"), "+0x10");
}

TEST(Folded, OneLineRootFirstThenTheCount) {
  StackSample sample{{"bash", "main", "execute_command"}, 12};
  std::string out;
  appendFoldedLine(out, sample);
  EXPECT_EQ(out, "bash;main;execute_command 12\n");
}

TEST(Folded, FromADTraceStackTheLeafComesLast) {
  const std::vector<std::string> leafFirst = {"leaf+0x1", "middle+0x2", "root+0x3"};
  std::string out;
  appendFoldedLine(out, fromDTraceStack(leafFirst, 3));
  EXPECT_EQ(out, "root;middle;leaf 3\n");
}

TEST(Folded, NamesCannotBreakTheFormat) {
  EXPECT_EQ(foldedFrameName("a;b"), "a_b");
  EXPECT_EQ(foldedFrameName("line\nbreak\r"), "line_break_");
  EXPECT_EQ(foldedFrameName("tab\there\x7f"), "tab_here_");
  EXPECT_EQ(foldedFrameName(""), "[unknown]");
  // Spaces are fine: readers take the count after the last one.
  EXPECT_EQ(foldedFrameName("operator new(unsigned long)"), "operator new(unsigned long)");
  EXPECT_EQ(foldedFrameName("caf\xC3\xA9"), "caf\xC3\xA9");

  std::string out;
  appendFoldedLine(out, StackSample{{"x;y\n", "", "z"}, 1});
  EXPECT_EQ(out, "x_y_;[unknown];z 1\n");
}

TEST(Folded, AStackWithoutFramesKeepsItsCount) {
  std::string out;
  appendFoldedLine(out, StackSample{{}, 5});
  EXPECT_EQ(out, "[unknown] 5\n");
}

TEST(Folded, CountsAreExactSixtyFourBitIntegers) {
  std::string out;
  appendFoldedLine(out, StackSample{{"f"}, 18446744073709551615ull});
  EXPECT_EQ(out, "f 18446744073709551615\n");
}

TEST(Folded, ALinePerSampleWithACountInOrder) {
  const std::vector<StackSample> samples = {{{"a", "b"}, 2}, {{"c"}, 0}, {{"a"}, 1}};
  EXPECT_EQ(foldedStacks(samples), "a;b 2\na 1\n");
  EXPECT_EQ(foldedStacks({}), "");
}

}  // namespace
}  // namespace dtrace::print
