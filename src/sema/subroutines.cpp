// Type checks of calls to DTrace's subroutines (strlen, copyinstr, ...):
// arity and argument types against each prototype, and the result type.
#include "sema/checker.h"

namespace dtrace::sema {

using ast::Expr;

// DTrace's subroutines that Linux gives a meaning, with their prototypes.
const Type* Checker::subroutine(Expr& e) {
  auto& args = e.operands;
  for (auto& a : args) {
    if (!expr(*a)) return nullptr;
  }
  auto arity = [&](size_t min, size_t max) {
    if (args.size() >= min && args.size() <= max) return true;
    std::string expected = min == max ? std::to_string(min)
                                      : std::to_string(min) + " to " + std::to_string(max);
    return error("D_PROTO_LEN", e.loc,
                 e.text + "( ) prototype mismatch: " + std::to_string(args.size()) + " arg" +
                     (args.size() == 1 ? "" : "s") + " passed, " + expected + " expected");
  };
  auto argIs = [&](size_t i, bool ok, const char* prototype) {
    if (ok) return true;
    return error("D_PROTO_ARG", args[i]->loc,
                 e.text + "( ) argument #" + std::to_string(i + 1) +
                     " is incompatible with prototype:\n\tprototype: " + prototype +
                     "\n\t argument: " + args[i]->type->name);
  };
  if (e.text == "copyinstr") {
    if (!arity(1, 2) || !argIs(0, args[0]->type->isScalar(), "uintptr_t")) return nullptr;
    if (args.size() == 2 && !argIs(1, args[1]->type->isInteger(), "size_t")) return nullptr;
    return types_.stringType();
  }
  if (e.text == "strlen") {
    if (!arity(1, 1) || !argIs(0, args[0]->type->isString(), "string")) return nullptr;
    return types_.lookup("size_t");
  }
  // Byte order: network order is big-endian; x86 is little-endian.
  static const std::pair<const char*, const char*> kByteOrder[] = {
      {"htons", "uint16_t"}, {"ntohs", "uint16_t"}, {"htonl", "uint32_t"},
      {"ntohl", "uint32_t"}, {"htonll", "uint64_t"}, {"ntohll", "uint64_t"},
  };
  for (const auto& [name, typeName] : kByteOrder) {
    if (e.text != name) continue;
    if (!arity(1, 1) || !argIs(0, args[0]->type->isInteger(), typeName)) return nullptr;
    return types_.lookup(typeName);
  }
  if (e.text == "strjoin") {
    if (!arity(2, 2) || !argIs(0, args[0]->type->isString(), "string") ||
        !argIs(1, args[1]->type->isString(), "string")) {
      return nullptr;
    }
    return types_.stringType();
  }
  if (e.text == "substr") {
    if (!arity(2, 3) || !argIs(0, args[0]->type->isString(), "string") ||
        !argIs(1, args[1]->type->isInteger(), "int") ||
        (args.size() == 3 && !argIs(2, args[2]->type->isInteger(), "int"))) {
      return nullptr;
    }
    return types_.stringType();
  }
  if (e.text == "lltostr") {
    if (!arity(1, 1) || !argIs(0, args[0]->type->isInteger(), "int64_t")) return nullptr;
    return types_.boundedString(21);  // "-9223372036854775808"
  }
  if (e.text == "toupper" || e.text == "tolower") {
    if (!arity(1, 1) || !argIs(0, args[0]->type->isString(), "string")) return nullptr;
    return types_.stringType();
  }
  if (e.text == "rand") {
    if (!arity(0, 0)) return nullptr;
    return types_.intType();
  }
  error("D_IDENT_UNDEF", e.loc, "failed to resolve " + e.text + ": Unknown function name");
  return nullptr;
}

}  // namespace dtrace::sema
