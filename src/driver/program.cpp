#include "driver/program.h"

#include <sched.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <utility>

#include "driver/variable_table.h"
#include "output/make_sink.h"
#include "providers/pid_provider.h"
#include "sym/process_maps.h"
#include "util/cpu_list.h"

namespace dtrace::driver {

namespace {

bool isErrorProbe(const providers::Probe& p) { return p.provider == "dtrace" && p.name == "ERROR"; }

}  // namespace

size_t Program::enable(const CompiledUnit& unit) {
  size_t count = 0;
  std::map<uint32_t, size_t> enablingIndex;
  for (size_t i = 0; i < enablings_.size(); i++) enablingIndex[enablings_[i].probe->id] = i;
  for (size_t c = 0; c < unit.clauses.size(); c++) {
    const size_t clauseIndex = unit.firstClause + c;
    for (const ReportedDescription& m : unit.clauses[c].descriptions) {
      const bool glob = m.spec.provider.find_first_of("*?[") != std::string::npos;
      const bool inProcesses =
          glob || m.probes.empty() || std::any_of(m.probes.begin(), m.probes.end(), [](auto* p) {
            return p->attachKind == providers::AttachKind::Uprobe;
          });
      retainedSpecs_.push_back({clauseIndex, m.spec, inProcesses});
      for (const providers::Probe* probe : m.probes) {
        addEcb(clauseIndex, *probe, enablingIndex);
        count++;
      }
    }
  }
  return count;
}

Program::ProbeEnabling& Program::addEcb(size_t clauseIndex, const providers::Probe& probe,
                                        std::map<uint32_t, size_t>& enablingIndex) {
  auto [it, added] = enablingIndex.emplace(probe.id, enablings_.size());
  if (added) enablings_.push_back({&probe, {}});
  ir::Ecb ecb;
  ecb.epid = static_cast<uint32_t>(ir_.ecbs.size() + 1);
  ecb.probeId = probe.id;
  ecb.clauseIndex = static_cast<uint32_t>(clauseIndex);
  ecb.provider = probe.provider;
  ecb.module = probe.module;
  ecb.function = probe.function;
  ecb.name = probe.name;
  ir_.ecbs.push_back(ecb);
  enablings_[it->second].clauses.push_back({clauseIndex, ecb.epid});
  return enablings_[it->second];
}

// Every probe's program runs its clauses and ERROR's (inline, at a fault).
// Probes found later in a process (extendToProcess) may run the clauses
// of any descriptions that can match there together.
codegen::ProgramClauses Program::programClauses() const {
  std::vector<size_t> errorClauses;
  for (const ProbeEnabling& e : enablings_) {
    if (!isErrorProbe(*e.probe)) continue;
    for (const auto& [clauseIndex, epid] : e.clauses) errorClauses.push_back(clauseIndex);
  }
  std::set<std::vector<size_t>> programs;
  auto add = [&](std::vector<size_t> clauses) {
    clauses.insert(clauses.end(), errorClauses.begin(), errorClauses.end());
    std::sort(clauses.begin(), clauses.end());
    clauses.erase(std::unique(clauses.begin(), clauses.end()), clauses.end());
    programs.insert(std::move(clauses));
  };
  for (const ProbeEnabling& e : enablings_) {
    if (isErrorProbe(*e.probe)) continue;
    std::vector<size_t> clauses;
    for (const auto& [clauseIndex, epid] : e.clauses) clauses.push_back(clauseIndex);
    add(std::move(clauses));
  }
  std::vector<size_t> inProcesses;
  for (const RetainedSpec& r : retainedSpecs_) {
    if (r.inProcesses) inProcesses.push_back(r.clauseIndex);
  }
  if (!inProcesses.empty()) add(std::move(inProcesses));
  return {programs.begin(), programs.end()};
}

// The clauses that run on behalf of a thread other than the current one
// (Probe::contextTaskWord), ERROR's too when they do: it runs inline.
std::vector<size_t> Program::otherTaskClauses() const {
  std::vector<size_t> out;
  for (const ProbeEnabling& e : enablings_) {
    if (e.probe->contextTaskWord < 0) continue;
    for (const auto& [clauseIndex, epid] : e.clauses) out.push_back(clauseIndex);
  }
  if (out.empty()) return out;
  for (const ProbeEnabling& e : enablings_) {
    if (!isErrorProbe(*e.probe)) continue;
    for (const auto& [clauseIndex, epid] : e.clauses) out.push_back(clauseIndex);
  }
  return out;
}

constexpr uint32_t kMaxScratchSize = 32 * 1024;

Result<void> Program::layOut(bool going) {
  // dtrace_state_go() allocates nspec speculations first: none (a zero
  // allocation) or more than INT_MAX fails with ENOMEM.
  const uint64_t nspec = options_.value("nspec");
  if (going && (nspec == 0 || nspec > INT_MAX)) return makeError("Not enough space");
  const codegen::SpeculationLimits speculations{static_cast<uint32_t>(nspec),
                                                options_.size("specsize")};
  // Every program has room for two strings in its scratch space: a larger
  // strsize cannot fit (nor be laid out in 32-bit offsets).
  if (compiler_.types().strsize() > kMaxScratchSize / 2) {
    return makeError("strsize of " + std::to_string(compiler_.types().strsize()) +
                     " bytes exceeds what scratch space holds (two strings in " +
                     std::to_string(kMaxScratchSize) + " bytes per CPU)");
  }
  // alloca() space is laid out twice over (see computeLayout): at most
  // what fits a per-CPU value beside everything else.
  const uint64_t scratchsize = options_.size("scratchsize");
  if (scratchsize > kMaxScratchSize / 2) {
    return makeError("scratchsize of " + std::to_string(scratchsize) +
                     " bytes exceeds what scratch space holds (" +
                     std::to_string(kMaxScratchSize / 2) + " bytes per CPU)");
  }
  layout_ = codegen::computeLayout(compiler_.clauses(), compiler_.symbols(), compiler_.quiet(),
                                   compiler_.types().stringBufferSize(), speculations,
                                   static_cast<uint32_t>(scratchsize), programClauses(),
                                   otherTaskClauses());
  // As dtrace_go() refuses them (EDT_DESTRUCTIVE), before anything is attached.
  if (going && layout_.destructive && !options_.flag("destructive")) {
    return makeError("Destructive actions not allowed");
  }
  // A per-CPU map value (and a BPF instruction's offset) reaches 32 KiB.
  if (layout_.scratchSize > kMaxScratchSize) {
    return makeError("scratch space of " + std::to_string(layout_.scratchSize) +
                     " bytes per CPU exceeds the limit of " + std::to_string(kMaxScratchSize) +
                     ": lower strsize (now " + std::to_string(compiler_.types().strsize()) +
                     "), scratchsize (now " + std::to_string(scratchsize) +
                     ") or the size of clause-local variables");
  }
  if (going) {
    if (auto r = checkBufferSizes(); !r) return r;
  }
  configureRuntime();
  for (ir::Ecb& ecb : ir_.ecbs) completeEcb(ecb);
  ir_.aggregations = layout_.aggregations;
  ir_.formats = layout_.formats;
  ir_.types = layout_.types;
  // ERROR has no program of its own: its clauses run inline where a fault
  // happens, so they are found first.
  for (ProbeEnabling& e : enablings_) {
    if (!isErrorProbe(*e.probe)) continue;
    if (auto r = compiler_.catalog().describeArgs(*e.probe); !r) return r;
    errorEnabling_ = &e;
  }
  return {};
}

// dtrace_state_go(): the buffers the enabling needs must hold its records.
Result<void> Program::checkBufferSizes() {
  if (options_.text("bufpolicy") == "fill") {
    // As DTrace keeps room for END in each CPU's fill buffer.
    uint64_t endRecords = 0;
    for (const ProbeEnabling& e : enablings_) {
      if (e.probe->provider != "dtrace" || e.probe->name != "END") continue;
      for (const auto& [clauseIndex, epid] : e.clauses) {
        const codegen::ClauseLayout& cl = layout_.clauses[clauseIndex];
        if (cl.recordsData) endRecords += sizeof(ir::RecordHeader) + cl.dataSize;
      }
    }
    const uint64_t bufsize = options_.size("bufsize");
    if (endRecords >= bufsize) return makeError("Enabling exceeds size of buffer");
    layout_.runtime.fillLimit = bufsize - endRecords;
  }
  // dtrace_state_go(): a buffer the enabling needs, sized under 8 bytes,
  // fails with ENOSPC; bufsize is raised when aggregations need it as
  // scratch.
  {
    constexpr uint64_t kSmallest = sizeof(uint64_t);
    const bool aggregates = !layout_.aggregations.empty();
    const uint64_t aggsize = options_.size("aggsize");
    const bool bufferRaised = aggregates && aggsize != 0;
    if ((!enablings_.empty() && !bufferRaised && options_.size("bufsize") < kSmallest) ||
        (layout_.speculations > 0 && options_.size("specsize") < kSmallest) ||
        (aggregates && aggsize < kSmallest)) {
      return makeError("Enabling exceeds size of buffer");
    }
  }
  return {};
}

// What the options decide about how tracing runs (ir::RuntimeConfig);
// fillLimit and aggregationBytesPerCpu are set with the buffers' sizes.
void Program::configureRuntime() {
  // Records ordered across CPUs by time carry it (consume::TemporalOrder).
  layout_.runtime.recordTimestamps =
      options_.flag("temporal") || options_.text("bufpolicy") == "ring";
  if (options_.isSet("cpu"))
    layout_.runtime.tracingCpu = static_cast<uint32_t>(options_.value("cpu"));
  // stackdepth and ustackdepth count at most maxframes (Oracle's option),
  // and never more than the kernel unwinds.
  layout_.runtime.stackDepthLimit = std::min(stackOptions(options_).maxFrames, kernelMaxFrames());
}

void Program::completeEcb(ir::Ecb& ecb) const {
  const codegen::ClauseLayout& cl = layout_.clauses.at(ecb.clauseIndex);
  ecb.actions = cl.orderedActions;
  ecb.dataSize = cl.recordsData ? cl.dataSize : 0;
  ecb.hasActionMask = cl.hasActionMask;
}

Result<void> Program::load() {
  listing_ = compiler_.showsProgram();
  if (auto r = output::checkSinkOptions(options_); !r) return r;
  if (auto r = layOut(); !r) return r;
  // dtrace_state_go(): the status rate is at most dtrace_statusrate_max
  // (10 s), the cleaning rate within 200 us and 60 s (0 meaning 60 s);
  // dtrace(1M) reports a rate changed so.
  constexpr uint64_t kSecond = 1000000000;
  if (options_.isSet("statusrate") && options_.timeNs("statusrate") > 10 * kSecond) {
    (void)options_.set("statusrate", "10s");
  }
  if (const uint64_t clean = options_.timeNs("cleanrate"); clean == 0 || clean > 60 * kSecond) {
    (void)options_.set("cleanrate", "60s");
  } else if (clean < 200000) {
    (void)options_.set("cleanrate", "200us");
  }
  if (layout_.runtime.tracingCpu) {
    const std::vector<int> online = onlineCpus();
    if (std::find(online.begin(), online.end(), static_cast<int>(*layout_.runtime.tracingCpu)) ==
        online.end()) {
      return makeError("CPU " + std::to_string(*layout_.runtime.tracingCpu) + " is not online");
    }
    compiler_.catalog().setTracingCpu(*layout_.runtime.tracingCpu);
  }
  const int here = sched_getcpu();
  consumerCpu_ = layout_.runtime.tracingCpu ? *layout_.runtime.tracingCpu
                                            : static_cast<uint32_t>(std::max(here, 0));
  if (auto r = createMaps(); !r) return r;
  std::vector<ProbeEnabling*> all;
  for (ProbeEnabling& e : enablings_) {
    if (&e != errorEnabling_) all.push_back(&e);
  }
  return loadPrograms(all);
}

void Program::showVariableTables() {
  if (!layOut(false)) return;
  for (size_t i = 0; i < compiler_.clauses().size(); i++) {
    const ast::ProbeClause& clause = *compiler_.clauses()[i];
    const std::string table = formatVariableTable(clause, compiler_.symbols(), layout_);
    if (table.empty()) continue;
    std::string probes;
    for (const ast::ProbeSpec& p : clause.probes) probes += (probes.empty() ? "" : ", ") + p.text;
    std::fprintf(stderr, "\nVariables of clause %zu (%s, line %u):\n%s", i, probes.c_str(),
                 clause.loc.line, table.c_str());
  }
}

Result<size_t> Program::generateUnloaded(size_t maxPrograms, bool listPrograms) {
  const bool listing = std::exchange(listing_, listPrograms);
  if (auto r = layOut(false); !r) {
    listing_ = listing;
    return r.error();
  }
  // Descriptors no map has: nothing generated here reaches the kernel.
  int next = 1000;
  ir::MapFds fds;
  fds.globals = next++;
  fds.scratch = next++;
  fds.counters = next++;
  fds.cpuRings = next++;
  fds.ringbufWakeBytes = (4 << 20) / 4;
  if (layout_.speculations > 0) fds.speculationUsage = next++;
  if (layout_.threadCpuTime) {
    fds.threadCpuSums = next++;
    fds.sliceStarts = next++;
  }
  std::vector<int> arrays;
  for (size_t i = 0; i < layout_.mapArrays.size(); i++) arrays.push_back(next++);
  auto refer = [&](const codegen::MapPlace& place) {
    if (!place.shared()) return ir::MapRef{next++};
    return ir::MapRef{arrays.at(place.array), static_cast<int32_t>(place.slot)};
  };
  for (const codegen::MapPlace& place : layout_.aggregationPlaces) {
    fds.aggregations.push_back(refer(place));
  }
  if (!layout_.aggregations.empty()) fds.aggregationZero = next++;
  for (const codegen::DynamicLayout& d : layout_.dynamics) fds.dynamics.push_back(refer(d.place));
  size_t instructions = 0, programs = 0;
  for (ProbeEnabling& e : enablings_) {
    if (&e == errorEnabling_) continue;
    if (programs++ == maxPrograms) break;
    if (!e.probe->argsDescribed) {
      if (auto r = compiler_.catalog().describeArgs(*e.probe); !r) return r.error();
    }
    ir::MapFds programFds = fds;
    if (e.probe->owner && e.probe->owner->sharesPrograms()) programFds.probeTable = next;
    auto insns = emitProgram(e, programFds);
    if (!insns) {
      listing_ = listing;
      return insns.error();
    }
    instructions += insns->size();
  }
  listing_ = listing;
  return instructions;
}

// A process mapped new objects (a library it dlopen'd): the descriptions
// that name its providers may match probes there now, which are enabled
// as the ones matched at the start were.
Result<void> Program::extendToProcess(int pid) {
  if (!sym::processExists(pid)) return {};  // gone since it mapped them
  std::map<uint32_t, size_t> enablingIndex;
  for (size_t i = 0; i < enablings_.size(); i++) enablingIndex[enablings_[i].probe->id] = i;
  const size_t enabledBefore = enablings_.size();
  std::vector<ProbeEnabling*> added;
  for (const RetainedSpec& r : retainedSpecs_) {
    auto probes = compiler_.catalog().matchInProcess(r.spec, pid);
    if (!probes) return probes.error();
    for (const providers::Probe* probe : *probes) {
      if (probe->attachKind != providers::AttachKind::Uprobe) continue;
      if (probe->targetPid != pid && probe->targetPid != -1) continue;
      auto known = enablingIndex.find(probe->id);
      if (known != enablingIndex.end() && known->second < enabledBefore) continue;
      ProbeEnabling& e = addEcb(r.clauseIndex, *probe, enablingIndex);
      completeEcb(ir_.ecbs.back());
      if (std::find(added.begin(), added.end(), &e) == added.end()) added.push_back(&e);
    }
  }
  for (ProbeEnabling* e : added) {
    if (!e->probe->argsDescribed) {
      if (auto r = compiler_.catalog().describeArgs(*e->probe); !r) return r;
    }
  }
  return loadPrograms(added);
}

std::set<int> Program::processesWithProbes() const {
  std::set<int> pids;
  for (const ProbeEnabling& e : enablings_) {
    if (e.probe->attachKind == providers::AttachKind::Uprobe) pids.insert(e.probe->targetPid);
  }
  return pids;
}

bool Program::followsEveryProcess() const {
  return std::any_of(retainedSpecs_.begin(), retainedSpecs_.end(), [](const RetainedSpec& r) {
    const std::string& provider = r.spec.provider;
    return r.inProcesses && !provider.empty() && provider != "*" &&
           providers::providerProcessId(provider) == 0;
  });
}

void Program::detach() { bpf::detachAll(links_); }

}  // namespace dtrace::driver
