// Type checks of DTrace's built-in arrays: args[] (typed by the probe) and
// uregs[] (the user registers).
#include "sema/checker.h"

namespace dtrace::sema {

bool isBuiltinArray(std::string_view name) { return name == "args" || name == "uregs"; }

const Type* Checker::builtinArray(ast::Expr& index) {
  error("D_UNSUPPORTED", index.loc, index.operands[0]->text + "[ ] is not supported yet");
  return nullptr;
}

}  // namespace dtrace::sema
