#include "providers/stable_provider.h"

#include "bpf/attach.h"
#include "providers/catalog.h"
#include "providers/glob.h"
#include "types/tracepoint_prototype.h"

namespace dtrace::providers {

namespace {

constexpr const char* kModule = "vmlinux";

class StableProvider final : public Provider {
 public:
  StableProvider(std::string name, std::vector<StableProbe> probes)
      : name_(std::move(name)), probes_(std::move(probes)) {}

  const std::string& name() const override { return name_; }

  // The Guide's attributes for proc, sched and io: stable names and
  // arguments, no module or function to rely on.
  ProviderAttributes attributes() const override {
    const Attribute evolving{Stability::Evolving, Stability::Evolving, DependencyClass::Isa};
    const Attribute priv{Stability::Private, Stability::Private, DependencyClass::Unknown};
    return {evolving, priv, priv, evolving, evolving};
  }

  bool mightMatch(const ast::ProbeSpec& spec) const override {
    if (!fieldMatches(kModule, spec.module) || !fieldMatches("", spec.function)) return false;
    for (const StableProbe& def : probes_) {
      if (fieldMatches(def.name, spec.name)) return true;
    }
    return false;
  }

  void enumerate(ProbeCatalog& catalog) override {
    for (const StableProbe& def : probes_) {
      if (!types::hasTracepointPrototype(def.tracepoint)) continue;
      Probe& p = catalog.addProbe(*this, kModule, "", def.name, BPF_PROG_TYPE_RAW_TRACEPOINT,
                                  AttachKind::Tracepoint);
      p.tpEvent = def.tracepoint;
      p.guards = def.guards;
    }
  }

  Result<void> describeArgs(Probe& probe) override {
    for (const StableProbe& def : probes_) {
      if (def.name == probe.name) probe.args = def.args;
    }
    probe.argsDescribed = true;
    return {};
  }

  std::string rawTracepoint(const Probe& probe) const override { return probe.tpEvent; }

  Result<std::vector<bpf::Link>> attach(const Probe& probe, int progFd) override {
    auto link = bpf::attachRawTracepoint(progFd, probe.tpEvent);
    if (!link) return link.error();
    std::vector<bpf::Link> links;
    links.push_back(std::move(*link));
    return links;
  }

 private:
  std::string name_;
  std::vector<StableProbe> probes_;
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

std::unique_ptr<Provider> makeStableProvider(std::string name, std::vector<StableProbe> probes) {
  return std::make_unique<StableProvider>(std::move(name), std::move(probes));
}

}  // namespace dtrace::providers
