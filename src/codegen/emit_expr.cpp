// Expression code: integers into r6 with C semantics, strings into a
// destination buffer in a map value.
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

bool isComparison(Op op) {
  return op == Op::Lt || op == Op::Le || op == Op::Gt || op == Op::Ge || op == Op::Eq ||
         op == Op::Ne;
}

uint8_t jumpFor(Op op, bool isSigned) {
  switch (op) {
    case Op::Lt:
      return isSigned ? BPF_JSLT : BPF_JLT;
    case Op::Le:
      return isSigned ? BPF_JSLE : BPF_JLE;
    case Op::Gt:
      return isSigned ? BPF_JSGT : BPF_JGT;
    case Op::Ge:
      return isSigned ? BPF_JSGE : BPF_JGE;
    case Op::Eq:
      return BPF_JEQ;
    default:
      return BPF_JNE;
  }
}

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

void ProgramEmitter::unary(const Expr& e) {
  switch (e.op) {
    case Op::PreInc:
    case Op::PreDec:
    case Op::PostInc:
    case Op::PostDec:
      increment(e);
      return;
    default:
      break;
  }
  value(*e.operands[0]);
  switch (e.op) {
    case Op::Plus:
      break;
    case Op::Negate:
      as_.emit(neg64(R6));
      break;
    case Op::BitNot:
      as_.emit(alu64(BPF_XOR, R6, -1));
      break;
    case Op::LogicalNot: {
      Label zero = as_.newLabel(), done = as_.newLabel();
      as_.jumpIf(BPF_JEQ, R6, 0, zero);
      as_.emit(mov64(R6, 0));
      as_.jump(done);
      as_.bind(zero);
      as_.emit(mov64(R6, 1));
      as_.bind(done);
      return;
    }
    default:
      fail("unsupported unary operator");
      return;
  }
}

void ProgramEmitter::divideByZeroCheck(Reg divisor) {
  Label ok = as_.newLabel();
  as_.jumpIf(BPF_JNE, divisor, 0, ok);
  fault(ir::Fault::DivZero);
  as_.bind(ok);
}

// r6 = r6 op (r8 or the constant), at the width and signedness of type.
void ProgramEmitter::arithmetic(Op op, const sema::Type* type, bool rightIsConstant,
                                int64_t rightConst) {
  bool isSigned = type->isSigned;
  uint8_t code = 0;
  switch (op) {
    case Op::Add:
      code = BPF_ADD;
      break;
    case Op::Sub:
      code = BPF_SUB;
      break;
    case Op::Mul:
      code = BPF_MUL;
      break;
    case Op::Div:
      code = BPF_DIV;
      break;
    case Op::Mod:
      code = BPF_MOD;
      break;
    case Op::Shl:
      code = BPF_LSH;
      break;
    case Op::Shr:
      code = isSigned ? BPF_ARSH : BPF_RSH;
      break;
    case Op::BitAnd:
      code = BPF_AND;
      break;
    case Op::BitOr:
      code = BPF_OR;
      break;
    case Op::BitXor:
      code = BPF_XOR;
      break;
    default:
      fail("unsupported binary operator");
      return;
  }
  bool division = op == Op::Div || op == Op::Mod;
  // A shift count is taken modulo 64, as the hardware under DTrace's DIF
  // interpreter takes it; the verifier refuses counts outside 0..63.
  bool shift = op == Op::Shl || op == Op::Shr;
  if (shift && rightIsConstant) rightConst &= 63;
  if (shift && !rightIsConstant) as_.emit(alu64(BPF_AND, R8, 63));
  if (rightIsConstant && fitsImm32(rightConst) && !(division && rightConst == 0)) {
    Insn insn = alu64(code, R6, static_cast<int32_t>(rightConst));
    if (division && isSigned) insn.off = 1;  // sdiv/smod
    as_.emit(insn);
  } else {
    if (rightIsConstant) constant(rightConst, R8);
    if (division) divideByZeroCheck(R8);
    Insn insn = alu64(code, R6, R8);
    if (division && isSigned) insn.off = 1;
    as_.emit(insn);
  }
}

void ProgramEmitter::binary(const Expr& e) {
  auto pointerLike = [](const sema::Type* t) { return t->isPointer() || t->isArray(); };
  if ((e.op == Op::Add || e.op == Op::Sub) &&
      (pointerLike(e.operands[0]->type) || pointerLike(e.operands[1]->type))) {
    pointerArithmetic(e);
    return;
  }
  if (e.op == Op::Comma) {
    value(*e.operands[0]);
    value(*e.operands[1]);
    return;
  }
  if (e.op == Op::LogicalAnd || e.op == Op::LogicalOr || e.op == Op::LogicalXor) {
    logical(e);
    return;
  }
  if (isComparison(e.op)) {
    compare(e);
    return;
  }
  const Expr& a = *e.operands[0];
  const Expr& b = *e.operands[1];
  // The operands' registers as they are, as DIF operates on them
  // (dt_cg_arithmetic_op): the type only chooses signed or unsigned.
  value(a);
  if (b.constValue) {
    arithmetic(e.op, e.type, true, *b.constValue);
    return;
  }
  int16_t slot = pushSlot();
  as_.emit(stx(Size::DW, R10, slot, R6));
  value(b);
  as_.emit(mov64(R8, R6));
  as_.emit(ldx(Size::DW, R6, R10, slot));
  popSlot();
  arithmetic(e.op, e.type, false, 0);
}

void ProgramEmitter::compare(const Expr& e) {
  const Expr& a = *e.operands[0];
  const Expr& b = *e.operands[1];
  if (a.type->isString() || b.type->isString()) {
    compareStrings(e);
    return;
  }
  const sema::Type* ct = a.type->isInteger() && b.type->isInteger()
                             ? types_.arithmeticResult(a.type, b.type)
                             : types_.uint64();
  // The registers compared as they are; the operands' promoted type says
  // whether signed (dt_cg_compare_signed, dt_cg_compare_op).
  value(a);
  int16_t slot = pushSlot();
  as_.emit(stx(Size::DW, R10, slot, R6));
  value(b);
  as_.emit(mov64(R8, R6));
  as_.emit(ldx(Size::DW, R6, R10, slot));
  popSlot();
  Label yes = as_.newLabel(), done = as_.newLabel();
  as_.jumpIf(jumpFor(e.op, ct->isSigned), R6, R8, yes);
  as_.emit(mov64(R6, 0));
  as_.jump(done);
  as_.bind(yes);
  as_.emit(mov64(R6, 1));
  as_.bind(done);
}

// Both strings are written zero-padded into the scratch temporaries, so
// whole 8-byte words can be compared: the first unequal word, byte-swapped
// to big-endian, orders the strings as strcmp does, and a word holding a
// NUL ends an equal comparison.
void ProgramEmitter::compareStrings(const Expr& e) {
  const Expr& a = *e.operands[0];
  const Expr& b = *e.operands[1];
  const uint32_t n =
      std::min(layout_.stringTempSize, (std::max(a.type->size, b.type->size) + 7) / 8 * 8);
  const int32_t ta = static_cast<int32_t>(layout_.stringTempOffset);
  const int32_t tb = ta + static_cast<int32_t>(layout_.stringTempSize);
  for (uint32_t off = 0; off < n; off += 8) {
    as_.emit(st(Size::DW, R9, static_cast<int16_t>(ta + off), 0));
    as_.emit(st(Size::DW, R9, static_cast<int16_t>(tb + off), 0));
  }
  stringValueInto(a, R9, ta, std::min(n, a.type->size));
  stringValueInto(b, R9, tb, std::min(n, b.type->size));
  Label equal = as_.newLabel(), differ = as_.newLabel(), done = as_.newLabel();
  as_.emit(ldImm64(R4, 0x0101010101010101ull));
  as_.emit(ldImm64(R5, 0x8080808080808080ull));
  for (uint32_t off = 0; off < n; off += 8) {
    as_.emit(ldx(Size::DW, R1, R9, static_cast<int16_t>(ta + off)));
    as_.emit(ldx(Size::DW, R2, R9, static_cast<int16_t>(tb + off)));
    as_.jumpIf(BPF_JNE, R1, R2, differ);
    // (w - 0x01..) & ~w & 0x80..: non-zero when a byte of w is NUL.
    as_.emit(mov64(R3, R1));
    as_.emit(alu64(BPF_SUB, R3, R4));
    as_.emit(mov64(R0, R1));
    as_.emit(alu64(BPF_XOR, R0, -1));
    as_.emit(alu64(BPF_AND, R3, R0));
    as_.emit(alu64(BPF_AND, R3, R5));
    as_.jumpIf(BPF_JNE, R3, 0, equal);
  }
  as_.bind(equal);
  as_.emit(mov64(R6, 0));
  as_.jump(done);
  as_.bind(differ);
  as_.emit(toBigEndian(R1, 64));
  as_.emit(toBigEndian(R2, 64));
  as_.emit(mov64(R6, 1));
  as_.jumpIf(BPF_JGT, R1, R2, done);
  as_.emit(mov64(R6, -1));
  as_.bind(done);
  Label yes = as_.newLabel(), end = as_.newLabel();
  as_.jumpIf(jumpFor(e.op, true), R6, 0, yes);
  as_.emit(mov64(R6, 0));
  as_.jump(end);
  as_.bind(yes);
  as_.emit(mov64(R6, 1));
  as_.bind(end);
}

void ProgramEmitter::logical(const Expr& e) {
  Label no = as_.newLabel(), yes = as_.newLabel(), done = as_.newLabel();
  if (e.op == Op::LogicalXor) {
    value(*e.operands[0]);
    Label aFalse = as_.newLabel();
    int16_t slot = pushSlot();
    as_.emit(st(Size::DW, R10, slot, 0));
    as_.jumpIf(BPF_JEQ, R6, 0, aFalse);
    as_.emit(st(Size::DW, R10, slot, 1));
    as_.bind(aFalse);
    value(*e.operands[1]);
    as_.emit(ldx(Size::DW, R8, R10, slot));
    popSlot();
    as_.jumpIf(BPF_JEQ, R6, 0, no);   // b false: result is a
    as_.emit(alu64(BPF_XOR, R8, 1));  // b true: result is !a
    as_.bind(no);
    as_.emit(mov64(R6, R8));
    return;
  }
  value(*e.operands[0]);
  if (e.op == Op::LogicalAnd) {
    as_.jumpIf(BPF_JEQ, R6, 0, no);
  } else {
    as_.jumpIf(BPF_JNE, R6, 0, yes);
  }
  value(*e.operands[1]);
  as_.jumpIf(BPF_JEQ, R6, 0, no);
  as_.bind(yes);
  as_.emit(mov64(R6, 1));
  as_.jump(done);
  as_.bind(no);
  as_.emit(mov64(R6, 0));
  as_.bind(done);
}

void ProgramEmitter::assign(const Expr& e) {
  const Expr& target = *e.operands[0];
  const Expr& rhs = *e.operands[1];
  const sema::Variable* v = target.variable;
  const sema::Type* tt = target.type;
  if (!v && !target.inMemory) {
    fail("assignment target is not supported yet");
    return;
  }
  if (tt->isString() && target.inMemory) {
    // *p = s for a string pointer: the string's bytes are copied to the
    // memory p points to, as dt_cg_store copies a by-reference value, where
    // a store may go (writablePointer). At most strsize bytes, NUL included,
    // as COPYS copies D's string size: alloca(sizeof (string)) holds it.
    address(target);
    const uint32_t bytes = std::min(tt->size, types_.stringBufferSize() - 1);
    if (writablePointer(R6, bytes)) {
      as_.emit(mov64(R7, R0));
      stringValueInto(rhs, R7, 0, bytes);
    }
    return;
  }
  if (tt->isString()) {
    if (v->isDynamic()) {
      storeDynamicString(target, rhs);
    } else {
      // DTrace's NULL string: the checker let 0 through to a variable
      // with a marker, which says whether it holds NULL or its bytes.
      const auto marker = -static_cast<int16_t>(ir::kNullMarkerSize);
      staticStorage(target);
      as_.emit(mov64(R7, R1));
      if (!sema::hasNullMarker(target)) {
        stringValueInto(rhs, R7, 0, tt->size);
      } else if (!rhs.type->isString() && !rhs.type->isCharArray()) {  // 0: NULL
        as_.emit(st(Size::B, R7, marker, ir::kNullMarker));
      } else {
        // A NULL string copied in makes this one NULL, as DTrace copies
        // the reference.
        const int16_t wasNull = stringValueNotingNull(rhs, R7, 0, tt->size);
        as_.emit(ldx(Size::DW, R1, R10, wasNull));
        popSlot();
        as_.emit(alu64(BPF_MUL, R1, ir::kNullMarker));
        as_.emit(stx(Size::B, R7, marker, R1));
      }
    }
    return;
  }
  if (isAggregate(tt) && v && v->isDynamic() && !target.storageRoot && rhs.type->isInteger()) {
    deleteDynamic(target);  // the checker let only 0 through
    return;
  }
  if (isAggregate(tt)) {
    assignAggregate(e);
    return;
  }
  // The value is stored as it is: a variable keeps the whole register, a
  // store to memory keeps the bytes of its width (dt_cg_asgn_op), and the
  // assignment's own value is the register (illumos dnp->dn_reg).
  if (e.op == Op::Assign) {
    value(rhs);
    storeTarget(target);
    return;
  }
  Op base = ast::compoundBase(e.op);
  const sema::Type* rt = (base == Op::Shl || base == Op::Shr)
                             ? types_.promote(tt)
                             : types_.arithmeticResult(tt, rhs.type);
  // The old value is read before the right side runs, as DTrace does, so
  // that side effects there (i += i++) do not reach the left operand.
  loadTarget(target);
  int16_t slot = pushSlot();
  as_.emit(stx(Size::DW, R10, slot, R6));
  value(rhs);
  as_.emit(mov64(R8, R6));
  as_.emit(ldx(Size::DW, R6, R10, slot));
  popSlot();
  arithmetic(base, rt, false, 0);
  storeTarget(target);
}

void ProgramEmitter::increment(const Expr& e) {
  const Expr& target = *e.operands[0];
  if (!target.variable && !target.inMemory) {
    fail("increment target is not supported yet");
    return;
  }
  // Pointers step by the size of what they point to.
  const int32_t step =
      target.type->isPointer() ? static_cast<int32_t>(target.type->target->size) : 1;
  bool up = e.op == Op::PreInc || e.op == Op::PostInc;
  bool post = e.op == Op::PostInc || e.op == Op::PostDec;
  loadTarget(target);
  int16_t slot = pushSlot();
  as_.emit(stx(Size::DW, R10, slot, R6));
  as_.emit(alu64(up ? BPF_ADD : BPF_SUB, R6, step));
  storeTarget(target);
  if (post) as_.emit(ldx(Size::DW, R6, R10, slot));
  popSlot();
}

void ProgramEmitter::ternary(const Expr& e) {
  Label otherwise = as_.newLabel(), done = as_.newLabel();
  value(*e.operands[0]);
  as_.jumpIf(BPF_JEQ, R6, 0, otherwise);
  value(*e.operands[1]);  // each side's register as it is (dt_cg_ternary_op)
  as_.jump(done);
  as_.bind(otherwise);
  value(*e.operands[2]);
  as_.bind(done);
}

// ---- strings ------------------------------------------------------------------

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
  const sema::Variable* v = e.variable;
  if (v && v->isDynamic()) {
    dynamicStringInto(e, base, offset, size, unset);
    return;
  }
  if ((e.kind == ExprKind::Identifier || e.kind == ExprKind::Member) && v) {
    switch (v->builtin) {
      case Builtin::Execname:
        contextComm(base, offset, std::min<uint32_t>(size, 16));
        return;
      case Builtin::Probeprov:
        literalInto(probe_->provider, base, offset, size);
        return;
      case Builtin::Probemod:
      case Builtin::Probefunc:
      case Builtin::Probename:
        probeFieldInto(v->builtin, base, offset, size);
        return;
      default:
        if (builtinString(*v, base, offset, size)) return;
        break;  // cwd, root
    }
    // A char array member of a struct variable (this->p.pr_fname) is a
    // string at its offset in the variable.
    if (v->kind == sema::Variable::Kind::Global || v->kind == sema::Variable::Kind::ClauseLocal) {
      staticStorage(e);
      as_.emit(mov64(R8, R1));
      staticStringInto(e, base, offset, size, unset);
      return;
    }
  }
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
  if (e.kind == ExprKind::Call && e.text == "copyinstr") {
    copyInString(e, base, offset, size);
    return;
  }
  fail("string expression is not supported yet");
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
