// Expression code: integers into r6 with C semantics (operators are in
// emit_operators.cpp, strings in emit_strings.cpp), and the loads and stores
// of what an expression names.
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

namespace {

bool fitsImm32(int64_t v) { return v >= INT32_MIN && v <= INT32_MAX; }

}  // namespace

void ProgramEmitter::constant(int64_t v, Reg dst) {
  if (fitsImm32(v)) {
    as_.emit(mov64(dst, static_cast<int32_t>(v)));
  } else {
    as_.emit(ldImm64(dst, static_cast<uint64_t>(v)));
  }
}

// Brings r to the canonical 64-bit form of a value of type t: truncated to
// its width, then sign- or zero-extended.
void ProgramEmitter::normalize(Reg r, const sema::Type* t) {
  if (!t || !t->isInteger() || t->size >= 8) return;
  const int32_t bits = static_cast<int32_t>(64 - 8 * t->size);
  if (t->isSigned) {
    as_.emit(alu64(BPF_LSH, r, bits));
    as_.emit(alu64(BPF_ARSH, r, bits));
  } else if (t->size == 4) {
    as_.emit(mov32(r, r));
  } else {
    as_.emit(alu64(BPF_AND, r, t->size == 1 ? 0xff : 0xffff));
  }
}

// r converted from type `from` to type `to` as a D cast converts it
// (illumos dt_cg_typecast): a narrower target, or one of the other
// signedness, is the low bits of its width, extended by its own sign; a
// wider target sign-extends a signed source from the source's width. An
// unsigned source widened, or a cast to the same width and signedness,
// leaves the register as it is (an int holding a 64-bit value keeps it).
void ProgramEmitter::typecast(Reg r, const sema::Type* from, const sema::Type* to) {
  if (!from || !to || !from->isScalar() || !to->isScalar()) return;
  const int32_t fromBits = static_cast<int32_t>(8 * std::min<uint32_t>(from->size, 8));
  const int32_t toBits = static_cast<int32_t>(8 * std::min<uint32_t>(to->size, 8));
  const bool fromSigned = from->isInteger() && from->isSigned;
  const bool toSigned = to->isInteger() && to->isSigned;
  if (fromBits == toBits && fromSigned == toSigned) return;
  if (toBits > fromBits && !fromSigned) return;
  if (toBits > fromBits) {
    const int32_t n = 64 - fromBits, s = toBits - fromBits;
    as_.emit(alu64(BPF_LSH, r, n));
    if (toSigned || n == s) {
      as_.emit(alu64(BPF_ARSH, r, n));
    } else {
      as_.emit(alu64(BPF_ARSH, r, s));
      as_.emit(alu64(BPF_RSH, r, n - s));
    }
  } else if (toBits != 64) {
    const int32_t n = 64 - toBits;
    as_.emit(alu64(BPF_LSH, r, n));
    as_.emit(alu64(toSigned ? BPF_ARSH : BPF_RSH, r, n));
  }
}

void ProgramEmitter::value(const Expr& e) {
  if (e.constValue) {
    constant(*e.constValue);
    return;
  }
  if (e.type && e.type->isString() && e.kind == ExprKind::Assign) {
    assign(e);  // a string assignment as a statement: its value is unused
    return;
  }
  if (e.type && e.type->isString()) {
    fail("string value used where an integer is required");
    return;
  }
  if (e.inlineValue) {
    // An inline array's parameters name its keys while its value runs.
    for (size_t i = 0; i < e.inlineParams.size(); i++) {
      bindTranslatorInput(*e.operands[i + 1], *e.inlineParams[i]);
    }
    value(*e.inlineValue);
    for (size_t i = 0; i < e.inlineParams.size(); i++) unbindTranslatorInput();
    typecast(R6, e.inlineValue->type, e.type);
    return;
  }
  if (e.translatedMember && e.translatedMember->type->isString() && e.type->isCharArray()) {
    translatedStringAddress(e);
    return;
  }
  if (e.translatedMember) {
    bindTranslatorInput(e);
    value(*e.translatedMember);
    unbindTranslatorInput();
    typecast(R6, e.translatedMember->type, e.type);
    return;
  }
  if (e.type && e.type->isArray() && !e.inMemory && !e.translation && e.variable &&
      e.kind != ExprKind::Assign) {
    storageAddress(e);  // an array in an integer context stands for its address
    return;
  }
  if (e.translation || (isAggregate(e.type) && !e.inMemory && e.kind != ExprKind::Assign)) {
    fail("a struct or array value can only be assigned or traced");
    return;
  }
  if (e.inMemory) {
    address(e);
    // An array or struct in an integer context stands for its address.
    if (!e.type->isArray() && !e.type->isStruct()) loadMemory(e.type, e.bitOffset, e.bitWidth);
    return;
  }
  switch (e.kind) {
    case ExprKind::Identifier:
    case ExprKind::Member:
    case ExprKind::Index:
      if (!e.variable) {
        fail("unresolved identifier " + e.text);
        return;
      }
      if (e.variable->kind == sema::Variable::Kind::Builtin && e.kind == ExprKind::Index) {
        builtinArray(e);
      } else if (e.variable->kind == sema::Variable::Kind::Builtin) {
        builtin(*e.variable);
      } else {
        loadTarget(e);
      }
      return;
    case ExprKind::Unary:
      if (e.op == Op::AddressOf && !e.operands[0]->inMemory) {
        storageAddress(*e.operands[0]);  // a member or element of a D variable
      } else if (e.op == Op::AddressOf) {
        address(*e.operands[0]);
      } else {
        unary(e);
      }
      return;
    case ExprKind::Binary:
      binary(e);
      return;
    case ExprKind::Assign:
      assign(e);
      return;
    case ExprKind::Ternary:
      ternary(e);
      return;
    case ExprKind::Cast:
      value(*e.operands[0]);
      typecast(R6, e.operands[0]->type, e.type);
      return;
    case ExprKind::Call:
      subroutineValue(e);
      return;
    case ExprKind::Xlate:
      // A translated pointer cast to a scalar is its input (illumos's
      // dt_cg_node generates xlate's operand).
      if (!e.type->isPointer()) {
        fail("a translated struct can only be dereferenced or assigned");
        return;
      }
      value(*e.operands[0]);
      return;
    default:
      fail("expression is not supported in code generation yet");
      return;
  }
}

// r1 = a pointer to the bytes of a global or clause-local variable (or of
// the member or element of it that `target` names).
void ProgramEmitter::staticStorage(const Expr& target) {
  const sema::Variable& v = *target.variable;
  const int32_t offset = static_cast<int32_t>(v.offset + target.storageOffset);
  if (v.kind == sema::Variable::Kind::Global) {
    as_.emit(ldMapValue(R1, maps_.globals, static_cast<uint32_t>(offset)));
  } else {
    as_.emit(mov64(R1, R9));
    as_.emit(alu64(BPF_ADD, R1, offset));
  }
  addVariableIndexes(R1, target);
}

// r6 = the address of the bytes `e` names in its D variable; 0 for an
// element of a dynamic variable that was never stored.
void ProgramEmitter::storageAddress(const Expr& e) {
  const sema::Variable& v = *e.variable;
  if (v.kind == sema::Variable::Kind::Builtin || v.kind == sema::Variable::Kind::TranslatorInput) {
    fail("the address of " + e.text + " cannot be taken");
    return;
  }
  if (!v.isDynamic()) {
    staticStorage(e);
    as_.emit(mov64(R6, R1));
    plainAddress(R6);
    return;
  }
  const Expr& root = e.storageRoot ? *e.storageRoot : e;
  dynamicLookup(v, dynamicKey(root, v));
  Label done = as_.newLabel();
  as_.emit(mov64(R6, 0));
  as_.jumpIf(BPF_JEQ, R0, 0, done);
  if (e.storageOffset) as_.emit(alu64(BPF_ADD, R0, static_cast<int32_t>(e.storageOffset)));
  addVariableIndexes(R0, e);
  as_.emit(mov64(R6, R0));
  plainAddress(R6);
  as_.bind(done);
}

namespace {

// The elements of an array, or the characters (and NUL) a string holds.
uint64_t elementCount(const sema::Type* array) {
  return array->isString() ? array->size : array->count;
}

// An index the checker folded into the element's offset.
bool constantInBounds(const Expr& element) {
  const std::optional<int64_t>& index = element.operands[1]->constValue;
  return index && *index >= 0 &&
         static_cast<uint64_t>(*index) < elementCount(element.operands[0]->type);
}

// The element selections with run-time indexes between `target` and the
// variable that holds it (v.a[i].b[j].m: a[i] and b[j]), and those whose
// constant index is outside the array (checked as the clause runs);
// storageOffset already counts the other constant ones.

std::vector<const Expr*> variableIndexes(const Expr& target) {
  std::vector<const Expr*> indexes;
  if (!target.storageRoot) return indexes;
  // Down the base operands (through an inline naming the variable) to the root.
  for (const Expr* e = &target; e && e != target.storageRoot; e = e->inlineValue ? e->inlineValue
                                                                  : e->operands.empty()
                                                                      ? nullptr
                                                                      : e->operands[0].get()) {
    if (e->kind == ExprKind::Index && !constantInBounds(*e)) indexes.push_back(e);
  }
  return indexes;
}

}  // namespace

bool hasVariableIndex(const Expr& target) { return !variableIndexes(target).empty(); }

// ptr += the offset the run-time indexes of `target` select, after checking
// each against its array's bounds: an element outside its variable is a
// bad address, as DTrace finds it. r6 and ptr are kept; r8 is clobbered.
void ProgramEmitter::addVariableIndexes(Reg ptr, const Expr& target) {
  const std::vector<const Expr*> indexes = variableIndexes(target);
  if (indexes.empty()) return;
  const int16_t savedR6 = pushSlot(), savedPtr = pushSlot(), sum = pushSlot();
  as_.emit(stx(Size::DW, R10, savedR6, R6));
  as_.emit(stx(Size::DW, R10, savedPtr, ptr));
  as_.emit(st(Size::DW, R10, sum, 0));
  for (const Expr* element : indexes) {
    value(*element->operands[1]);
    Label ok = as_.newLabel();
    as_.jumpIf(BPF_JLT, R6, static_cast<int32_t>(elementCount(element->operands[0]->type)), ok);
    // The address the element would have, outside its variable.
    as_.emit(alu64(BPF_MUL, R6, static_cast<int32_t>(element->type->size)));
    as_.emit(ldx(Size::DW, R8, R10, sum));
    as_.emit(alu64(BPF_ADD, R6, R8));
    as_.emit(ldx(Size::DW, R8, R10, savedPtr));
    pointerValue(R8, R8);
    as_.emit(alu64(BPF_ADD, R6, R8));
    fault(ir::Fault::BadAddr, R6);
    as_.bind(ok);
    as_.emit(alu64(BPF_MUL, R6, static_cast<int32_t>(element->type->size)));
    as_.emit(ldx(Size::DW, R8, R10, sum));
    as_.emit(alu64(BPF_ADD, R8, R6));
    as_.emit(stx(Size::DW, R10, sum, R8));
  }
  as_.emit(ldx(Size::DW, R6, R10, savedR6));  // first: ptr may be r6
  as_.emit(ldx(Size::DW, ptr, R10, savedPtr));
  as_.emit(ldx(Size::DW, R8, R10, sum));
  as_.emit(alu64(BPF_ADD, ptr, R8));
  popSlot();
  popSlot();
  popSlot();
}

// The bytes a scalar or bit-field is read and written with. A bit-field's
// unit is the smallest that holds its bits: a D struct gives a bit-field
// just that much room (as illumos' CTF lays it out), a kernel struct the
// unit of its declared type, which holds it too.
uint32_t accessSize(const Expr& target) {
  if (!target.bitWidth) return target.type->size;
  const uint32_t bytes = (target.bitOffset + target.bitWidth + 7) / 8;
  uint32_t unit = 1;
  while (unit < bytes) unit *= 2;
  return unit;
}

// A whole scalar D variable (or associative array element): its storage
// is a word holding the register as it was stored (holdsRegister).
bool namesRegisterWord(const Expr& target) {
  return target.variable && !target.inMemory && !target.storageRoot && !target.bitWidth &&
         target.type == target.variable->type && holdsRegister(*target.variable);
}

// r6 = the scalar (or bit-field) that `target` names at `ptr`.
void ProgramEmitter::loadFrom(Reg ptr, const Expr& target) {
  const sema::Type* t = target.type;
  if (namesRegisterWord(target)) {
    as_.emit(ldx(Size::DW, R6, ptr, 0));
    return;
  }
  as_.emit(ldx(sizeOf(accessSize(target)), R6, ptr, 0));
  if (target.bitWidth) {
    extractBits(target.bitOffset, target.bitWidth, t);
  } else {
    normalize(R6, t);
  }
}

// Stores r6 into the scalar (or bit-field) that `target` names at `ptr`;
// clobbers r2, r3 and r5.
void ProgramEmitter::storeTo(Reg ptr, const Expr& target) {
  const Size size = namesRegisterWord(target) ? Size::DW : sizeOf(accessSize(target));
  if (!target.bitWidth) {
    as_.emit(stx(size, ptr, 0, R6));
    return;
  }
  const uint64_t field =
      (target.bitWidth >= 64 ? ~uint64_t{0} : ((uint64_t{1} << target.bitWidth) - 1))
      << target.bitOffset;
  as_.emit(ldx(size, R2, ptr, 0));
  as_.emit(ldImm64(R3, ~field));
  as_.emit(alu64(BPF_AND, R2, R3));
  as_.emit(mov64(R3, R6));
  if (target.bitOffset) as_.emit(alu64(BPF_LSH, R3, static_cast<int32_t>(target.bitOffset)));
  as_.emit(ldImm64(R5, field));
  as_.emit(alu64(BPF_AND, R3, R5));
  as_.emit(alu64(BPF_OR, R2, R3));
  as_.emit(stx(size, ptr, 0, R2));
}

void ProgramEmitter::loadTarget(const Expr& target) {
  if (target.inMemory) {
    address(target);
    loadMemory(target.type, target.bitOffset, target.bitWidth);
    return;
  }
  const sema::Variable& v = *target.variable;
  if (v.kind == sema::Variable::Kind::TranslatorInput) {
    loadTranslatorInput(v);
  } else if (v.isDynamic()) {
    loadDynamic(target);
  } else {
    staticStorage(target);
    loadFrom(R1, target);
  }
}

void ProgramEmitter::storeTarget(const Expr& target) {
  if (target.inMemory) {
    storeMemory(target);
  } else if (target.variable->isDynamic()) {
    storeDynamic(target);
  } else {
    staticStorage(target);
    storeTo(R1, target);
  }
}

}  // namespace dtrace::codegen
