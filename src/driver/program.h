// The enabled program of a tracing session (libdtrace's dt_program.c):
// the ECBs that compiled clauses make on the probes they matched, the
// storage layout and runtime configuration that the generated programs
// and the consumer share (ir::Program, ir::RuntimeConfig), the maps, and
// the eBPF programs loaded and attached to their probes (program_load.cpp;
// the maps in program_maps.cpp). The links detach when it is destroyed.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "bpf/attach.h"
#include "bpf/cpu_rings.h"
#include "bpf/map.h"
#include "bpf/program.h"
#include "codegen/layout.h"
#include "driver/compiler.h"
#include "ir/maps.h"
#include "ir/program.h"
#include "ir/runtime.h"
#include "util/option_table.h"
#include "util/result.h"

namespace dtrace::driver {

class Program {
 public:
  // `compiler` and `options` outlive the program.
  Program(Compiler& compiler, OptionTable& options);
  ~Program();

  // Enables the clauses of one compiled unit on the probes they matched.
  // Returns the number of probes enabled (ECBs made).
  size_t enable(const CompiledUnit& unit);

  // Lays out storage, creates the maps, generates and loads one program per
  // enabled probe, and attaches them (they stay idle until BEGIN fires).
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

  // What the work loop reads, once loaded.
  const ir::Program& ir() const { return ir_; }
  const codegen::Layout& layout() const { return layout_; }
  const ir::RuntimeConfig& runtime() const { return layout_.runtime; }
  uint64_t* globals() const;  // the mmapped globals value
  const bpf::CpuRings& principalBuffers() const;
  std::vector<int> aggregationFds() const;
  // The per-CPU loss counters; false if they cannot be read.
  bool readCounters(std::vector<ir::Counters>& values) const;
  // Processes with pid or USDT probes enabled.
  std::set<int> processesWithProbes() const;
  // Whether a description may name the provider of an object in a process
  // started later (python*, myprov: a USDT provider without a process
  // ID): then every process's new mappings are looked at, not only the
  // targets'.
  bool followsEveryProcess() const;
  // Whether ustack() unwinds by call frame information (-x unwind=cfi and
  // a clause that records a user stack); then unwindProcess() reads the
  // mappings of a process whose stacks are to be unwound so (a target, a
  // process that mapped more), compiling the objects new to dtrace.
  bool unwindsByCfi() const;
  // True when the process got tables (it maps an object with CFI).
  bool unwindProcess(int pid);
  // Whether unwindProcess() has read the process: its new mappings (a
  // library it loads) are to be read too.
  bool unwindsProcess(int pid) const;
  // A process whose stack a program unwound without tables.
  void unwindWanted(int pid);
  // BEGIN's and END's programs, run in this thread (on the -x cpu CPU).
  Result<void> fireBegin() const;
  Result<void> fireEnd() const;
  // The CPU whose buffer BEGIN's and END's records go to.
  uint32_t consumerCpu() const { return consumerCpu_; }
  // Enables what the clauses' descriptions match in objects process `pid`
  // mapped since tracing began (dlopen).
  Result<void> extendToProcess(int pid);
  // Detaches every probe (before the aggregations print).
  void detach();

 private:
  struct ProbeEnabling {
    const providers::Probe* probe;
    std::vector<std::pair<size_t, uint32_t>> clauses;  // (clause index, epid)
  };
  // Every description of every clause, kept to match what processes map
  // later (extendToProcess).
  struct RetainedSpec {
    size_t clauseIndex;
    ast::ProbeSpec spec;
    // It may match probes in processes (extendToProcess): it names no
    // single provider whose probes are all in the kernel.
    bool inProcesses = true;
  };
  struct Maps;

  // The storage layout, the runtime configuration, the ECBs' records, and
  // dtrace:::ERROR's enabling; `going` adds what dtrace_go() refuses
  // (nspec, destructive actions without -w, buffer sizes), which -e never does.
  Result<void> layOut(bool going = true);
  Result<void> checkBufferSizes();
  void configureRuntime();
  // The clauses that run together in one program (for sharing maps).
  codegen::ProgramClauses programClauses() const;
  std::vector<size_t> otherTaskClauses() const;
  // How programs reach the aggregations' and dynamic variables' maps.
  void referToMaps(ir::MapFds& fds) const;
  Result<void> createMaps();
  Result<void> createAggregationMaps(bool autoResize);
  Result<void> createDynamicMaps(bool autoResize);
  Result<void> fillElementCaches();
  // The program of one enabling, its maps' descriptors in `fds`.
  // With -S, the program is listed on stderr.
  Result<std::vector<bpf::Insn>> emitProgram(const ProbeEnabling& enabling, const ir::MapFds& fds);
  // Loads one program for the probes of `group` (one probe, or several of
  // a provider that shares programs, all running the same clauses) and
  // attaches it to them.
  Result<void> loadProgram(std::span<ProbeEnabling* const> group);
  Result<void> loadPrograms(const std::vector<ProbeEnabling*>& enablings);
  // The maps' descriptors a loaded program is given.
  ir::MapFds mapFds() const;
  // A program's maps: BEGIN's and END's name their CPU's ring, the others
  // find theirs in the principal buffers' array (filled on first use).
  Result<ir::MapFds> mapFds(bool firedByConsumer);
  // A new ECB of clause `clauseIndex` on `probe`, and the probe's enabling.
  ProbeEnabling& addEcb(size_t clauseIndex, const providers::Probe& probe,
                        std::map<uint32_t, size_t>& enablingIndex);
  // Fills an ECB's actions and record size from the clause layout.
  void completeEcb(ir::Ecb& ecb) const;
  // A shared program's probe table (ir::ProbeTableEntry values).
  Result<int> createProbeTable(std::span<ProbeEnabling* const> group);
  Result<void> fire(const bpf::Program& program) const;

  Compiler& compiler_;
  OptionTable& options_;
  bool listing_ = false;                 // -S: programs are listed as they are generated
  std::deque<ProbeEnabling> enablings_;  // deque: groups keep pointers into it
  std::vector<RetainedSpec> retainedSpecs_;
  std::set<int> unwindUntabled_;  // unwindWanted() processes without tables
  codegen::Layout layout_;
  ir::Program ir_;

  std::unique_ptr<Maps> maps_;
  std::deque<bpf::Program> loaded_;  // deque: BEGIN/END keep pointers into it
  std::vector<bpf::Link> links_;
  // The CPU BEGIN and END run on (fire() keeps the thread there), whose
  // ring their programs name directly: -x cpu's, else where dtrace was
  // when it loaded them.
  uint32_t consumerCpu_ = 0;
  const bpf::Program* beginProgram_ = nullptr;
  const bpf::Program* endProgram_ = nullptr;
  const ProbeEnabling* errorEnabling_ = nullptr;  // dtrace:::ERROR's clauses, if enabled
};

}  // namespace dtrace::driver
