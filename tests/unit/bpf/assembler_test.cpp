#include "bpf/assembler.h"

#include <gtest/gtest.h>

namespace dtrace::bpf {
namespace {

TEST(AssemblerTest, ForwardAndBackwardJumps) {
  Assembler a;
  Label loop = a.newLabel();
  Label done = a.newLabel();
  a.emit(mov64(R0, 0));             // 0
  a.bind(loop);                     //
  a.jumpIf(BPF_JGE, R0, 10, done);  // 1 -> 5: off +3
  a.emit(alu64(BPF_ADD, R0, 1));    // 2
  a.emit(ldImm64(R1, 1));           // 3,4 (two slots)
  EXPECT_EQ(a.size(), 5u);
  a.bind(done);
  a.jumpIf(BPF_JEQ, R0, R1, loop);   // 5 -> 1: off -5
  a.jumpIf32(BPF_JNE, R0, 3, done);  // 6 -> 5: off -2
  a.jump(loop);                      // 7 -> 1: off -7
  a.emit(exit());                    // 8: unreachable, dropped
  Result<std::vector<Insn>> insns = a.finish();
  ASSERT_TRUE(insns.ok()) << insns.error().message;
  ASSERT_EQ(insns->size(), 8u);
  EXPECT_EQ((*insns)[1].off, 3);
  EXPECT_EQ((*insns)[1].code, BPF_JMP | BPF_JGE | BPF_K);
  EXPECT_EQ((*insns)[1].imm, 10);
  EXPECT_EQ((*insns)[5].off, -5);
  EXPECT_EQ((*insns)[5].code, BPF_JMP | BPF_JEQ | BPF_X);
  EXPECT_EQ((*insns)[5].src_reg, R1);
  EXPECT_EQ((*insns)[6].off, -2);
  EXPECT_EQ((*insns)[6].code, BPF_JMP32 | BPF_JNE | BPF_K);
  EXPECT_EQ((*insns)[7].off, -7);
  EXPECT_EQ((*insns)[7].code, BPF_JMP | BPF_JA);
}

// Code nothing reaches (after an unconditional fault) is removed and the
// jumps over it are shortened: the verifier refuses unreachable code.
TEST(AssemblerTest, UnreachableCodeIsDropped) {
  Assembler a;
  Label fault = a.newLabel(), done = a.newLabel();
  a.jumpIf(BPF_JEQ, R1, 0, fault);  // 0 -> 4, then 0 -> 2
  a.jump(done);                     // 1 -> 5, then 1 -> 3
  a.emit(mov64(R2, 1));             // 2: unreachable
  a.emit(mov64(R2, 2));             // 3: unreachable
  a.bind(fault);
  a.emit(mov64(R0, 1));  // 4
  a.bind(done);
  a.emit(exit());  // 5
  Result<std::vector<Insn>> insns = a.finish();
  ASSERT_TRUE(insns.ok()) << insns.error().message;
  ASSERT_EQ(insns->size(), 4u);
  EXPECT_EQ((*insns)[0].off, 1);
  EXPECT_EQ((*insns)[1].off, 1);
  EXPECT_EQ((*insns)[2].code, BPF_ALU64 | BPF_MOV | BPF_K);
  EXPECT_EQ((*insns)[2].imm, 1);
}

// An instruction that records its own index (where a fault happened) still
// names itself once the code before it has shrunk.
TEST(AssemblerTest, OwnIndexFollowsDroppedCode) {
  Assembler a;
  Label skip = a.newLabel();
  a.jump(skip);          // 0
  a.emit(mov64(R2, 1));  // 1: unreachable
  a.bind(skip);
  a.emitOwnIndex(st(Size::W, R10, -36, 0));  // 2, then 1
  a.emit(exit());                            // 3, then 2
  Result<std::vector<Insn>> insns = a.finish();
  ASSERT_TRUE(insns.ok()) << insns.error().message;
  ASSERT_EQ(insns->size(), 3u);
  EXPECT_EQ((*insns)[1].imm, 1);
}

// Marks (where -S starts a clause's heading) follow dropped code too.
TEST(AssemblerTest, MarksFollowDroppedCode) {
  Assembler a;
  Label skip = a.newLabel();
  a.mark();              // 0
  a.jump(skip);          // 0
  a.emit(mov64(R2, 1));  // 1: unreachable
  a.bind(skip);
  a.mark();        // 2, then 1
  a.emit(exit());  // 2, then 1
  Result<std::vector<Insn>> insns = a.finish();
  ASSERT_TRUE(insns.ok()) << insns.error().message;
  ASSERT_EQ(insns->size(), 2u);
  EXPECT_EQ(a.marks(), (std::vector<size_t>{0, 1}));
}

TEST(AssemblerTest, JumpToNextInstructionHasZeroOffset) {
  Assembler a;
  Label next = a.newLabel();
  a.jump(next);
  a.bind(next);
  a.emit(exit());
  auto insns = a.finish();
  ASSERT_TRUE(insns.ok());
  EXPECT_EQ((*insns)[0].off, 0);
}

TEST(AssemblerTest, LocalCallUsesImmediate) {
  Assembler a;
  Label sub = a.newLabel();
  a.callLocal(sub);
  a.emit(exit());
  a.bind(sub);
  a.emit(mov64(R0, 1));
  a.emit(exit());
  auto insns = a.finish();
  ASSERT_TRUE(insns.ok());
  EXPECT_EQ((*insns)[0].src_reg, BPF_PSEUDO_CALL);
  EXPECT_EQ((*insns)[0].imm, 1);
}

TEST(AssemblerTest, UnboundLabelIsAnError) {
  Assembler a;
  Label nowhere = a.newLabel();
  a.jump(nowhere);
  a.emit(exit());
  auto insns = a.finish();
  ASSERT_FALSE(insns.ok());
  EXPECT_NE(insns.error().message.find("unbound label"), std::string::npos);
}

TEST(AssemblerTest, LabelPastTheEndIsAnError) {
  Assembler a;
  Label end = a.newLabel();
  a.jump(end);
  a.bind(end);
  EXPECT_FALSE(a.finish().ok());
}

TEST(AssemblerTest, DoubleBindIsAnError) {
  Assembler a;
  Label l = a.newLabel();
  a.bind(l);
  a.emit(exit());
  a.bind(l);
  a.emit(exit());
  EXPECT_FALSE(a.finish().ok());
}

TEST(AssemblerTest, OutOfRangeJumpIsAnError) {
  Assembler forward;
  Label far = forward.newLabel();
  forward.jump(far);
  for (int i = 0; i < 32767; ++i) forward.emit(mov64(R0, 0));
  forward.bind(far);  // offset 32767: the largest that fits
  forward.emit(exit());
  ASSERT_TRUE(forward.finish().ok());

  Assembler tooFar;
  Label target = tooFar.newLabel();
  tooFar.jump(target);
  for (int i = 0; i < 32768; ++i) tooFar.emit(mov64(R0, 0));
  tooFar.bind(target);
  tooFar.emit(exit());
  auto insns = tooFar.finish();
  ASSERT_FALSE(insns.ok());
  EXPECT_NE(insns.error().message.find("out of range"), std::string::npos);

  Assembler backward;
  Label top = backward.newLabel();
  backward.bind(top);
  for (int i = 0; i < 32768; ++i) backward.emit(mov64(R0, 0));
  backward.jump(top);  // offset -32769
  backward.emit(exit());
  EXPECT_FALSE(backward.finish().ok());
}

}  // namespace
}  // namespace dtrace::bpf
