// Objects in kernel memory (*p, p->m, s.m, p[i]) and members of structs
// held in D variables. Kernel memory is only ever read with the checked
// copy helper: a bad address becomes DTrace's "invalid address" error, a
// misaligned scalar load "invalid alignment", and tracing goes on.
#include <algorithm>

#include "codegen/emitter.h"
#include "sema/symbols.h"

namespace dtrace::codegen {

using namespace bpf;
using ast::Expr;
using ast::ExprKind;
using ast::Op;

// r6 = the address of an object in memory.
void ProgramEmitter::address(const Expr& e) {
  if (e.inlineValue) {
    address(*e.inlineValue);
    return;
  }
  switch (e.kind) {
    case ExprKind::Unary:
      if (e.op == Op::Deref) {
        value(*e.operands[0]);  // a pointer, or an array (its address)
        return;
      }
      break;
    case ExprKind::Member:
      if (e.isArrow) {
        value(*e.operands[0]);
      } else {
        address(*e.operands[0]);
      }
      if (e.storageOffset) as_.emit(alu64(BPF_ADD, R6, static_cast<int32_t>(e.storageOffset)));
      return;
    case ExprKind::Index: {
      const uint32_t elementSize = e.type->size;
      value(*e.operands[0]);
      const Expr& index = *e.operands[1];
      if (index.constValue) {
        const int64_t offset = *index.constValue * static_cast<int64_t>(elementSize);
        as_.emit(ldImm64(R1, static_cast<uint64_t>(offset)));
        as_.emit(alu64(BPF_ADD, R6, R1));
        return;
      }
      const int16_t slot = pushSlot();
      as_.emit(stx(Size::DW, R10, slot, R6));
      value(index);
      normalize(R6, types_.int64());
      as_.emit(alu64(BPF_MUL, R6, static_cast<int32_t>(elementSize)));
      as_.emit(ldx(Size::DW, R1, R10, slot));
      as_.emit(alu64(BPF_ADD, R6, R1));
      popSlot();
      return;
    }
    case ExprKind::Identifier:
      if (e.variable && e.variable->kind == sema::Variable::Kind::TranslatorInput) {
        loadTranslatorInput(*e.variable);  // a struct input is bound to its address
        return;
      }
      break;
    default:
      break;
  }
  fail("expression has no address");
}

// r6 = the value of type t at address r6 (or of a bit-field there).
void ProgramEmitter::loadMemory(const sema::Type* t, uint32_t bitOffset, uint32_t bitWidth) {
  const uint32_t size = bitWidth ? (bitOffset + bitWidth + 7) / 8 : t->size;
  if (size > 8) {
    fail("cannot load a " + t->name + " as a scalar");
    return;
  }
  // A misaligned load reads its bytes: illumos's dtrace_load16/32/64
  // check alignment on every architecture but x86.
  const int16_t slot = pushSlot();
  as_.emit(st(Size::DW, R10, slot, 0));
  copyFromAddress(R10, slot, size);
  as_.emit(ldx(bitWidth ? Size::DW : sizeOf(size), R6, R10, slot));
  popSlot();
  if (bitWidth) {
    extractBits(bitOffset, bitWidth, t);
  } else {
    normalize(R6, t);
  }
}

// r6 = bits [offset, offset + width) of r6, extended by t's signedness.
void ProgramEmitter::extractBits(uint32_t offset, uint32_t width, const sema::Type* t) {
  const int32_t left = static_cast<int32_t>(64 - offset - width);
  if (left) as_.emit(alu64(BPF_LSH, R6, left));
  as_.emit(alu64(t->isSigned ? BPF_ARSH : BPF_RSH, R6, static_cast<int32_t>(64 - width)));
}

// Stores r6 (a scalar of e's type) into the object in memory e names:
// where dtrace_canstore lets a store go (emit_writable.cpp), at an address
// aligned to the store's size (dtrace_dif_emulate's STH, STW and STX fault
// with "invalid alignment" otherwise; a bit-field's unit is not checked).
void ProgramEmitter::storeMemory(const Expr& e) {
  const int16_t valueSlot = pushSlot();
  as_.emit(stx(Size::DW, R10, valueSlot, R6));
  address(e);
  const uint32_t size = accessSize(e);
  if (writablePointer(R6, size, e.bitWidth ? 1 : size)) {
    as_.emit(ldx(Size::DW, R6, R10, valueSlot));
    storeTo(R0, e);
  }
  popSlot();
}

// p + i and p - i move by i objects; p - q counts the objects between.
void ProgramEmitter::pointerArithmetic(const Expr& e) {
  const Expr& a = *e.operands[0];
  const Expr& b = *e.operands[1];
  auto pointerLike = [](const sema::Type* t) { return t->isPointer() || t->isArray(); };
  const bool bothPointers = pointerLike(a.type) && pointerLike(b.type);
  const Expr& pointer = pointerLike(a.type) ? a : b;
  const Expr& count = pointerLike(a.type) ? b : a;
  const int32_t size = static_cast<int32_t>(std::max<uint32_t>(1, pointer.type->target->size));
  value(pointer);
  const int16_t slot = pushSlot();
  as_.emit(stx(Size::DW, R10, slot, R6));
  value(bothPointers ? b : count);
  as_.emit(mov64(R8, R6));
  as_.emit(ldx(Size::DW, R6, R10, slot));
  popSlot();
  if (bothPointers) {
    as_.emit(alu64(BPF_SUB, R6, R8));
    if (size > 1) arithmetic(Op::Div, types_.int64(), true, size);
    return;
  }
  if (size > 1) as_.emit(alu64(BPF_MUL, R8, size));
  as_.emit(alu64(e.op == Op::Sub ? BPF_SUB : BPF_ADD, R6, R8));
}

// A translator's member: its expression with the input bound to the value
// (or, for a string input, nothing but the expression) it was given.
void ProgramEmitter::bindTranslatorInput(const Expr& e) {
  const Expr* outer = e.operands.empty() ? nullptr : e.operands[0].get();
  if (outer && outer->translatedMember) {
    // A member of a translated struct member (curpsinfo->pr_start.tv_sec):
    // the inner input is computed with the outer input bound, then takes
    // its slot (the inner translator's members name only their own input).
    bindTranslatorInput(*outer);
    value(*e.translatorInput);
    as_.emit(stx(Size::DW, R10, translatorInputs_.back().second, R6));
    translatorInputs_.back().first = e.variable;
    return;
  }
  bindTranslatorInput(*e.translatorInput, *e.variable);
}

void ProgramEmitter::bindTranslatorInput(const Expr& input, const sema::Variable& inputVariable) {
  if (!isAggregate(inputVariable.type)) {
    value(input);
  } else if (input.inMemory) {  // a struct input: its address
    address(input);
  } else if (input.variable && input.variable->kind != sema::Variable::Kind::Builtin) {
    storageAddress(input);
  } else {
    fail("a translator's struct input must be a variable or an object in memory");
  }
  const int16_t slot = pushSlot();
  as_.emit(stx(Size::DW, R10, slot, R6));
  translatorInputs_.push_back({&inputVariable, slot});
}

void ProgramEmitter::unbindTranslatorInput() {
  translatorInputs_.pop_back();
  popSlot();
}

void ProgramEmitter::loadTranslatorInput(const sema::Variable& v) {
  for (auto it = translatorInputs_.rbegin(); it != translatorInputs_.rend(); ++it) {
    if (it->first == &v) {
      as_.emit(ldx(Size::DW, R6, R10, it->second));
      return;
    }
  }
  fail("translator input " + v.name + " is not bound");
}

}  // namespace dtrace::codegen
