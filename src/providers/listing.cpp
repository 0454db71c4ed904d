#include "providers/listing.h"

#include <cstdio>

#include "providers/glob.h"
#include "providers/provider.h"

namespace dtrace::providers {

namespace {

std::string printfString(const char* fmt, const char* a, const char* b, const char* c,
                         const char* d, const char* e) {
  char buf[512];
  int n = snprintf(buf, sizeof buf, fmt, a, b, c, d, e);
  if (n < 0) return {};
  if (static_cast<size_t>(n) < sizeof buf) return std::string(buf, static_cast<size_t>(n));
  std::string out(static_cast<size_t>(n) + 1, '\0');
  snprintf(out.data(), out.size(), fmt, a, b, c, d, e);
  out.pop_back();
  return out;
}

void appendAttribute(std::string& out, const char* title, const Attribute& a) {
  out += "\n\t";
  out += title;
  out += "\n\t\tIdentifier Names: ";
  out += stabilityName(a.name);
  out += "\n\t\tData Semantics:   ";
  out += stabilityName(a.data);
  out += "\n\t\tDependency Class: ";
  out += dependencyClassName(a.dependency);
  out += "\n";
}

// A field given literally narrows the description's stability; an empty one
// does not count (as in DTrace, where an empty field is a match-all glob).
bool counts(const std::string& field) { return !field.empty() && !isGlob(field); }

}  // namespace

std::string formatProbeListHeader() {
  return printfString("%5s %10s %17s %33s %s\n", "ID", "PROVIDER", "MODULE", "FUNCTION", "NAME");
}

std::string formatProbeListLine(const Probe& probe) {
  const std::string id = std::to_string(probe.id);
  return printfString("%5s %10s %17s %33s %s\n", id.c_str(), probe.provider.c_str(),
                      probe.module.c_str(), probe.function.c_str(), probe.name.c_str());
}

std::string formatProbeInfo(const Probe& probe) {
  ProviderAttributes pa;
  if (probe.owner != nullptr) pa = probe.owner->attributes();
  Attribute desc = pa.provider;
  if (counts(probe.module)) desc = minAttribute(desc, pa.module);
  if (counts(probe.function)) desc = minAttribute(desc, pa.function);
  if (counts(probe.name)) desc = minAttribute(desc, pa.name);
  return formatProbeInfo(probe, desc, pa.args);
}

std::string formatProbeInfo(const Probe& probe, const Attribute& description,
                            const Attribute& arguments) {
  if (!probe.argsDescribed && probe.owner != nullptr) {
    // The catalog owns its probes as mutable objects; filling in the
    // argument description lazily does not change the probe's identity.
    Probe& owned = const_cast<Probe&>(probe);
    if (owned.owner->describeArgs(owned)) owned.argsDescribed = true;
  }
  std::string out;
  appendAttribute(out, "Probe Description Attributes", description);
  appendAttribute(out, "Argument Attributes", arguments);
  out += "\n\tArgument Types\n";
  size_t typed = 0;
  while (typed < probe.args.size() && !probe.args[typed].typeName.empty()) {
    const ArgSource& a = probe.args[typed];
    out += "\t\targs[" + std::to_string(typed) +
           "]: " + (a.translatedType.empty() ? a.typeName : a.translatedType) + "\n";
    ++typed;
  }
  if (typed == 0) out += "\t\tNone\n";
  out += "\n";
  return out;
}

std::string formatProbeList(const std::vector<const Probe*>& probes, bool verbose) {
  std::string out = formatProbeListHeader();
  for (const Probe* p : probes) {
    out += formatProbeListLine(*p);
    if (verbose) out += formatProbeInfo(*p);
  }
  return out;
}

}  // namespace dtrace::providers
