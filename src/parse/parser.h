// The D parser: D program text in, AST and diagnostics out.
#pragma once

#include <functional>
#include <set>
#include <string>
#include <string_view>

#include "parse/ast.h"
#include "parse/lexer.h"
#include "util/diag.h"

namespace dtrace::parse {

// The field the last part of a probe description names: dtrace -P, -m and
// -f compile their argument in libdtrace's provider, module and function
// probe-spec context ("-P syscall" is the provider syscall); -n, -i and
// scripts in the name context.
enum class ProbeSpecContext { Provider, Module, Function, Name };

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
  // Macro variables to substitute while lexing, in clauses and probe
  // descriptions, as DTrace does. Without them $1 and friends are left as
  // MacroVar expressions and probe descriptions keep their '$'.
  const MacroSource* macros = nullptr;
  ProbeSpecContext probeSpecContext = ProbeSpecContext::Name;
  // -x pspec: a top-level word that could start a declaration ("int*x") is
  // a probe description. `#pragma D option pspec` turns it on from there.
  bool ambiguousAsProbes = false;
};

struct ParseResult {
  ast::Program program;
  Diagnostics diags;  // empty on success; the first error is what gets reported
  // The file the first error is in when a `#line N "file"` marker (as cpp
  // writes for #include) named one; empty for the source itself.
  std::string errorFile;
  std::set<size_t> referencedArgs;  // the $N substituted (N >= 1 matter)
  std::vector<PragmaLine> pragmas;  // the D pragmas, with their words' kinds
  // The line the input ends on (after its last newline), as DTrace names
  // it in errors found at the end, such as an empty program.
  uint32_t endLine = 0;
};

ParseResult parseProgram(std::string_view source, const ParseOptions& options = {});

// Splits a probe description "a:b:c:d" / "c:d" / "d" into ProbeSpec fields (fills from the right).
ast::ProbeSpec splitProbeSpec(std::string_view text, SourceLoc loc);

// dtrace_xstr2desc(): splits a description as splitProbeSpec does and
// replaces the first $N, $$N or $name of each field with its value. Returns
// libdtrace's complaint ("Overspecified probe description", "Undefined
// macro variable in probe description") or "" on success; `referenced`
// gets the $N used. `context` is the field the last part fills.
std::string expandProbeSpec(std::string_view text, SourceLoc loc, const MacroSource* macros,
                            ast::ProbeSpec& spec, std::set<size_t>* referenced,
                            ProbeSpecContext context = ProbeSpecContext::Name);

}  // namespace dtrace::parse
