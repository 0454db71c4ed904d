// S-expression rendering of the AST, for tests and debugging:
//   x = a + b * 2   ->  (= x (+ a (* b 2)))
#pragma once

#include <string>

#include "parse/ast.h"

namespace dtrace::ast {

std::string dumpExpr(const Expr& e);
std::string dumpStmt(const Stmt& s);
std::string dumpTypeName(const TypeName& t);
std::string dumpDeclSpec(const DeclSpec& spec);
std::string dumpDeclarator(const Declarator& d);
std::string dumpTopLevel(const TopLevel& item);
// One line per top-level item.
std::string dumpProgram(const Program& p);

}  // namespace dtrace::ast
