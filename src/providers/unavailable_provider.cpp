#include "providers/unavailable_provider.h"

#include "providers/glob.h"

namespace dtrace::providers {

namespace {

class UnavailableProvider final : public Provider {
 public:
  UnavailableProvider(std::string name, std::string reason)
      : name_(std::move(name)), reason_(std::move(reason)) {}

  const std::string& name() const override { return name_; }

  ProviderAttributes attributes() const override {
    const Attribute evolving{Stability::Evolving, Stability::Evolving, DependencyClass::Common};
    const Attribute priv{Stability::Private, Stability::Private, DependencyClass::Unknown};
    const Attribute isa{Stability::Private, Stability::Private, DependencyClass::Isa};
    return {evolving, priv, priv, evolving, isa};
  }

  // Only a description that names the provider itself reaches it, so
  // `:::entry` and `*:::` still work and simply list none of its probes.
  bool mightMatch(const ast::ProbeSpec& spec) const override {
    return !spec.provider.empty() && !isGlob(spec.provider);
  }

  void enumerate(ProbeCatalog&) override {}

  Result<const Probe*> create(ProbeCatalog&, const ast::ProbeSpec&) override {
    return Error{reason_, kMatchesNothingTag};
  }

  Result<void> describeArgs(Probe&) override { return Error{reason_}; }

  Result<std::vector<bpf::Link>> attach(const Probe&, int) override { return Error{reason_}; }

 private:
  std::string name_;
  std::string reason_;
};

}  // namespace

std::unique_ptr<Provider> makeUnavailableProvider(std::string name, std::string reason) {
  return std::make_unique<UnavailableProvider>(std::move(name), std::move(reason));
}

}  // namespace dtrace::providers
