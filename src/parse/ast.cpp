#include "parse/ast.h"

namespace dtrace::ast {

Op compoundBase(Op op) {
  switch (op) {
    case Op::MulAssign:
      return Op::Mul;
    case Op::DivAssign:
      return Op::Div;
    case Op::ModAssign:
      return Op::Mod;
    case Op::AddAssign:
      return Op::Add;
    case Op::SubAssign:
      return Op::Sub;
    case Op::ShlAssign:
      return Op::Shl;
    case Op::ShrAssign:
      return Op::Shr;
    case Op::AndAssign:
      return Op::BitAnd;
    case Op::XorAssign:
      return Op::BitXor;
    case Op::OrAssign:
      return Op::BitOr;
    default:
      return Op::None;
  }
}

const char* opSpelling(Op op) {
  switch (op) {
    case Op::None:
      return "";
    case Op::Plus:
      return "+";
    case Op::Negate:
      return "-";
    case Op::LogicalNot:
      return "!";
    case Op::BitNot:
      return "~";
    case Op::Deref:
      return "*";
    case Op::AddressOf:
      return "&";
    case Op::PreInc:
    case Op::PostInc:
      return "++";
    case Op::PreDec:
    case Op::PostDec:
      return "--";
    case Op::Mul:
      return "*";
    case Op::Div:
      return "/";
    case Op::Mod:
      return "%";
    case Op::Add:
      return "+";
    case Op::Sub:
      return "-";
    case Op::Shl:
      return "<<";
    case Op::Shr:
      return ">>";
    case Op::Lt:
      return "<";
    case Op::Le:
      return "<=";
    case Op::Gt:
      return ">";
    case Op::Ge:
      return ">=";
    case Op::Eq:
      return "==";
    case Op::Ne:
      return "!=";
    case Op::BitAnd:
      return "&";
    case Op::BitXor:
      return "^";
    case Op::BitOr:
      return "|";
    case Op::LogicalAnd:
      return "&&";
    case Op::LogicalXor:
      return "^^";
    case Op::LogicalOr:
      return "||";
    case Op::Comma:
      return ",";
    case Op::Assign:
      return "=";
    case Op::MulAssign:
      return "*=";
    case Op::DivAssign:
      return "/=";
    case Op::ModAssign:
      return "%=";
    case Op::AddAssign:
      return "+=";
    case Op::SubAssign:
      return "-=";
    case Op::ShlAssign:
      return "<<=";
    case Op::ShrAssign:
      return ">>=";
    case Op::AndAssign:
      return "&=";
    case Op::XorAssign:
      return "^=";
    case Op::OrAssign:
      return "|=";
  }
  return "";
}

}  // namespace dtrace::ast
