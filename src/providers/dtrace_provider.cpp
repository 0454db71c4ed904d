#include "providers/dtrace_provider.h"

#include <cstddef>
#include <string>

#include "ir/program.h"
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

  // BEGIN and END have no arguments. ERROR's are DTrace's: arg1 the EPID
  // that faulted, arg2 the action, arg3 the offset, arg4 the fault, arg5
  // the address, read from the fault record its clauses run after.
  Result<void> describeArgs(Probe& probe) override {
    probe.args.assign(kDtraceProbeArgs, ArgSource{});
    if (probe.name == "ERROR") {
      auto field = [&](int i, size_t offset, uint8_t size) {
        probe.args[i].kind = ArgSource::Kind::FaultRecord;
        probe.args[i].offset = static_cast<int16_t>(offset);
        probe.args[i].size = size;
      };
      field(1, offsetof(ir::FaultRecord, epid), 4);
      field(2, offsetof(ir::FaultRecord, actionIndex), 4);
      field(3, offsetof(ir::FaultRecord, difOffset), 4);
      field(4, offsetof(ir::FaultRecord, fault), 4);
      field(5, offsetof(ir::FaultRecord, address), 8);
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
