#include "driver/probe_matching.h"

#include <climits>
#include <cstdlib>

#include "providers/glob.h"

namespace dtrace::driver {

std::string fullDescription(const ast::ProbeSpec& s) {
  return s.provider + ":" + s.module + ":" + s.function + ":" + s.name;
}

std::string fullName(const providers::Probe& p) {
  return p.provider + ":" + p.module + ":" + p.function + ":" + p.name;
}

bool specMatches(const ast::ProbeSpec& s, const providers::Probe& p) {
  auto field = [](const std::string& pattern, const std::string& value) {
    return pattern.empty() || providers::gmatch(value, pattern);
  };
  return field(s.provider, p.provider) && field(s.module, p.module) &&
         field(s.function, p.function) && field(s.name, p.name);
}

bool namesProbeId(const ast::ProbeSpec& s) {
  return !s.text.empty() && s.text.find_first_not_of("0123456789") == std::string::npos;
}

Result<const providers::Probe*> probeById(providers::ProbeCatalog& catalog,
                                          const ast::ProbeSpec& s) {
  uint64_t id = std::strtoull(s.text.c_str(), nullptr, 10);
  const providers::Probe* p = id <= UINT32_MAX ? catalog.byId(static_cast<uint32_t>(id)) : nullptr;
  if (!p) {
    return Error{"invalid probe identifier " + s.text + ": Unknown probe identifier",
                 "D_PDESC_INVAL"};
  }
  return p;
}

Result<DescriptionMatch> matchDescription(providers::ProbeCatalog& catalog, ast::ProbeSpec spec) {
  if (namesProbeId(spec)) {
    auto p = probeById(catalog, spec);
    if (!p) return p.error();
    spec.provider = (*p)->provider;
    spec.module = (*p)->module;
    spec.function = (*p)->function;
    spec.name = (*p)->name;
    return DescriptionMatch{std::move(spec), {*p}};
  }
  auto probes = catalog.match(spec);
  if (!probes) return probes.error();
  return DescriptionMatch{std::move(spec), std::move(*probes)};
}

}  // namespace dtrace::driver
