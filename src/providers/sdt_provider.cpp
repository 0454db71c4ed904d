#include "providers/sdt_provider.h"

#include <fstream>
#include <string_view>

#include "bpf/attach.h"
#include "providers/catalog.h"
#include "providers/glob.h"

namespace dtrace::providers {

namespace {

class SdtProvider final : public Provider {
 public:
  const std::string& name() const override { return name_; }

  ProviderAttributes attributes() const override {
    const Attribute evolving{Stability::Evolving, Stability::Evolving, DependencyClass::Isa};
    const Attribute priv{Stability::Private, Stability::Private, DependencyClass::Unknown};
    const Attribute isa{Stability::Private, Stability::Private, DependencyClass::Isa};
    return {evolving, priv, priv, isa, isa};
  }

  // Listing reads every tracepoint, so only a description with a
  // provider field reaches it (`BEGIN` must not); events have no function.
  bool mightMatch(const ast::ProbeSpec& spec) const override {
    return !spec.provider.empty() && fieldMatches("", spec.function);
  }

  // One read of available_events; an event whose raw tracepoint the
  // kernel's BTF does not describe cannot be carried, and is not listed.
  void enumerate(ProbeCatalog& catalog) override {
    std::ifstream events(bpf::tracefsRoot() + "/available_events");
    std::string line;
    while (std::getline(events, line)) {
      const size_t colon = line.find(':');
      if (colon == std::string::npos) continue;
      std::string category = line.substr(0, colon), event = line.substr(colon + 1);
      if (!isSdtCategory(category) || !types::hasTracepointPrototype(event)) continue;
      Probe& p = catalog.addProbe(*this, category, "", event, BPF_PROG_TYPE_RAW_TRACEPOINT,
                                  AttachKind::Tracepoint);
      p.tpCategory = std::move(category);
      p.tpEvent = std::move(event);
    }
  }

  Result<void> describeArgs(Probe& probe) override {
    auto params = types::tracepointPrototype(probe.tpEvent);
    if (!params) return params.error();
    probe.args = rawTracepointArgs(*params);
    // A raw-tracepoint program may read only as many words as the
    // tracepoint passes, so programs are shared by probes of one arity.
    probe.argumentsKey = std::to_string(probe.args.size());
    probe.argsDescribed = true;
    return {};
  }

  std::string rawTracepoint(const Probe& probe) const override { return probe.tpEvent; }

  Result<std::vector<bpf::Link>> attach(const Probe& probe, int progFd) override {
    const Probe* one[] = {&probe};
    return attachGroup(one, progFd);
  }

  bool sharesPrograms() const override { return true; }

  Result<std::vector<bpf::Link>> attachGroup(std::span<const Probe* const> group,
                                             int progFd) override {
    std::vector<bpf::Link> links;
    for (uint32_t i = 0; i < group.size(); i++) {
      auto link = bpf::attachRawTracepoint(progFd, group[i]->tpEvent, i);
      if (!link) return link.error();
      links.push_back(std::move(*link));
    }
    return links;
  }

 private:
  std::string name_ = "sdt";
};

}  // namespace

bool isSdtCategory(std::string_view category) {
  return category != "syscalls" && category != "kprobes" && category != "uprobes" &&
         category != "ftrace";
}

std::vector<ArgSource> rawTracepointArgs(const std::vector<types::TracepointParam>& params) {
  std::vector<ArgSource> args;
  for (size_t i = 0; i < params.size(); i++) {
    ArgSource a;
    a.kind = ArgSource::Kind::CtxField;
    a.offset = static_cast<int16_t>(8 * i);
    a.size = 8;
    a.typeName = params[i].type;
    args.push_back(std::move(a));
  }
  return args;
}

std::unique_ptr<Provider> makeSdtProvider() { return std::make_unique<SdtProvider>(); }

}  // namespace dtrace::providers
