// String code: a string expression copied into a destination buffer in a
// map value, NUL-terminated and at most strsize characters.
#include <algorithm>
#include <utility>

#include "codegen/emitter.h"
#include "sema/checker.h"
#include "sema/symbols.h"

namespace dtrace::codegen {

using namespace bpf;
using ast::Expr;
using ast::ExprKind;
using ast::Op;
using sema::Builtin;

// As an operand compared or assigned, an unset string (DTrace's NULL
// string) reads as "", as DTrace compares it and copies it.
void ProgramEmitter::stringValueInto(const Expr& e, Reg base, int32_t offset, uint32_t size) {
  unsetStringRead_ = {true, std::nullopt, std::nullopt};
  stringInto(e, base, offset, size);
  unsetStringRead_ = {};
}

int16_t ProgramEmitter::stringValueNotingNull(const Expr& e, Reg base, int32_t offset,
                                              uint32_t size) {
  const int16_t wasNull = pushSlot();
  as_.emit(st(Size::DW, R10, wasNull, 0));
  unsetStringRead_ = {true, std::nullopt, wasNull};
  stringInto(e, base, offset, size);
  unsetStringRead_ = {};
  return wasNull;
}

void ProgramEmitter::unsetStringInto(const UnsetStringRead& how, Reg base, int32_t offset,
                                     uint32_t size) {
  if (how.flagSlot) as_.emit(st(Size::DW, R10, *how.flagSlot, 1));
  if (how.asEmpty) {
    literalInto("", base, offset, size);
  } else if (how.indexSlot) {
    as_.emit(ldx(Size::DW, R6, R10, *how.indexSlot));
    fault(ir::Fault::BadAddr, R6);
  } else {
    fault(ir::Fault::BadAddr);
  }
}

void ProgramEmitter::staticStringInto(const Expr& e, Reg base, int32_t offset, uint32_t size,
                                      const UnsetStringRead& unset) {
  if (!sema::hasNullMarker(e)) {
    copyString(R8, 0, e.type->size, base, offset, size);
    return;
  }
  Label null = as_.newLabel(), done = as_.newLabel();
  as_.emit(ldx(Size::B, R1, R8, -static_cast<int16_t>(ir::kNullMarkerSize)));
  as_.jumpIf(BPF_JEQ, R1, ir::kNullMarker, null);
  copyString(R8, 0, e.type->size, base, offset, size);
  as_.jump(done);
  as_.bind(null);
  unsetStringInto(unset, base, offset, size);
  as_.bind(done);
}

void ProgramEmitter::stringInto(const Expr& e, Reg base, int32_t offset, uint32_t size) {
  // A string is at most strsize characters wherever it goes, however large
  // (word-rounded) the area that receives it.
  size = std::min(size, types_.stringBufferSize());
  // Only the operand itself, through what merely passes it on (an inline,
  // ?:'s branches), may read an unset string as "": a subroutine reads its
  // arguments as usual.
  const UnsetStringRead unset = std::exchange(unsetStringRead_, {});
  auto passOn = [&](const Expr& operand) {
    unsetStringRead_ = unset;
    stringInto(operand, base, offset, size);
  };
  if (e.inlineValue) {
    passOn(*e.inlineValue);
    return;
  }
  if (e.translatedMember) {
    // A char array member holds no more than its own size, NUL included.
    const uint32_t held = e.type && e.type->isCharArray() ? std::min(size, e.type->size) : size;
    bindTranslatorInput(e);
    stringInto(*e.translatedMember, base, offset, held);
    unbindTranslatorInput();
    return;
  }
  if (e.type && e.type->isCharArray() && e.inMemory) {
    value(e);  // the array's address
    readStringAt(false, R6, base, offset, std::min(size, e.type->size));
    return;
  }
  if (e.type && e.type->isCharPointer()) {
    charPointerInto(e, base, offset, size, unset);
    return;
  }
  if (e.kind == ExprKind::StringLiteral) {
    literalInto(e.text, base, offset, size);
    return;
  }
  if (e.inMemory) {  // *p of a string pointer: the string p points to
    address(e);
    readStringAt(false, R6, base, offset, size);
    return;
  }
  if (e.kind == ExprKind::Assign) {
    // x = (y = strjoin(a, b)): the assignment, then the string it stored.
    // The destination's base register, and r7 (an enclosing assignment's
    // destination), survive the inner assignment.
    const int16_t baseSlot = pushSlot(), r7Slot = pushSlot();
    as_.emit(stx(Size::DW, R10, baseSlot, base));
    as_.emit(stx(Size::DW, R10, r7Slot, R7));
    assign(e);
    as_.emit(ldx(Size::DW, R7, R10, r7Slot));
    as_.emit(ldx(Size::DW, base, R10, baseSlot));
    popSlot();
    popSlot();
    passOn(*e.operands[0]);  // read as the assignment's value would be
    return;
  }
  if (e.kind == ExprKind::Ternary) {
    Label otherwise = as_.newLabel(), done = as_.newLabel();
    value(*e.operands[0]);
    as_.jumpIf(BPF_JEQ, R6, 0, otherwise);
    passOn(*e.operands[1]);
    as_.jump(done);
    as_.bind(otherwise);
    passOn(*e.operands[2]);
    as_.bind(done);
    return;
  }
  if (e.variable && variableStringInto(e, base, offset, size, unset)) return;
  if (e.kind == ExprKind::Stringof) {
    const Expr& of = *e.operands[0];
    if (of.type->isString()) {
      stringInto(of, base, offset, size);
    } else {
      value(of);  // a kernel address, or a probe argument's user address
      readStringAt(isUserAddressArgument(of), R6, base, offset, size);
    }
    return;
  }
  // A subroutine's NULL result (strchr() not finding) reads as an unset
  // string does here.
  nullResult_ = unset;
  if (e.kind == ExprKind::Call && subroutineString(e, base, offset, size)) return;
  fail("string expression is not supported yet");
}

// A char * read as a string where D wants one.
void ProgramEmitter::charPointerInto(const Expr& e, Reg base, int32_t offset, uint32_t size,
                                     const UnsetStringRead& unset) {
  value(e);  // a kernel address, read as a string where D wants one
  if (!unset.asEmpty && !unset.flagSlot) {
    readStringAt(false, R6, base, offset, size);
    return;
  }
  // Compared or assigned, a NULL char * is DTrace's NULL string, as
  // DIF's SCMP reads it (dtrace_strncmp): no fault.
  Label notNull = as_.newLabel(), done = as_.newLabel();
  as_.jumpIf(BPF_JNE, R6, 0, notNull);
  unsetStringInto(unset, base, offset, size);
  as_.jump(done);
  as_.bind(notNull);
  readStringAt(false, R6, base, offset, size);
  as_.bind(done);
}

// A D variable's string: a dynamic variable's, a built-in's (execname,
// probefunc, ...) or a char array in a global or clause-local. False when
// `e` is none of these.
bool ProgramEmitter::variableStringInto(const Expr& e, Reg base, int32_t offset, uint32_t size,
                                        const UnsetStringRead& unset) {
  const sema::Variable* v = e.variable;
  if (v && v->isDynamic()) {
    dynamicStringInto(e, base, offset, size, unset);
    return true;
  }
  if ((e.kind == ExprKind::Identifier || e.kind == ExprKind::Member) && v) {
    switch (v->builtin) {
      case Builtin::Execname:
        contextComm(base, offset, std::min<uint32_t>(size, 16));
        return true;
      case Builtin::Probeprov:
        literalInto(probe_->provider, base, offset, size);
        return true;
      case Builtin::Probemod:
      case Builtin::Probefunc:
      case Builtin::Probename:
        probeFieldInto(v->builtin, base, offset, size);
        return true;
      default:
        if (builtinString(*v, base, offset, size)) return true;
        break;  // cwd, root
    }
    // A char array member of a struct variable (this->p.pr_fname) is a
    // string at its offset in the variable.
    if (v->kind == sema::Variable::Kind::Global || v->kind == sema::Variable::Kind::ClauseLocal) {
      staticStorage(e);
      as_.emit(mov64(R8, R1));
      staticStringInto(e, base, offset, size, unset);
      return true;
    }
  }
  return false;
}

// argN, possibly cast, when the probe says it holds a user-space address
// (a USDT or system call string argument that args[N] presents as a string).
bool ProgramEmitter::isUserAddressArgument(const Expr& e) const {
  const Expr* p = &e;
  while (p->kind == ExprKind::Cast) p = p->operands[0].get();
  const sema::Variable* v = p->variable;
  if (!v || v->builtin != sema::Builtin::Arg) return false;
  return v->argIndex < static_cast<int>(probe_->args.size()) &&
         probe_->args[v->argIndex].userAddress;
}

// probemod, probefunc and probename: constants, or in a shared program the
// fired probe's, from its probe-table entry.
void ProgramEmitter::probeFieldInto(sema::Builtin field, Reg base, int32_t offset, uint32_t size) {
  const bool module = field == sema::Builtin::Probemod,
             function = field == sema::Builtin::Probefunc;
  if (!identityAtRunTime()) {
    literalInto(module     ? probe_->module
                : function ? probe_->function
                           : probe_->name,
                base, offset, size);
    return;
  }
  const ProbeTableEntry entry(clauseCount_);
  const uint32_t at = module     ? entry.moduleOffset()
                      : function ? entry.functionOffset()
                                 : entry.nameOffset();
  const uint32_t length = module     ? ProbeTableEntry::kModuleSize
                          : function ? ProbeTableEntry::kFunctionSize
                                     : ProbeTableEntry::kNameSize;
  loadProbeEntry();
  copyString(R8, static_cast<int32_t>(at), length, base, offset, size);
}

void ProgramEmitter::literalInto(const std::string& text, Reg base, int32_t offset, uint32_t size) {
  if (size == 0) return;
  std::string bytes = text.substr(0, size - 1);
  bytes.push_back('\0');
  size_t i = 0;
  auto word = [&](size_t n) {
    uint32_t w = 0;
    for (size_t k = 0; k < n; k++)
      w |= static_cast<uint32_t>(static_cast<uint8_t>(bytes[i + k])) << (8 * k);
    return static_cast<int32_t>(w);
  };
  for (; i + 4 <= bytes.size(); i += 4) {
    as_.emit(st(Size::W, base, static_cast<int16_t>(offset + i), word(4)));
  }
  for (; i + 2 <= bytes.size(); i += 2) {
    as_.emit(st(Size::H, base, static_cast<int16_t>(offset + i), word(2)));
  }
  for (; i < bytes.size(); i++) {
    as_.emit(st(Size::B, base, static_cast<int16_t>(offset + i), word(1)));
  }
}

void ProgramEmitter::copyString(Reg src, int32_t srcOffset, uint32_t srcSize, Reg base,
                                int32_t offset, uint32_t size) {
  uint32_t n = std::min(srcSize, size);
  as_.emit(mov64(R3, src));
  as_.emit(alu64(BPF_ADD, R3, srcOffset));
  as_.emit(mov64(R1, base));
  as_.emit(alu64(BPF_ADD, R1, offset));
  as_.emit(mov64(R2, static_cast<int32_t>(n)));
  as_.emit(call(BPF_FUNC_probe_read_kernel_str));
}

}  // namespace dtrace::codegen
