// C's type rules the checker's files share: constants, compatibility and
// promotions, as illumos's dt_node_* and ctf_type_compat decide them.
#pragma once

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <string>
#include <string_view>

#include "parse/ast.h"
#include "sema/types.h"

namespace dtrace::sema {

inline bool isIntegerText(std::string_view s) {
  if (s.empty()) return false;
  size_t i = (s[0] == '-' || s[0] == '+') ? 1 : 0;
  if (i == s.size()) return false;
  for (; i < s.size(); i++) {
    if (!std::isalnum(static_cast<unsigned char>(s[i]))) return false;
  }
  const std::string text(s);  // `end` points into it
  char* end = nullptr;
  errno = 0;
  std::strtoull(text.c_str(), &end, 0);
  return errno == 0 && *end == '\0';
}

inline bool isComparison(ast::Op op) {
  return op == ast::Op::Lt || op == ast::Op::Le || op == ast::Op::Gt || op == ast::Op::Ge ||
         op == ast::Op::Eq || op == ast::Op::Ne;
}
inline bool isLogical(ast::Op op) {
  return op == ast::Op::LogicalAnd || op == ast::Op::LogicalOr || op == ast::Op::LogicalXor;
}
inline bool needsIntegers(ast::Op op) {
  return op == ast::Op::Mod || op == ast::Op::Shl || op == ast::Op::Shr || op == ast::Op::BitAnd ||
         op == ast::Op::BitOr || op == ast::Op::BitXor;
}

// Truncates v to the width and signedness of t, as a C conversion does.
inline int64_t convert(int64_t v, const Type* t) {
  if (!t->isInteger() || t->size >= 8) return v;
  uint64_t mask = (uint64_t{1} << (t->size * 8)) - 1;
  uint64_t u = static_cast<uint64_t>(v) & mask;
  if (t->isSigned && (u >> (t->size * 8 - 1)) & 1) u |= ~mask;
  return static_cast<int64_t>(u);
}

inline std::string quoted(const Type* t) { return "\"" + t->name + "\""; }

// A null pointer constant: integer 0, or NULL (a void * 0).
inline bool isNullConstant(const ast::Expr& e) {
  return e.constValue && *e.constValue == 0 && e.type &&
         (e.type->isInteger() || (e.type->isPointer() && e.type->target->isVoid()));
}

// Pointers to void or to functions have no size to scale by.
inline bool isVoidOrFunctionPointer(const Type* t) {
  return t->isPointer() && (t->target->isVoid() || t->target->kind == Type::Kind::Function);
}

// illumos's ctf_type_compat: the same type, or one of the same shape.
inline bool compatible(const Type* a, const Type* b) {
  if (a == b) return true;
  if (a->kind != b->kind) return false;
  switch (a->kind) {
    case Type::Kind::Integer:
      return a->size == b->size && a->isSigned == b->isSigned;
    case Type::Kind::Pointer:
    case Type::Kind::Function:
      return compatible(a->target, b->target);
    case Type::Kind::Array:
      return a->count == b->count && compatible(a->target, b->target);
    case Type::Kind::Struct:
    case Type::Kind::Union:
    case Type::Kind::Enum:
    case Type::Kind::Float:
      return !a->name.empty() && a->name == b->name;
    case Type::Kind::String:
      return true;
    default:
      return false;
  }
}

// dt_node_is_ptrcompat on types: `aNull` says a is a null pointer constant.
inline bool pointerCompatibleTypes(const Type* a, bool aNull, const Type* b, bool bNull,
                                   const Type** result) {
  const bool aInt = a->isInteger(), bInt = b->isInteger();
  if ((aInt && bInt) || (aInt && !aNull) || (bInt && !bNull)) return false;
  if (aInt) a = b;
  if (bInt) b = a;
  if (!a->isPointerLike() || !b->isPointerLike()) return false;
  const bool aVoid = a->target->isVoid(), bVoid = b->target->isVoid();
  if (!aVoid && !bVoid && !compatible(a->target, b->target)) return false;
  if (result) *result = bVoid ? a : b;
  return true;
}

// Unsigned bit-fields narrower than int promote to int: illumos ranks an
// integer by its width in bits.
inline bool isNarrowUnsignedBitField(const ast::Expr& e) {
  return e.bitWidth && e.bitWidth < 32 && e.type && e.type->isInteger() && !e.type->isSigned &&
         e.type->size >= 4;
}

}  // namespace dtrace::sema
