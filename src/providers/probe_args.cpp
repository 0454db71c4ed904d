#include "providers/probe_args.h"

#include "providers/glob.h"
#include "providers/provider.h"

namespace dtrace::providers {

namespace {

bool isPattern(const std::string& field) { return field.empty() || isGlob(field); }

}  // namespace

const Probe* argsProbe(const ast::ProbeSpec& spec, const std::vector<const Probe*>& matched) {
  if (matched.empty()) return nullptr;
  const Probe* first = matched.front();
  if (matched.size() == 1 || !first->owner) return first;
  // Several probes agree on their arguments only when the provider's
  // argument data is at least Evolving and no field whose names are at
  // least Evolving is left open.
  const ProviderAttributes a = first->owner->attributes();
  if (a.args.data < Stability::Evolving) return nullptr;
  if (a.module.name >= Stability::Evolving && isPattern(spec.module)) return nullptr;
  if (a.function.name >= Stability::Evolving && isPattern(spec.function)) return nullptr;
  if (a.name.name >= Stability::Evolving && isPattern(spec.name)) return nullptr;
  return first;
}

}  // namespace dtrace::providers
