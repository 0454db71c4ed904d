// The D parser: D program text in, AST and diagnostics out.
#pragma once

#include <functional>
#include <string_view>

#include "parse/ast.h"
#include "util/diag.h"

namespace dtrace::parse {

struct ParseOptions {
  // Called for an identifier in a position where it could be a type name (casts, sizeof,
  // declarations). The parser itself knows D's built-in type names (int8_t..uint64_t, intptr_t,
  // uintptr_t, size_t, ssize_t, ptrdiff_t, string, and the C keywords) and every typedef declared
  // earlier in the same program. `inClause` is false for the first word of a top-level item
  // (a probe description or a declaration), where looking up the kernel's types for every
  // probe name would cost start-up time. May be empty.
  std::function<bool(std::string_view, bool inClause)> isTypeName;
  // dtrace -n/-P/-m/-f style: a clause may be a bare probe description list with no predicate
  // and no action list (`dtrace -n syscall::read:entry`). In script files that is an error.
  bool allowBareProbeSpec = false;
};

struct ParseResult {
  ast::Program program;
  Diagnostics diags;  // empty on success; the first error is what gets reported
};

ParseResult parseProgram(std::string_view source, const ParseOptions& options = {});

// Splits a probe description "a:b:c:d" / "c:d" / "d" into ProbeSpec fields (fills from the right).
ast::ProbeSpec splitProbeSpec(std::string_view text, SourceLoc loc);

}  // namespace dtrace::parse
