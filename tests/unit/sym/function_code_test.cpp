#include "sym/function_code.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace dtrace::sym {
namespace {

TEST(FunctionCodeTest, InstructionBoundariesAndReturns) {
  // push %rbp; mov %rsp,%rbp; test %edi,%edi; je +1; ret; pop %rbp; ret
  const std::vector<uint8_t> code = {0x55, 0x48, 0x89, 0xe5, 0x85, 0xff, 0x74,
                                     0x01, 0xc3, 0x5d, 0xc3};
  FunctionCode f = decodeFunctionBytes(code.data(), code.size(), 0x1000);
  EXPECT_EQ(f.instructions, (std::vector<uint32_t>{0, 1, 4, 6, 8, 9, 10}));
  EXPECT_EQ(f.returns, (std::vector<uint32_t>{8, 10}));
  EXPECT_FALSE(f.truncated);
}

TEST(FunctionCodeTest, JumpOutOfTheFunctionIsATailCallReturn) {
  // jmp +0 (to the next byte, inside); jmp -0x100 (outside)
  const std::vector<uint8_t> code = {0xeb, 0x00, 0xe9, 0x00, 0xff, 0xff, 0xff};
  FunctionCode f = decodeFunctionBytes(code.data(), code.size(), 0x2000);
  EXPECT_EQ(f.instructions, (std::vector<uint32_t>{0, 2}));
  EXPECT_EQ(f.returns, (std::vector<uint32_t>{2}));
}

TEST(FunctionCodeTest, UprobesRefuseLockVexAndHlt) {
  const uint8_t push[] = {0x55};
  const uint8_t nop16[] = {0x66, 0x90};
  const uint8_t lockDec[] = {0xf0, 0xff, 0x0f};
  const uint8_t vmovd[] = {0xc5, 0xf9, 0x6e, 0xc6};
  const uint8_t hlt[] = {0xf4};
  const uint8_t int3[] = {0xcc};
  EXPECT_TRUE(uprobeCanTrap(push, sizeof push));
  EXPECT_TRUE(uprobeCanTrap(nop16, sizeof nop16));
  EXPECT_FALSE(uprobeCanTrap(lockDec, sizeof lockDec));
  EXPECT_FALSE(uprobeCanTrap(vmovd, sizeof vmovd));
  EXPECT_FALSE(uprobeCanTrap(hlt, sizeof hlt));
  EXPECT_FALSE(uprobeCanTrap(int3, sizeof int3));
}

TEST(FunctionCodeTest, UndecodableBytesStopDecoding) {
  const std::vector<uint8_t> code = {0x55, 0x48, 0x89};  // push, then a cut-off mov
  FunctionCode f = decodeFunctionBytes(code.data(), code.size(), 0);
  EXPECT_EQ(f.instructions, (std::vector<uint32_t>{0}));
  EXPECT_TRUE(f.truncated);
}

}  // namespace
}  // namespace dtrace::sym
