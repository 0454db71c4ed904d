// Type checks of DTrace's actions: the functions that record data or act
// (trace, printf, exit, ...), allowed only as statements.
#include "sema/checker.h"
#include "sema/printf_format.h"

namespace dtrace::sema {

using ast::Expr;
using ast::ExprKind;

bool isActionName(std::string_view name) {
  return name == "trace" || name == "printf" || name == "exit";
}

bool Checker::checkAction(Expr& call) {
  const std::string& name = call.text;
  auto& args = call.operands;
  auto argCountError = [&](const char* expected) {
    return error("D_PROTO_LEN", call.loc,
                 name + "( ) prototype mismatch: " + std::to_string(args.size()) + " arg" +
                     (args.size() == 1 ? "" : "s") + " passed, " + expected + " expected");
  };
  for (auto& a : args) {
    if (!expr(*a)) return false;
  }
  if (name != "trace" && !refuseTranslatedOperands(call)) return false;
  if (name == "trace") {
    if (args.size() != 1) return argCountError("1");
    const Type* t = args[0]->type;
    if (t->isVoid())
      return error("D_TRACE_VOID", call.loc, "trace( ) may not be applied to a void expression");
    if (isTranslatedPointer(*args[0])) {
      return error("D_TRACE_DYN", call.loc, "trace( ) may not be applied to a translated pointer");
    }
    return true;
  }
  if (name == "exit") {
    if (args.size() != 1) return argCountError("1");
    if (!args[0]->type->isInteger()) {
      return error("D_PROTO_ARG", args[0]->loc,
                   "exit( ) argument #1 is incompatible with prototype:\n\tprototype: int\n\t"
                   " argument: " +
                       args[0]->type->name);
    }
    return true;
  }
  // printf
  if (args.empty()) return argCountError("1");  // DTrace counts varargs' fixed part
  if (args[0]->kind != ExprKind::StringLiteral) {
    return error("D_PRINTF_FMT", args[0]->loc,
                 "printf( ) argument #1 is incompatible with prototype:\n\tprototype: string "
                 "constant\n\t argument: " +
                     args[0]->type->name);
  }
  auto parsed = PrintfFormat::parse(args[0]->text);
  if (auto* err = std::get_if<PrintfError>(&parsed))
    return error(err->tag.c_str(), call.loc, err->message);
  std::vector<PrintfArg> described;
  for (size_t i = 1; i < args.size(); i++) {
    const Type* t = args[i]->type;
    PrintfArg a;
    a.cls = t->isString() || t->isCharArray() ? PrintfArg::Class::String
            : t->isPointer()                  ? PrintfArg::Class::Pointer
            : t->isInteger()                  ? PrintfArg::Class::Integer
                                              : PrintfArg::Class::Other;
    a.size = t->size;
    a.isSigned = t->isSigned;
    a.typeName = t->name;
    described.push_back(a);
  }
  if (auto err = std::get<PrintfFormat>(parsed).check(described, "printf")) {
    return error(err->tag.c_str(), call.loc, err->message);
  }
  return true;
}

}  // namespace dtrace::sema
