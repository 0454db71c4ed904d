// A checker test fixture: each check() compiles a program against fresh
// type and symbol tables (a type may be defined only once), keeping the
// checked programs so that tests can look at the annotated expressions.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "parse/parser.h"
#include "sema/checker.h"

namespace dtrace::sema {

class FreshCheck : public ::testing::Test {
 protected:
  // "" when the program checks, else its first error with tag and line.
  std::string check(std::string_view src) {
    types = std::make_unique<TypeTable>();
    symbols = std::make_unique<SymbolTable>();
    parse::ParseOptions po;
    po.isTypeName = [this](std::string_view n, bool) { return types->isTypeName(n); };
    parse::ParseResult parsed = parse::parseProgram(src, po);
    if (!parsed.diags.empty()) {
      return "parse error: " + formatDiagnostic(parsed.diags.first(), true, true);
    }
    programs.push_back(std::make_unique<ast::Program>(std::move(parsed.program)));
    Diagnostics diags;
    Checker checker(*types, *symbols, macros, diags);
    checker.check(*programs.back());
    return diags.empty() ? "" : formatDiagnostic(diags.first(), true, true);
  }
  // The last statement of the last checked program's first clause.
  const ast::Expr* last() {
    if (programs.empty()) return nullptr;
    for (auto& item : programs.back()->items) {
      if (auto* c = std::get_if<ast::ProbeClause>(&item)) return c->body.back()->expr.get();
    }
    return nullptr;
  }
  // The argument of that statement, a trace().
  const ast::Expr* traced() {
    const ast::Expr* e = last();
    return e ? e->operands.at(0).get() : nullptr;
  }
  // `expr` traced in BEGIN after `decls`, checked.
  const ast::Expr* traced(const std::string& decls, const std::string& expr) {
    EXPECT_EQ(check(decls + "\nBEGIN { trace(" + expr + "); }\n"), "") << expr;
    return traced();
  }
  std::string typeOf(const std::string& decls, const std::string& expr) {
    const ast::Expr* e = traced(decls, expr);
    return e && e->type ? e->type->name : "<none>";
  }
  // The folded value of `expr`.
  int64_t constant(const std::string& decls, const std::string& expr) {
    const ast::Expr* e = traced(decls, expr);
    EXPECT_TRUE(e && e->constValue) << expr;
    return e && e->constValue ? *e->constValue : INT64_MIN;
  }

  std::unique_ptr<TypeTable> types;
  std::unique_ptr<SymbolTable> symbols;
  MacroTable macros;
  std::vector<std::unique_ptr<ast::Program>> programs;
};

}  // namespace dtrace::sema
