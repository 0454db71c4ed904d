// Constant folding, as the generated code would compute.
#include <limits>
#include <optional>

#include "sema/checker.h"
#include "sema/type_rules.h"

namespace dtrace::sema {

using ast::Expr;
using ast::ExprKind;
using ast::Op;

namespace {

std::optional<int64_t> foldUnary(Op op, int64_t a) {
  switch (op) {
    case Op::Plus:
      return a;
    case Op::Negate:
      return static_cast<int64_t>(0 - static_cast<uint64_t>(a));
    case Op::BitNot:
      return ~a;
    case Op::LogicalNot:
      return !a;
    default:
      return std::nullopt;
  }
}

// The values as they are, as the generated code computes them: the
// operation's type only says whether it is signed.
std::optional<int64_t> foldBinary(Op op, int64_t a, int64_t b, bool unsignedOp) {
  const uint64_t ua = static_cast<uint64_t>(a), ub = static_cast<uint64_t>(b);
  switch (op) {
    case Op::Add:
      return static_cast<int64_t>(ua + ub);
    case Op::Sub:
      return static_cast<int64_t>(ua - ub);
    case Op::Mul:
      return static_cast<int64_t>(ua * ub);
    case Op::Div:
    case Op::Mod:
      if (b == 0) return std::nullopt;  // refused by binary()
      if (unsignedOp) return static_cast<int64_t>(op == Op::Div ? ua / ub : ua % ub);
      if (a == std::numeric_limits<int64_t>::min() && b == -1) return op == Op::Div ? a : 0;
      return op == Op::Div ? a / b : a % b;
    case Op::Shl:
      return static_cast<int64_t>(ua << (ub & 63));
    case Op::Shr:
      return unsignedOp ? static_cast<int64_t>(ua >> (ub & 63)) : a >> (ub & 63);
    case Op::BitAnd:
      return a & b;
    case Op::BitOr:
      return a | b;
    case Op::BitXor:
      return a ^ b;
    case Op::LogicalAnd:
      return a && b;
    case Op::LogicalOr:
      return a || b;
    case Op::LogicalXor:
      return !a != !b;
    case Op::Lt:
      return unsignedOp ? ua < ub : a < b;
    case Op::Le:
      return unsignedOp ? ua <= ub : a <= b;
    case Op::Gt:
      return unsignedOp ? ua > ub : a > b;
    case Op::Ge:
      return unsignedOp ? ua >= ub : a >= b;
    case Op::Eq:
      return a == b;
    case Op::Ne:
      return a != b;
    case Op::Comma:
      return b;
    default:
      return std::nullopt;
  }
}

}  // namespace

// Computes constValue when every operand is a constant, as the generated code
// computes it: in 64 bits, as DIF does (and illumos's dt_node_op2 folds);
// a cast converts to its type's width.
void Checker::fold(Expr& e) {
  for (const auto& operand : e.operands) {
    if (!operand->constValue) return;
  }
  const Type* t = e.type;
  if (!t || !t->isInteger()) return;
  auto operand = [&](size_t i) { return *e.operands[i]->constValue; };
  std::optional<int64_t> r;
  switch (e.kind) {
    case ExprKind::Cast:
      r = convert(operand(0), t);
      break;
    case ExprKind::Ternary:
      r = operand(0) ? operand(1) : operand(2);
      break;
    case ExprKind::Unary:
      r = foldUnary(e.op, operand(0));
      break;
    case ExprKind::Binary: {
      const Type* at = e.operands[0]->type;
      const Type* bt = e.operands[1]->type;
      // The type the operation is done in says whether it is signed.
      const Type* opType = t;
      if (isComparison(e.op) || isLogical(e.op)) {
        opType = at && bt && at->isInteger() && bt->isInteger() ? types_.arithmeticResult(at, bt)
                                                                : types_.uint64();
      }
      r = foldBinary(e.op, operand(0), operand(1), !opType->isSigned);
      break;
    }
    default:
      return;
  }
  if (r) e.constValue = *r;
}

}  // namespace dtrace::sema
