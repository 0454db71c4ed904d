// Collects eBPF instructions for one program and resolves jumps to labels,
// so the code generator can branch forward before it knows the target.
#pragma once

#include <cstdint>
#include <vector>

#include "bpf/insn.h"
#include "util/result.h"

namespace dtrace::bpf {

struct Label {
  uint32_t id = 0;
};

class Assembler {
 public:
  Label newLabel();
  // Binds the label to the next instruction emitted.
  void bind(Label label);

  void emit(Insn insn);
  void emit(const std::array<Insn, 2>& pair);
  // An instruction whose immediate is its own index in the final program
  // (where a fault happened), kept right when unreachable code is dropped.
  void emitOwnIndex(Insn insn);

  // Unconditional jump (ja).
  void jump(Label target);
  // op is BPF_JEQ, BPF_JNE, BPF_JGT, BPF_JGE, BPF_JLT, BPF_JLE, BPF_JSGT,
  // BPF_JSGE, BPF_JSLT, BPF_JSLE or BPF_JSET; compares all 64 bits.
  void jumpIf(uint8_t op, Reg a, int32_t imm, Label target);
  void jumpIf(uint8_t op, Reg a, Reg b, Label target);
  // The same, comparing only the low 32 bits (BPF_JMP32).
  void jumpIf32(uint8_t op, Reg a, int32_t imm, Label target);
  void jumpIf32(uint8_t op, Reg a, Reg b, Label target);
  // BPF-to-BPF call of a subprogram that starts at the label.
  void callLocal(Label target);
  // dst = the address of the subprogram at the label (a 64-bit immediate
  // load with BPF_PSEUDO_FUNC), for helpers that take a callback: bpf_loop.
  void loadFunction(Reg dst, Label target);

  // Number of instruction slots so far (a 64-bit immediate load takes two).
  size_t size() const { return insns_.size(); }
  // Direct access for patching an already emitted instruction.
  Insn& at(size_t index) { return insns_.at(index); }

  // Notes the position of the next instruction (where a clause starts, for
  // -S); after finish(), marks() gives each noted position in the final
  // program, in the order noted.
  void mark() { marks_.push_back(insns_.size()); }
  const std::vector<size_t>& marks() const { return marks_; }

  // Resolves every label reference; a jump too far for a 16-bit offset
  // becomes a gotol. Fails if a label was never bound, was bound twice or
  // points past the last instruction.
  Result<std::vector<Insn>> finish();

 private:
  enum class FixupKind { kOffset, kCallImm };
  struct Fixup {
    size_t index;
    uint32_t label;
    FixupKind kind;
  };
  static constexpr int64_t kUnbound = -1;
  // Jumps longer than this become gotol (see farJumps).
  static constexpr int64_t kNearJumpLimit = 8192;

  void emitJump(Insn insn, Label target);
  std::vector<bool> farJumps(const std::vector<int64_t>& targets) const;
  std::vector<int64_t> relaxedPositions(const std::vector<bool>& far) const;

  std::vector<Insn> insns_;
  std::vector<int64_t> labelPositions_;
  std::vector<Fixup> fixups_;
  std::vector<uint32_t> doublyBound_;
  std::vector<size_t> ownIndexes_;
  std::vector<size_t> marks_;
};

}  // namespace dtrace::bpf
