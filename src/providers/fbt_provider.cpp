#include "providers/fbt_provider.h"

#include <string>

#include "providers/glob.h"

namespace dtrace::providers {

namespace {

class FbtProvider final : public Provider {
 public:
  const std::string& name() const override { return name_; }

  ProviderAttributes attributes() const override {
    const Attribute evolving{Stability::Evolving, Stability::Evolving, DependencyClass::Common};
    const Attribute priv{Stability::Private, Stability::Private, DependencyClass::Unknown};
    const Attribute isa{Stability::Private, Stability::Private, DependencyClass::Isa};
    return {evolving, priv, priv, evolving, isa};
  }

  // Only a description that names fbt itself reaches it, so `:::entry` and
  // `*:::` still work and simply list no fbt probes.
  bool mightMatch(const ast::ProbeSpec& spec) const override {
    return !spec.provider.empty() && !isGlob(spec.provider);
  }

  void enumerate(ProbeCatalog&) override {}

  Result<const Probe*> create(ProbeCatalog&, const ast::ProbeSpec&) override {
    return Error{kFbtUnavailable};
  }

  Result<void> describeArgs(Probe&) override { return Error{kFbtUnavailable}; }

  Result<std::vector<bpf::Link>> attach(const Probe&, int) override {
    return Error{kFbtUnavailable};
  }

 private:
  std::string name_ = "fbt";
};

}  // namespace

std::unique_ptr<Provider> makeFbtProvider() { return std::make_unique<FbtProvider>(); }

}  // namespace dtrace::providers
