// Semantic checks of a parsed D program: resolves names, gives every
// expression its type (C's promotions and conversions), folds constants,
// and refuses wrong programs with DTrace's error tags and messages.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "parse/ast.h"
#include "sema/symbols.h"
#include "sema/types.h"
#include "util/diag.h"

namespace dtrace::sema {

// Values of the macro variables: $1..$n from the command line, $target,
// $pid, ... ($target is absent without -c/-p).
struct MacroTable {
  std::vector<std::string> args;  // args[0] is $0 (the script name), args[1] is $1
  std::map<std::string, std::string> named;  // "target" -> "1234", "pid" -> ...
  // Returns the value of $name, or null when it is not defined.
  const std::string* find(std::string_view name) const;
};

class Checker {
 public:
  Checker(TypeTable& types, SymbolTable& symbols, const MacroTable& macros, Diagnostics& diags);

  // Checks the whole program; false when a diagnostic was reported.
  bool check(ast::Program& program);

 private:
  bool checkClause(ast::ProbeClause& clause);
  bool checkDeclaration(ast::Declaration& decl);
  bool checkStatements(std::vector<ast::StmtPtr>& stmts);
  bool checkStatement(ast::Stmt& stmt);
  bool checkAction(ast::Expr& call);
  bool checkAggregationAssign(ast::Expr& assign);

  // Expressions: return the type, or null after reporting an error.
  const Type* expr(ast::Expr& e);
  const Type* identifier(ast::Expr& e, bool forAssignment);
  const Type* macro(ast::Expr& e);
  const Type* unary(ast::Expr& e);
  const Type* binary(ast::Expr& e);
  const Type* assign(ast::Expr& e);
  const Type* ternary(ast::Expr& e);
  const Type* cast(ast::Expr& e);
  const Type* member(ast::Expr& e, bool forAssignment);
  const Type* call(ast::Expr& e);
  // ---- subroutines.cpp: DTrace's subroutines ----
  const Type* subroutine(ast::Expr& e);
  // ---- end of subroutines.cpp ----
  const Type* associativeRead(ast::Expr& index);
  // ---- check_builtins.cpp: built-in arrays (args[], uregs[]) ----
  const Type* builtinArray(ast::Expr& index);
  // ---- end of check_builtins.cpp ----
  bool checkKeys(Variable& array, ast::Expr& index);
  const Type* intLiteral(ast::Expr& e);

  // The variable an assignment target names, created on first assignment.
  Variable* lvalueVariable(ast::Expr& target, const Type* valueType, ast::Op op);
  const Type* resolveTypeName(const ast::TypeName& tn);
  const Type* resolveDeclared(const ast::DeclSpec& spec, const ast::Declarator& d);
  bool assignable(const Type* to, const Type* from) const;
  void fold(ast::Expr& e);

  bool error(const char* tag, SourceLoc loc, std::string message);

  TypeTable& types_;
  SymbolTable& symbols_;
  const MacroTable& macros_;
  Diagnostics& diags_;
};

// Functions that record data (DTrace's actions) and aggregating functions.
bool isActionName(std::string_view name);
// Built-in variables indexed like arrays: args[], uregs[].
bool isBuiltinArray(std::string_view name);
bool isAggregatingFunction(std::string_view name, ir::AggFunc* func = nullptr);

}  // namespace dtrace::sema
