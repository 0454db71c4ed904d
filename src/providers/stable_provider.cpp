#include "providers/stable_provider.h"

#include <algorithm>

#include "bpf/attach.h"
#include "providers/catalog.h"
#include "providers/glob.h"
#include "providers/unavailable_provider.h"
#include "types/tracepoint_prototype.h"

namespace dtrace::providers {

namespace {

constexpr const char* kModule = "vmlinux";

class StableProvider final : public Provider {
 public:
  StableProvider(std::string name, std::vector<StableProbe> probes,
                 std::vector<UnavailableProbe> unavailable)
      : name_(std::move(name)), probes_(std::move(probes)), unavailable_(std::move(unavailable)) {}

  const std::string& name() const override { return name_; }

  // The Guide's attributes for proc, sched and io: stable names and
  // arguments, no module or function to rely on.
  ProviderAttributes attributes() const override { return evolvingProviderAttributes(); }

  bool mightMatch(const ast::ProbeSpec& spec) const override {
    if (!fieldMatches(kModule, spec.module)) return false;
    if (unavailable(spec)) return true;
    for (const StableProbe& def : probes_) {
      if (fieldMatches(def.name, spec.name) && fieldMatches(def.function, spec.function)) {
        return true;
      }
    }
    return false;
  }

  void enumerate(ProbeCatalog& catalog) override {
    for (const StableProbe& def : probes_) {
      if (!types::hasTracepointPrototype(def.tracepoints.front())) continue;
      Probe& p = catalog.addProbe(*this, kModule, def.function, def.name,
                                  BPF_PROG_TYPE_RAW_TRACEPOINT, AttachKind::Tracepoint);
      p.tpEvent = def.tracepoints.front();
      p.guards = def.guards;
      p.contextTaskWord = def.contextTaskWord;
      p.eventOrder = def.eventOrder;
    }
  }

  // A probe of the provider's that Linux cannot carry, named exactly.
  Result<const Probe*> create(ProbeCatalog&, const ast::ProbeSpec& spec) override {
    if (const UnavailableProbe* u = unavailable(spec)) {
      return Error{"probe " + name_ + ":::" + u->name + " is not available: " + u->reason,
                   kMatchesNothingTag};
    }
    return static_cast<const Probe*>(nullptr);
  }

  Result<void> describeArgs(Probe& probe) override {
    const StableProbe& def = definition(probe);
    if (!def.startTracepoint.empty()) {
      Result<ThreadRecord*> record = threadRecord();
      if (!record) return record.error();
      probe.threadRecordFd = (*record)->mapFd();
    }
    probe.args = def.args;
    probe.argsDescribed = true;
    return {};
  }

  std::string rawTracepoint(const Probe& probe) const override { return probe.tpEvent; }

  // Every tracepoint of the definition the kernel has.
  Result<std::vector<bpf::Link>> attach(const Probe& probe, int progFd) override {
    const StableProbe& def = definition(probe);
    if (!def.startTracepoint.empty()) {
      Result<ThreadRecord*> record = threadRecord();
      if (!record) return record.error();
      StartPoint start;
      start.rawTracepoint = def.startTracepoint;
      start.values = def.recorded;
      if (auto r = (*record)->start(def.startTracepoint, start); !r) return r.error();
    }
    std::vector<bpf::Link> links;
    for (const std::string& tracepoint : def.tracepoints) {
      if (tracepoint != probe.tpEvent && !types::hasTracepointPrototype(tracepoint)) continue;
      auto link = bpf::attachRawTracepoint(progFd, tracepoint);
      if (!link) return link.error();
      links.push_back(std::move(*link));
    }
    return links;
  }

 private:
  const UnavailableProbe* unavailable(const ast::ProbeSpec& spec) const {
    if (spec.provider != name_ || isGlob(spec.name)) return nullptr;
    for (const UnavailableProbe& u : unavailable_) {
      if (u.name == spec.name) return &u;
    }
    return nullptr;
  }

  // The record the provider's start points write, made when a probe first
  // needs it: as many words as the largest definition records, the time
  // included.
  Result<ThreadRecord*> threadRecord() {
    if (!threadRecord_) {
      uint32_t words = 1;
      for (const StableProbe& def : probes_) {
        words = std::max(words, static_cast<uint32_t>(def.recorded.size() + 1));
      }
      Result<std::shared_ptr<ThreadRecord>> made = ThreadRecord::create("dt_" + name_, words);
      if (!made) return made.error();
      threadRecord_ = std::move(*made);
    }
    return threadRecord_.get();
  }

  const StableProbe& definition(const Probe& probe) const {
    for (const StableProbe& def : probes_) {
      if (def.name == probe.name && def.function == probe.function) return def;
    }
    return probes_.front();  // not reached: every probe comes from a definition
  }

  std::string name_;
  std::vector<StableProbe> probes_;
  std::vector<UnavailableProbe> unavailable_;
  std::shared_ptr<ThreadRecord> threadRecord_;
};

}  // namespace

ArgSource contextWord(int index, std::string type, std::string translated) {
  ArgSource a;
  a.kind = ArgSource::Kind::CtxField;
  a.offset = static_cast<int16_t>(8 * index);
  a.size = 8;
  a.typeName = std::move(type);
  a.translatedType = std::move(translated);
  return a;
}

ArgSource contextMember(int index, std::vector<std::pair<std::string, std::string>> members,
                        uint8_t size, std::string type, std::string translated) {
  ArgSource a = contextWord(index, std::move(type), std::move(translated));
  a.kind = ArgSource::Kind::CtxMember;
  a.size = size;
  a.members = std::move(members);
  return a;
}

ProbeGuard guard(ProbeGuard::Test test, ArgSource value, std::vector<int64_t> operands) {
  ProbeGuard g;
  g.test = test;
  g.value = std::move(value);
  g.operands = std::move(operands);
  return g;
}

std::unique_ptr<Provider> makeStableProvider(std::string name, std::vector<StableProbe> probes,
                                             std::vector<UnavailableProbe> unavailable) {
  return std::make_unique<StableProvider>(std::move(name), std::move(probes),
                                          std::move(unavailable));
}

}  // namespace dtrace::providers
