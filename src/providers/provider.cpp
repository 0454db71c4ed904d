#include "providers/provider.h"

#include <algorithm>

#include "providers/glob.h"

namespace dtrace::providers {

ProviderAttributes evolvingProviderAttributes() {
  const Attribute evolving{Stability::Evolving, Stability::Evolving, DependencyClass::Isa};
  const Attribute priv{Stability::Private, Stability::Private, DependencyClass::Unknown};
  return {evolving, priv, priv, evolving, evolving};
}

const char* stabilityName(Stability s) {
  switch (s) {
    case Stability::Internal:
      return "Internal";
    case Stability::Private:
      return "Private";
    case Stability::Obsolete:
      return "Obsolete";
    case Stability::External:
      return "External";
    case Stability::Unstable:
      return "Unstable";
    case Stability::Evolving:
      return "Evolving";
    case Stability::Stable:
      return "Stable";
    case Stability::Standard:
      return "Standard";
  }
  return "Unknown";
}

const char* dependencyClassName(DependencyClass c) {
  switch (c) {
    case DependencyClass::Unknown:
      return "Unknown";
    case DependencyClass::Cpu:
      return "CPU";
    case DependencyClass::Platform:
      return "Platform";
    case DependencyClass::Group:
      return "Group";
    case DependencyClass::Isa:
      return "ISA";
    case DependencyClass::Common:
      return "Common";
  }
  return "Unknown";
}

Attribute minAttribute(const Attribute& a, const Attribute& b) {
  return Attribute{std::min(a.name, b.name), std::min(a.data, b.data),
                   std::min(a.dependency, b.dependency)};
}

bool Provider::moduleMatches(const Probe& probe, std::string_view pattern) const {
  return fieldMatches(probe.module, pattern);
}

Result<std::vector<bpf::Link>> Provider::attachGroup(std::span<const Probe* const> group,
                                                     int progFd) {
  std::vector<bpf::Link> links;
  for (const Probe* probe : group) {
    auto attached = attach(*probe, progFd);
    if (!attached) return attached.error();
    for (bpf::Link& l : *attached) links.push_back(std::move(l));
  }
  return links;
}

}  // namespace dtrace::providers
