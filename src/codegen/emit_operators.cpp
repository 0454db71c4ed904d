// Operator code: unary and binary operators, comparisons, logical
// operators, assignments, increments and ?:, with C semantics in r6.
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

}  // namespace dtrace::codegen
