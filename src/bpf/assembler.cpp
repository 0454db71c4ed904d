#include "bpf/assembler.h"

#include <algorithm>
#include <string>

namespace dtrace::bpf {

namespace {

bool isWideLoad(const Insn& insn) { return insn.code == (BPF_LD | BPF_DW | BPF_IMM); }

// gotol: an unconditional jump whose offset is in the immediate.
bool isLongJump(const Insn& insn) { return insn.code == (BPF_JMP32 | BPF_JA); }

bool isJumpClass(const Insn& insn) {
  const uint8_t cls = BPF_CLASS(insn.code);
  return cls == BPF_JMP || cls == BPF_JMP32;
}

bool isUnconditional(const Insn& insn) { return insn.code == (BPF_JMP | BPF_JA); }

// The instruction a jump, local call or callback address refers to, or -1.
int64_t referencedInstruction(const std::vector<Insn>& insns, size_t i) {
  const Insn& insn = insns[i];
  const int64_t next = static_cast<int64_t>(i) + 1;
  if (isWideLoad(insn)) return insn.src_reg == BPF_PSEUDO_FUNC ? next + insn.imm : -1;
  if (!isJumpClass(insn)) return -1;
  const uint8_t op = BPF_OP(insn.code);
  if (op == BPF_EXIT) return -1;
  if (op == BPF_CALL) return insn.src_reg == BPF_PSEUDO_CALL ? next + insn.imm : -1;
  if (isLongJump(insn)) return next + insn.imm;
  return next + insn.off;
}

// Code after an unconditional fault or exit that nothing jumps to: the
// verifier refuses a program with instructions it cannot reach, and a
// clause that always faults leaves the rest of its code so.
std::vector<Insn> withoutUnreachable(const std::vector<Insn>& insns,
                                     const std::vector<size_t>& ownIndexes,
                                     std::vector<size_t>& marks) {
  std::vector<bool> reached(insns.size(), false);
  std::vector<size_t> pending = {0};
  while (!pending.empty()) {
    const size_t i = pending.back();
    pending.pop_back();
    if (i >= insns.size() || reached[i]) continue;
    reached[i] = true;
    const Insn& insn = insns[i];
    const int64_t target = referencedInstruction(insns, i);
    if (target >= 0) pending.push_back(static_cast<size_t>(target));
    if (isWideLoad(insn)) {
      if (i + 1 < insns.size()) reached[i + 1] = true;
      pending.push_back(i + 2);
      continue;
    }
    const bool endsFlow =
        isJumpClass(insn) && (BPF_OP(insn.code) == BPF_EXIT || BPF_OP(insn.code) == BPF_JA);
    if (!endsFlow) pending.push_back(i + 1);
  }
  std::vector<int64_t> newIndex(insns.size() + 1, 0);
  int64_t kept = 0;
  for (size_t i = 0; i < insns.size(); i++) {
    newIndex[i] = kept;
    if (reached[i]) kept++;
  }
  newIndex[insns.size()] = kept;
  if (kept == static_cast<int64_t>(insns.size())) return insns;
  for (size_t& m : marks) m = static_cast<size_t>(newIndex[std::min(m, insns.size())]);
  std::vector<Insn> moved = insns;
  for (size_t i : ownIndexes) moved[i].imm = static_cast<int32_t>(newIndex[i]);
  std::vector<Insn> out;
  out.reserve(static_cast<size_t>(kept));
  for (size_t i = 0; i < insns.size(); i++) {
    if (!reached[i]) continue;
    Insn insn = moved[i];
    const int64_t target = referencedInstruction(insns, i);
    if (target >= 0) {
      const int64_t delta = newIndex[static_cast<size_t>(target)] - newIndex[i] - 1;
      if (isWideLoad(insn) || BPF_OP(insn.code) == BPF_CALL || isLongJump(insn)) {
        insn.imm = static_cast<int32_t>(delta);
      } else {
        insn.off = static_cast<int16_t>(delta);
      }
    }
    out.push_back(insn);
  }
  return out;
}

}  // namespace

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

void Assembler::emitOwnIndex(Insn insn) {
  ownIndexes_.push_back(insns_.size());
  insn.imm = static_cast<int32_t>(insns_.size());
  insns_.push_back(insn);
}

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

// Branch relaxation. A jump's 16-bit offset counts instructions after the
// verifier's rewrites (inlined helpers grow the code), so a jump spanning
// more than a quarter of that range becomes a gotol, whose offset has 32
// bits: an unconditional one in place, a conditional one as "if cond goto
// +1; goto +1; gotol target" (no condition needs inverting). Inserting
// instructions only lengthens other jumps, so marking repeats until no more
// become far.
std::vector<bool> Assembler::farJumps(const std::vector<int64_t>& targets) const {
  std::vector<bool> far(fixups_.size(), false);
  for (bool changed = true; changed;) {
    changed = false;
    const std::vector<int64_t> moved = relaxedPositions(far);
    for (size_t f = 0; f < fixups_.size(); f++) {
      if (far[f] || fixups_[f].kind != FixupKind::kOffset) continue;
      const int64_t delta = moved[static_cast<size_t>(targets[f])] - moved[fixups_[f].index] - 1;
      if (delta < -kNearJumpLimit || delta > kNearJumpLimit) far[f] = changed = true;
    }
  }
  return far;
}

// Each instruction's position once the far conditional jumps have their two
// extra instructions; the entry past the end is the program's new length.
std::vector<int64_t> Assembler::relaxedPositions(const std::vector<bool>& far) const {
  std::vector<int64_t> grown(insns_.size() + 1, 0);
  for (size_t f = 0; f < fixups_.size(); f++) {
    if (far[f] && !isUnconditional(insns_[fixups_[f].index])) grown[fixups_[f].index + 1] += 2;
  }
  int64_t added = 0;
  for (size_t i = 0; i < grown.size(); i++) {
    added += grown[i];
    grown[i] = static_cast<int64_t>(i) + added;
  }
  return grown;
}

Result<std::vector<Insn>> Assembler::finish() {
  if (!doublyBound_.empty()) {
    return makeError("BPF assembler: label " + std::to_string(doublyBound_.front()) +
                     " bound twice");
  }
  std::vector<int64_t> targets(fixups_.size());
  for (size_t f = 0; f < fixups_.size(); f++) {
    const Fixup& fixup = fixups_[f];
    const std::string where = "BPF assembler: jump at instruction " + std::to_string(fixup.index);
    if (fixup.label >= labelPositions_.size() || labelPositions_[fixup.label] == kUnbound) {
      return makeError(where + " targets unbound label " + std::to_string(fixup.label));
    }
    targets[f] = labelPositions_[fixup.label];
    if (targets[f] >= static_cast<int64_t>(insns_.size())) {
      return makeError(where + " targets a label past the last instruction");
    }
  }
  const std::vector<bool> far = farJumps(targets);
  const std::vector<int64_t> moved = relaxedPositions(far);
  std::vector<int64_t> fixupAt(insns_.size(), -1);
  for (size_t f = 0; f < fixups_.size(); f++) fixupAt[fixups_[f].index] = static_cast<int64_t>(f);

  std::vector<Insn> out;
  out.reserve(static_cast<size_t>(moved.back()));
  for (size_t i = 0; i < insns_.size(); i++) {
    Insn insn = insns_[i];
    if (fixupAt[i] < 0) {
      out.push_back(insn);
      continue;
    }
    const size_t f = static_cast<size_t>(fixupAt[i]);
    const int64_t target = moved[static_cast<size_t>(targets[f])];
    const auto offsetFrom = [&](size_t at) {
      return static_cast<int32_t>(target - static_cast<int64_t>(at) - 1);
    };
    if (fixups_[f].kind == FixupKind::kCallImm) {
      insn.imm = offsetFrom(out.size());
      out.push_back(insn);
    } else if (!far[f]) {
      insn.off = static_cast<int16_t>(offsetFrom(out.size()));
      out.push_back(insn);
    } else if (isUnconditional(insn)) {
      out.push_back(gotol(offsetFrom(out.size())));
    } else {
      insn.off = 1;
      out.push_back(insn);
      out.push_back(ja(1));
      out.push_back(gotol(offsetFrom(out.size())));
    }
  }
  std::vector<size_t> ownIndexes;
  for (size_t i : ownIndexes_) {
    const size_t at = static_cast<size_t>(moved[i]);
    out[at].imm = static_cast<int32_t>(at);
    ownIndexes.push_back(at);
  }
  for (size_t& m : marks_) m = static_cast<size_t>(moved[std::min(m, insns_.size())]);
  return withoutUnreachable(out, ownIndexes, marks_);
}

}  // namespace dtrace::bpf
