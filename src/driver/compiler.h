// The D compiler of a tracing session (libdtrace's dt_cc.c): D text in,
// checked clauses out, each with the probes its descriptions matched.
// Reads `#pragma` lines (pragmas.h), loads the D libraries a program needs
// (compiler_libraries.cpp), matches descriptions against the probe catalog
// (probe_matching.h) and words compile errors as dtrace prints them.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "driver/probe_matching.h"
#include "driver/stability_report.h"
#include "parse/lexer.h"
#include "parse/parser.h"
#include "providers/catalog.h"
#include "sema/checker.h"
#include "sema/symbols.h"
#include "sema/types.h"
#include "types/btf_types.h"
#include "util/option_table.h"
#include "util/result.h"

namespace dtrace::driver {

// One -n description or -s script.
struct SourceUnit {
  bool isScript = false;
  std::string name;  // the script's path, or the -n text
  std::string text;  // the D source
  // -P/-m/-f: which field a description's last part names.
  parse::ProbeSpecContext probeSpecContext = parse::ProbeSpecContext::Name;
};

struct CompilerConfig {
  bool quiet = false;
  bool showProgram = false;       // -S
  bool allowZeroMatches = false;  // -Z
  bool errtags = false;           // -x errtags
  sema::MacroTable macros;
};

// What one compile() added: its clauses, in order, and what each one's
// descriptions matched.
struct CompiledUnit {
  size_t firstClause = 0;  // the index of clauses.front() among all clauses compiled
  std::vector<ReportedClause> clauses;
};

// A description dtrace -l lists; one naming a probe ID, its probe.
struct ListedDescription {
  ast::ProbeSpec spec;
  const providers::Probe* byId = nullptr;
};

// The frame counts stack(), ustack() and jstack() record by default, and
// the most any may: maxframes, else what the kernel unwinds at most.
sema::StackOptions stackOptions(const OptionTable& options);
// The most frames the kernel unwinds (perf_event_max_stack, 127 unless an
// administrator changed it), read once.
uint32_t kernelMaxFrames();

class Compiler {
 public:
  // `options` outlives the compiler; `#pragma D option` in a script sets it.
  Compiler(CompilerConfig config, OptionTable& options);
  ~Compiler();

  // Compiles one source. On failure the error reads as dtrace prints it
  // after "dtrace: " ("failed to compile script x.d: line 3: ...").
  Result<CompiledUnit> compile(const SourceUnit& unit);

  // dtrace -l: the descriptions of `units`, parsed as dtrace(1M) compiles
  // what it lists (a bad description or unknown probe ID fails before
  // anything is listed). The error reads as dtrace prints it after
  // "dtrace: ".
  Result<std::vector<ListedDescription>> descriptionsToList(const std::vector<SourceUnit>& units);

  providers::ProbeCatalog& catalog() { return catalog_; }
  sema::TypeTable& types();
  sema::SymbolTable& symbols() { return symbols_; }
  // Every clause compiled so far, in order (CompiledUnit::firstClause).
  std::vector<ast::ProbeClause*>& clauses() { return clauses_; }
  // -q, or `#pragma D option quiet` in a compiled script.
  bool quiet() const { return config_.quiet; }
  // -S, -x verbose or `#pragma D option verbose`.
  bool showsProgram() const { return config_.showProgram; }

 private:
  // The error as dtrace prints it after "dtrace: "; `file` is the file a
  // `#line` marker named, `region` the part of a -n clause.
  std::string compileError(const SourceUnit& unit, const Diagnostic& d,
                           const std::string& file = "", const char* region = nullptr) const;
  void applyOptions();
  Result<void> checkPragma(const SourceUnit& unit, const parse::PragmaLine& p);
  Result<std::unique_ptr<ast::Program>> parse(const SourceUnit& unit);
  // Descriptions are matched before clauses are checked, as in DTrace:
  // args[] takes its types from the probes.
  using Matches = std::map<const ast::ProbeClause*, std::vector<DescriptionMatch>>;
  Result<void> matchClauses(const SourceUnit& unit, ast::Program& program, Matches& matches);
  Result<void> check(const SourceUnit& unit, ast::Program& program, Matches& matches);
  // The built-in library units a script names (compiler_libraries.cpp).
  Result<void> loadLibraries(std::string_view script);
  Result<void> loadLibraryUnit(const struct LibraryUnit& lib);
  parse::ParseResult parseLibrary(std::string_view source);
  Result<void> checkLibrary(parse::ParseResult parsed, const SourceUnit& unit,
                            const std::string& file);
  // The libraries of the library path (-L), before the first program.
  Result<void> loadUserLibraries(const SourceUnit& unit);

  CompilerConfig config_;
  OptionTable& options_;
  types::BtfTypeSource kernelTypes_;
  std::unique_ptr<sema::TypeTable> types_;  // see types()
  sema::SymbolTable symbols_;
  sema::Definitions definitions_;  // inlines and translators, across programs
  std::set<const struct LibraryUnit*> loadedLibraries_;
  bool userLibrariesLoaded_ = false;
  providers::ProbeCatalog catalog_;
  std::vector<std::unique_ptr<ast::Program>> programs_;
  std::vector<ast::ProbeClause*> clauses_;
};

}  // namespace dtrace::driver
