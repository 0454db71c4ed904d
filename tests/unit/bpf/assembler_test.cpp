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

TEST(AssemblerTest, NearJumpsKeepTheirShortForm) {
  Assembler a;
  Label end = a.newLabel();
  a.jumpIf(BPF_JEQ, R1, 0, end);
  for (int i = 0; i < 8192; ++i) a.emit(mov64(R0, 0));
  a.bind(end);
  a.emit(exit());
  auto insns = a.finish();
  ASSERT_TRUE(insns.ok());
  ASSERT_EQ(insns->size(), 8194u);
  EXPECT_EQ((*insns)[0].off, 8192);
}

// A conditional jump too far for the verifier's rewrites to keep within 16
// bits branches over a plain goto to a gotol; a goto that the two inserted
// instructions push past the limit becomes a gotol in place.
TEST(AssemblerTest, FarConditionalJumpBecomesGotol) {
  Assembler a;
  Label end = a.newLabel();
  Label middle = a.newLabel();
  Label conditional = a.newLabel();
  a.jumpIf(BPF_JEQ, R1, 0, conditional);  // 0: near
  a.jump(middle);                         // 1: offset 8191 before the insert
  a.bind(conditional);
  a.jumpIf(BPF_JSET, R1, 4, end);  // 2: offset 8197, far
  for (int i = 3; i < 8193; ++i) a.emit(mov64(R0, 0));
  a.bind(middle);
  for (int i = 8193; i < 8200; ++i) a.emit(mov64(R0, 0));
  a.bind(end);
  a.emit(exit());
  auto insns = a.finish();
  ASSERT_TRUE(insns.ok());
  const std::vector<Insn>& p = *insns;
  ASSERT_EQ(p.size(), 8203u);
  EXPECT_EQ(p[0].off, 1);
  EXPECT_EQ(p[1].code, BPF_JMP32 | BPF_JA);
  EXPECT_EQ(1 + 1 + p[1].imm, 8195);
  EXPECT_EQ(p[2].code, BPF_JMP | BPF_JSET | BPF_K);
  EXPECT_EQ(p[2].off, 1);
  EXPECT_EQ(p[3].code, BPF_JMP | BPF_JA);
  EXPECT_EQ(p[3].off, 1);
  EXPECT_EQ(p[4].code, BPF_JMP32 | BPF_JA);
  EXPECT_EQ(4 + 1 + p[4].imm, 8202);
  EXPECT_EQ(p[8202].code, BPF_JMP | BPF_EXIT);
}

TEST(AssemblerTest, FarJumpsBothWaysUseGotol) {
  Assembler a;
  Label top = a.newLabel();
  Label end = a.newLabel();
  a.bind(top);
  a.jumpIf(BPF_JEQ, R1, 0, end);  // 0: forward, far
  for (int i = 0; i < 40000; ++i) a.emit(mov64(R0, 0));
  a.jumpIf(BPF_JNE, R1, R2, top);  // 40001: backward, far
  a.bind(end);
  a.emit(exit());
  auto insns = a.finish();
  ASSERT_TRUE(insns.ok());
  const std::vector<Insn>& p = *insns;
  ASSERT_EQ(p.size(), 40007u);
  EXPECT_EQ(p[2].code, BPF_JMP32 | BPF_JA);
  EXPECT_EQ(2 + 1 + p[2].imm, 40006);
  EXPECT_EQ(p[40003].off, 1);
  EXPECT_EQ(p[40005].code, BPF_JMP32 | BPF_JA);
  EXPECT_EQ(40005 + 1 + p[40005].imm, 0);
  EXPECT_EQ(p[40006].code, BPF_JMP | BPF_EXIT);
}

}  // namespace
}  // namespace dtrace::bpf
