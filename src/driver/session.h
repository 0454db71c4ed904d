// One tracing session: the library's front door. Compiles D sources into
// enablings, creates the maps and programs, attaches them, runs BEGIN,
// consumes records until exit() or a signal, runs END, prints the
// aggregations and detaches everything.
#pragma once

#include <cstdio>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "bpf/attach.h"
#include "bpf/map.h"
#include "bpf/program.h"
#include "codegen/layout.h"
#include "driver/stability_report.h"
#include "ir/program.h"
#include "parse/lexer.h"
#include "parse/parser.h"
#include "providers/catalog.h"
#include "sema/checker.h"
#include "sema/symbols.h"
#include "sema/types.h"
#include "types/btf_types.h"
#include "util/option_table.h"
#include "util/result.h"

namespace dtrace::proc {
class Target;
}

namespace dtrace::consume {
class Consumer;
}

namespace dtrace::codegen {
struct MapFds;
}

namespace dtrace::driver {

// One -n description or -s script.
struct SourceUnit {
  bool isScript = false;
  std::string name;  // the script's path, or the -n text
  std::string text;  // the D source
  // -P/-m/-f: which field a description's last part names.
  parse::ProbeSpecContext probeSpecContext = parse::ProbeSpecContext::Name;
};

struct SessionConfig {
  bool quiet = false;
  bool showProgram = false;       // -S
  bool verbose = false;           // -v: keep what compiled() reports
  bool allowZeroMatches = false;  // -Z
  bool errtags = false;           // -x errtags
  FILE* out = stdout;
  std::string outName = "<stdout>";  // -o's file, as write errors name it
  sema::MacroTable macros;
  std::string commandLine;  // as typed, for the flame graph's subtitle
};

class Session {
 public:
  // `options` outlives the session; `#pragma D option` in a script sets it.
  Session(SessionConfig config, OptionTable& options);
  ~Session();

  // Compiles one source. On failure the error reads as dtrace prints it
  // after "dtrace: " ("failed to compile script x.d: line 3: ...").
  // On success, *matched is the number of probes its clauses enabled.
  Result<void> compile(const SourceUnit& unit, size_t* matched);

  // Lays out storage, creates the maps, generates and loads one program per
  // enabled probe, and attaches them (they stay idle until run()).
  Result<void> load();

  // -e's compile carried on to eBPF without the kernel: lays out storage
  // and generates the programs of up to `maxPrograms` enabled probes
  // against placeholder map descriptors, creating no map and loading
  // nothing (the fuzz targets of tests/fuzz, and -e -S, which lists them).
  // Returns the instruction count.
  Result<size_t> generateUnloaded(size_t maxPrograms, bool listPrograms = false);

  // -S: lays out storage and prints, for each clause, the variables it
  // uses (nothing when the layout fails: load() reports why).
  void showVariableTables();

  // Fires BEGIN, starts the targets, consumes until the end of tracing,
  // fires END and prints the aggregations. Returns the exit status.
  Result<int> run(std::vector<proc::Target>& targets);

  providers::ProbeCatalog& catalog() { return catalog_; }
  // -q, or `#pragma D option quiet` in a compiled script.
  bool quiet() const { return config_.quiet; }
  // -S, -x verbose or `#pragma D option verbose`.
  bool showsProgram() const { return config_.showProgram; }
  // With -v, the clauses the last compile() added and what their
  // descriptions matched (for the stability report).
  const std::vector<ReportedClause>& compiled() const { return compiled_; }

 private:
  struct ProbeEnabling {
    const providers::Probe* probe;
    std::vector<std::pair<size_t, uint32_t>> clauses;  // (clause index, epid)
  };

  sema::TypeTable& types();
  // The storage layout, the ECBs' records, and dtrace:::ERROR's enabling.
  Result<void> layOut();
  // The clauses that run together in one program (for sharing maps).
  codegen::ProgramClauses programClauses() const;
  // How programs reach the aggregations' and dynamic variables' maps.
  void referToMaps(codegen::MapFds& fds) const;
  Result<void> createMaps();
  // The program of one enabling, its maps' descriptors in `fds`.
  // With -S, the program is listed on stderr.
  Result<std::vector<bpf::Insn>> emitProgram(const ProbeEnabling& enabling,
                                             const codegen::MapFds& fds);
  // Loads one program for the probes of `group` (one probe, or several of
  // a provider that shares programs, all running the same clauses) and
  // attaches it to them.
  Result<void> loadProgram(std::span<ProbeEnabling* const> group);
  Result<void> loadPrograms(const std::vector<ProbeEnabling*>& enablings);
  // A new ECB of clause `clauseIndex` on `probe`, and the probe's enabling.
  ProbeEnabling& addEcb(size_t clauseIndex, const providers::Probe& probe,
                        std::map<uint32_t, size_t>& enablingIndex);
  // Fills an ECB's actions and record size from the clause layout.
  void completeEcb(ir::Ecb& ecb) const;
  // Enables what the clauses' descriptions match in objects process `pid`
  // mapped since tracing began (dlopen).
  Result<void> extendToProcess(int pid);
  // A shared program's probe table (codegen::ProbeTableEntry values).
  Result<int> createProbeTable(std::span<ProbeEnabling* const> group);
  // The error as dtrace prints it after "dtrace: "; `file` is the file a
  // `#line` marker named, `region` the part of a -n clause.
  std::string compileError(const SourceUnit& unit, const Diagnostic& d,
                           const std::string& file = "", const char* region = nullptr) const;
  void applyOptions();
  sema::StackOptions stackOptions();
  uint32_t kernelMaxFrames();
  Result<void> checkPragma(const SourceUnit& unit, const parse::PragmaLine& p);
  std::optional<Diagnostic> pragmaProblem(const parse::PragmaLine& p);
  // The built-in library units a script names (session_libraries.cpp).
  Result<void> loadLibraries(std::string_view script);
  Result<void> loadLibraryUnit(const struct LibraryUnit& lib);
  parse::ParseResult parseLibrary(std::string_view source);
  Result<void> checkLibrary(parse::ParseResult parsed, const SourceUnit& unit,
                            const std::string& file);
  // The libraries of the library path (-L), before the first program.
  Result<void> loadUserLibraries(const SourceUnit& unit);
  void reportCounters(consume::Consumer& consumer);

  SessionConfig config_;
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
  std::deque<ProbeEnabling> enablings_;  // deque: groups keep pointers into it
  // Every description of every clause, kept to match what processes map
  // later (extendToProcess).
  struct RetainedSpec {
    size_t clauseIndex;
    ast::ProbeSpec spec;
    // It may match probes in processes (extendToProcess): it names no
    // single provider whose probes are all in the kernel.
    bool inProcesses = true;
  };
  std::vector<RetainedSpec> retainedSpecs_;
  std::vector<ReportedClause> compiled_;  // -v
  codegen::Layout layout_;
  ir::Program ir_;

  struct Maps;
  std::unique_ptr<Maps> maps_;
  std::deque<bpf::Program> loaded_;  // deque: BEGIN/END keep pointers into it
  std::vector<bpf::Link> links_;
  const bpf::Program* beginProgram_ = nullptr;
  const bpf::Program* endProgram_ = nullptr;
  const ProbeEnabling* errorEnabling_ = nullptr;  // dtrace:::ERROR's clauses, if enabled
  std::vector<uint64_t> reportedDrops_;           // per CPU, buffer then aggregation drops
  std::vector<uint64_t> reportedTotals_;          // dynamic, speculative drops, failed speculations
  uint32_t kernelMaxFrames_ = 0;                  // perf_event_max_stack, read when first needed
};

}  // namespace dtrace::driver
