#include "list_mode.h"

#include <cstdio>
#include <string>

#include "driver/probe_matching.h"
#include "providers/listing.h"
#include "providers/unavailable_provider.h"

namespace dtrace {
namespace {

int fail(const std::string& message) {
  std::fprintf(stderr, "dtrace: %s\n", message.c_str());
  return 1;
}

}  // namespace

// dtrace(1M)'s DMODE_LIST: the header, then each description's probes in
// turn; a description that matches nothing (an unavailable provider's
// included) is reported and the listing goes on (list_stmt).
int listProbes(driver::Compiler& compiler, const std::vector<driver::SourceUnit>& units,
               bool verbose) {
  auto& catalog = compiler.catalog();
  // Like illumos, list the providers every running process registered
  // (python1234), not only those a description names with its pid.
  catalog.setListingRunningProcesses(true);
  auto print = [&](const std::vector<const providers::Probe*>& probes) {
    std::string text;
    for (const auto* p : probes) {
      (void)catalog.describeArgs(*p);
      text += providers::formatProbeListLine(*p);
      if (verbose) text += providers::formatProbeInfo(*p);
    }
    std::fputs(text.c_str(), stdout);
  };
  if (units.empty()) {
    std::fputs(providers::formatProbeListHeader().c_str(), stdout);
    print(catalog.all());
    return 0;
  }
  // Compiled first, as dtrace(1M) compiles before it lists: a bad
  // description fails before the header. A probe ID names its probe.
  auto listed = compiler.descriptionsToList(units);
  if (!listed) return fail(listed.error().message);
  std::fputs(providers::formatProbeListHeader().c_str(), stdout);
  for (const driver::ListedDescription& l : *listed) {
    if (l.byId) {
      print({l.byId});
      continue;
    }
    const ast::ProbeSpec& spec = l.spec;
    auto matched = driver::matchDescription(catalog, spec);
    // A provider this kernel cannot carry matches nothing (D_PDESC_ZERO).
    const bool none =
        matched ? matched->probes.empty() : matched.error().tag == providers::kMatchesNothingTag;
    if (none) {
      std::fflush(stdout);
      std::fprintf(stderr, "dtrace: failed to match %s:%s:%s:%s: No probe matches description\n",
                   spec.provider.c_str(), spec.module.c_str(), spec.function.c_str(),
                   spec.name.c_str());
      continue;
    }
    if (!matched) return fail(matched.error().message);
    print(matched->probes);
  }
  return 0;
}

}  // namespace dtrace
