// Helpers shared by the parser tests.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "parse/ast_dump.h"
#include "parse/parser.h"

namespace dtrace::parse::testing {

inline ParseResult parse(std::string_view src, const ParseOptions& opts = {}) {
  return parseProgram(src, opts);
}

// Dumps the whole program, or "error: [TAG] line N: message".
inline std::string dump(std::string_view src, const ParseOptions& opts = {}) {
  ParseResult r = parseProgram(src, opts);
  if (!r.diags.empty()) return "error: " + formatDiagnostic(r.diags.first(), true, true);
  return ast::dumpProgram(r.program);
}

// The first diagnostic as "[TAG] line N: message", or "" on success.
inline std::string firstError(std::string_view src, const ParseOptions& opts = {}) {
  ParseResult r = parseProgram(src, opts);
  if (r.diags.empty()) return "";
  return formatDiagnostic(r.diags.first(), true, true);
}

// Parses `src` as the only statement of a clause and dumps it.
inline std::string stmt(std::string_view src) {
  std::string program = "BEGIN\n{\n" + std::string(src) + ";\n}\n";
  ParseResult r = parseProgram(program);
  if (!r.diags.empty()) return "error: " + formatDiagnostic(r.diags.first(), true, true);
  const auto& clause = std::get<ast::ProbeClause>(r.program.items.at(0));
  if (clause.body.empty()) return "<no statement>";
  return ast::dumpStmt(*clause.body.at(0));
}

// The first statement's expression node, for checking literal fields.
inline const ast::Expr& firstExpr(const ParseResult& r) {
  const auto& clause = std::get<ast::ProbeClause>(r.program.items.at(0));
  return *clause.body.at(0)->expr;
}

}  // namespace dtrace::parse::testing
