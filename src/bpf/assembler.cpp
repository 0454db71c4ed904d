#include "bpf/assembler.h"

#include <limits>
#include <string>

namespace dtrace::bpf {

Label Assembler::newLabel() {
  labelPositions_.push_back(kUnbound);
  return Label{static_cast<uint32_t>(labelPositions_.size() - 1)};
}

void Assembler::bind(Label label) {
  if (label.id >= labelPositions_.size()) {
    labelPositions_.resize(label.id + 1, kUnbound);
  }
  if (labelPositions_[label.id] != kUnbound) {
    doublyBound_.push_back(label.id);
    return;
  }
  labelPositions_[label.id] = static_cast<int64_t>(insns_.size());
}

void Assembler::emit(Insn insn) { insns_.push_back(insn); }

void Assembler::emit(const std::array<Insn, 2>& pair) {
  insns_.push_back(pair[0]);
  insns_.push_back(pair[1]);
}

void Assembler::emitJump(Insn insn, Label target) {
  fixups_.push_back({insns_.size(), target.id, FixupKind::kOffset});
  insns_.push_back(insn);
}

void Assembler::jump(Label target) { emitJump(ja(0), target); }

void Assembler::jumpIf(uint8_t op, Reg a, int32_t imm, Label target) {
  emitJump(jmp(op, a, imm, 0), target);
}

void Assembler::jumpIf(uint8_t op, Reg a, Reg b, Label target) {
  emitJump(jmp(op, a, b, 0), target);
}

void Assembler::jumpIf32(uint8_t op, Reg a, int32_t imm, Label target) {
  emitJump(jmp32(op, a, imm, 0), target);
}

void Assembler::jumpIf32(uint8_t op, Reg a, Reg b, Label target) {
  emitJump(jmp32(op, a, b, 0), target);
}

void Assembler::callLocal(Label target) {
  fixups_.push_back({insns_.size(), target.id, FixupKind::kCallImm});
  insns_.push_back(makeInsn(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, 0));
}

void Assembler::loadFunction(Reg dst, Label target) {
  fixups_.push_back({insns_.size(), target.id, FixupKind::kCallImm});
  insns_.push_back(makeInsn(BPF_LD | BPF_DW | BPF_IMM, dst, BPF_PSEUDO_FUNC, 0, 0));
  insns_.push_back(makeInsn(0, 0, 0, 0, 0));
}

Result<std::vector<Insn>> Assembler::finish() {
  if (!doublyBound_.empty()) {
    return makeError("BPF assembler: label " + std::to_string(doublyBound_.front()) +
                     " bound twice");
  }
  std::vector<Insn> out = insns_;
  for (const Fixup& fixup : fixups_) {
    const std::string where = "BPF assembler: jump at instruction " + std::to_string(fixup.index);
    if (fixup.label >= labelPositions_.size() || labelPositions_[fixup.label] == kUnbound) {
      return makeError(where + " targets unbound label " + std::to_string(fixup.label));
    }
    const int64_t target = labelPositions_[fixup.label];
    if (target >= static_cast<int64_t>(out.size())) {
      return makeError(where + " targets a label past the last instruction");
    }
    const int64_t delta = target - static_cast<int64_t>(fixup.index) - 1;
    if (fixup.kind == FixupKind::kCallImm) {
      out[fixup.index].imm = static_cast<int32_t>(delta);
      continue;
    }
    if (delta < std::numeric_limits<int16_t>::min() ||
        delta > std::numeric_limits<int16_t>::max()) {
      return makeError(where + " is out of range (offset " + std::to_string(delta) +
                       " does not fit in 16 bits)");
    }
    out[fixup.index].off = static_cast<int16_t>(delta);
  }
  return out;
}

}  // namespace dtrace::bpf
