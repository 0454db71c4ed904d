// Generating, loading and attaching the eBPF programs of an enabled
// program, and running BEGIN's and END's.
#include <algorithm>
#include <array>
#include <cstdio>
#include <optional>
#include <tuple>

#include "codegen/emitter.h"
#include "driver/program.h"
#include "driver/program_listing.h"
#include "types/kernel_btf.h"
#include "util/thread_on_cpu.h"

namespace dtrace::driver {

using ir::Activity;

// Probes of a provider that shares programs, read alike and running the
// same clauses, get one program between them (thousands of pid probes
// would otherwise take as many programs to load); others one each.
Result<void> Program::loadPrograms(const std::vector<ProbeEnabling*>& enablings) {
  using GroupKey = std::tuple<const providers::Provider*, std::string, std::vector<size_t>>;
  std::map<GroupKey, std::vector<ProbeEnabling*>> groups;
  // A kernel event runs the programs attached to it in the order they
  // were attached.
  std::vector<ProbeEnabling*> ordered = enablings;
  std::stable_sort(ordered.begin(), ordered.end(),
                   [](const ProbeEnabling* a, const ProbeEnabling* b) {
                     return a->probe->eventOrder < b->probe->eventOrder;
                   });
  for (ProbeEnabling* e : ordered) {
    const providers::Provider* owner = e->probe->owner;
    if (!owner || !owner->sharesPrograms()) {
      ProbeEnabling* one[] = {e};
      if (auto r = loadProgram(one); !r) return r;
      continue;
    }
    std::vector<size_t> clauseIndexes;
    for (const auto& [clauseIndex, epid] : e->clauses) clauseIndexes.push_back(clauseIndex);
    groups[{owner, e->probe->argumentsKey, std::move(clauseIndexes)}].push_back(e);
  }
  for (auto& [key, group] : groups) {
    if (auto r = loadProgram(group); !r) return r;
  }
  return {};
}

Result<std::vector<bpf::Insn>> Program::emitProgram(const ProbeEnabling& enabling,
                                                    const ir::MapFds& fds) {
  const providers::Probe& probe = *enabling.probe;
  Activity expected = probe.provider == "dtrace" && probe.name == "BEGIN" ? Activity::Warmup
                      : probe.provider == "dtrace" && probe.name == "END" ? Activity::Cooldown
                                                                          : Activity::Active;
  auto enabledClauses = [this](const ProbeEnabling& e) {
    std::vector<codegen::EnabledClause> clauses;
    for (auto [clauseIndex, epid] : e.clauses) {
      clauses.push_back({&layout_.clauses.at(clauseIndex), epid});
    }
    return clauses;
  };
  codegen::ProgramEmitter emitter(probe, expected, layout_, fds, compiler_.types(),
                                  [](const char* type, const char* member) {
                                    return types::KernelBtf::instance().memberOffset(type, member);
                                  });
  if (errorEnabling_)
    emitter.setErrorClauses(*errorEnabling_->probe, enabledClauses(*errorEnabling_));
  auto insns = emitter.emit(enabledClauses(enabling));
  if (!insns) {
    return makeError("failed to compile program for " + fullName(probe) + ": " +
                     insns.error().message);
  }
  if (listing_) {
    // Each clause under the description it matched this probe by.
    std::vector<ListedClause> listed;
    for (const auto& [clauseIndex, epid] : enabling.clauses) {
      ListedClause c{"", clauseIndex};
      for (const RetainedSpec& r : retainedSpecs_) {
        if (r.clauseIndex == clauseIndex && specMatches(r.spec, probe)) {
          c.description = fullDescription(r.spec);
          break;
        }
      }
      listed.push_back(std::move(c));
    }
    const std::string heading = fullName(probe) + " (probe ID " + std::to_string(probe.id) + ")";
    std::fputs(formatProgramListing(heading, *insns, emitter.clauseStarts(), listed).c_str(),
               stderr);
  }
  return insns;
}

Result<void> Program::loadProgram(std::span<ProbeEnabling* const> group) {
  ProbeEnabling& enabling = *group.front();
  const providers::Probe& probe = *enabling.probe;
  const bool shared = probe.owner && probe.owner->sharesPrograms();
  // BEGIN, END and ERROR run in the consumer's own thread: their programs
  // are run directly (BPF_PROG_RUN), in order with everything else.
  bool firedByConsumer = probe.attachKind == providers::AttachKind::Consumer;
  if (!probe.argsDescribed) {
    if (auto r = compiler_.catalog().describeArgs(probe); !r) return r;
  }
  const providers::Probe& probeView = probe;
  auto fdsOrError = mapFds(firedByConsumer);
  if (!fdsOrError) return fdsOrError.error();
  ir::MapFds fds = std::move(*fdsOrError);
  if (shared) {
    Result<int> table = createProbeTable(group);
    if (!table) return table.error();
    fds.probeTable = *table;
  }

  const std::string description = fullName(probe);
  auto insns = emitProgram(enabling, fds);
  if (!insns) return insns.error();
  std::string log;
  // -x bpflog (Oracle's): every program's verifier log, each line marked "BPF: ".
  const bool bpflog = options_.flag("bpflog");
  auto program =
      bpf::Program::load(shared ? probe.owner->programKind(probe) : probeView.progType,
                         "dt_" + std::to_string(probe.id), *insns, &log, listing_ || bpflog);
  if (!program) {
    return makeError("failed to enable " + description + ": " + program.error().message);
  }
  if (bpflog) {
    for (size_t at = 0; at < log.size();) {
      const size_t end = std::min(log.find('\n', at), log.size());
      std::fprintf(stderr, "BPF: %.*s\n", static_cast<int>(end - at), log.data() + at);
      at = end + 1;
    }
  } else if (listing_ && !log.empty()) {
    std::fprintf(stderr, "%s\n", log.c_str());
  }
  loaded_.push_back(std::move(*program));
  const bpf::Program& loadedProgram = loaded_.back();
  if (firedByConsumer) {
    if (probe.name == "BEGIN") beginProgram_ = &loadedProgram;
    if (probe.name == "END") endProgram_ = &loadedProgram;
    return {};
  }
  std::vector<const providers::Probe*> probes;
  for (const ProbeEnabling* e : group) probes.push_back(e->probe);
  auto links = shared ? probe.owner->attachGroup(probes, loadedProgram.fd())
                      : compiler_.catalog().attach(probe, loadedProgram.fd());
  if (!links) return makeError("failed to enable " + description + ": " + links.error().message);
  for (auto& l : *links) links_.push_back(std::move(l));
  for (const std::string& w : probe.owner->takeWarnings()) {
    std::fprintf(stderr, "dtrace: %s: %s\n", description.c_str(), w.c_str());
  }
  return {};
}

// BEGIN and END run in this thread (so that they see dtrace as the
// current process), on the CPU whose ring their programs name (-x cpu's:
// there unless the thread may not move there).
Result<void> Program::fire(const bpf::Program& program) const {
  // BEGIN and END see every argument as 0, as in DTrace.
  const std::array<uint64_t, 6> noArgs{};
  ThreadOnCpu onConsumerCpu(consumerCpu_);
  if (auto r = program.run(noArgs, layout_.runtime.tracingCpu); !r) return r.error();
  return {};
}

Result<void> Program::fireBegin() const {
  return beginProgram_ ? fire(*beginProgram_) : Result<void>{};
}

Result<void> Program::fireEnd() const { return endProgram_ ? fire(*endProgram_) : Result<void>{}; }

}  // namespace dtrace::driver
