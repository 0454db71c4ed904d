#include "providers/dtrace_provider.h"

#include <string>

#include "providers/catalog.h"
#include "providers/glob.h"

namespace dtrace::providers {

namespace {

const char* const kNames[] = {"BEGIN", "END", "ERROR"};

class DtraceProvider final : public Provider {
 public:
  const std::string& name() const override { return name_; }

  ProviderAttributes attributes() const override {
    const Attribute stable{Stability::Stable, Stability::Stable, DependencyClass::Common};
    const Attribute priv{Stability::Private, Stability::Private, DependencyClass::Unknown};
    return {stable, priv, priv, stable, stable};
  }

  bool mightMatch(const ast::ProbeSpec& spec) const override {
    if (!fieldMatches("", spec.module) || !fieldMatches("", spec.function)) return false;
    for (const char* n : kNames) {
      if (fieldMatches(n, spec.name)) return true;
    }
    return false;
  }

  void enumerate(ProbeCatalog& catalog) override {
    for (const char* n : kNames) {
      catalog.addProbe(*this, "", "", n, BPF_PROG_TYPE_RAW_TRACEPOINT, AttachKind::Consumer);
    }
  }

  Result<void> describeArgs(Probe& probe) override {
    probe.args.clear();
    for (int i = 0; i < kDtraceProbeArgs; ++i) {
      ArgSource a;
      a.kind = ArgSource::Kind::CtxField;
      a.offset = static_cast<int16_t>(8 * i);
      a.size = 8;
      a.isSigned = true;
      probe.args.push_back(a);
    }
    probe.argsDescribed = true;
    return {};
  }

  // Nothing to attach: the consumer runs these programs itself.
  Result<std::vector<bpf::Link>> attach(const Probe& /*probe*/, int /*progFd*/) override {
    return std::vector<bpf::Link>{};
  }

 private:
  std::string name_ = "dtrace";
};

}  // namespace

std::unique_ptr<Provider> makeDtraceProvider() { return std::make_unique<DtraceProvider>(); }

}  // namespace dtrace::providers
