#include "providers/uprobe_provider.h"

#include <sys/stat.h>

#include <cstdio>
#include <map>
#include <utility>

#include "providers/glob.h"
#include "sym/process_maps.h"

namespace dtrace::providers {

bool objectMatches(std::string_view pattern, std::string_view path, bool executable) {
  if (pattern.empty()) return true;
  if (pattern == "a.out") return executable;
  const std::string_view base = sym::baseName(path);
  if (gmatch(base, pattern) || gmatch(path, pattern)) return true;
  const size_t so = base.find(".so");
  return so != std::string_view::npos && gmatch(base.substr(0, so), pattern);
}

bool UprobeProvider::moduleMatches(const Probe& probe, std::string_view pattern) const {
  return fieldMatches(probe.module, pattern) ||
         objectMatches(pattern, probe.mappedPath, probe.inExecutable);
}

bpf::ProgramKind UprobeProvider::programKind(const Probe& probe) const {
  if (bpf::uprobeMultiSupported()) return {probe.progType, BPF_TRACE_UPROBE_MULTI};
  return probe.progType;
}

Result<std::vector<bpf::Link>> UprobeProvider::attach(const Probe& probe, int progFd) {
  const Probe* group[] = {&probe};
  return attachGroup(group, progFd);
}

Result<std::vector<bpf::Link>> UprobeProvider::attachGroup(std::span<const Probe* const> group,
                                                           int progFd) {
  // Every site of one object in one process goes in one link.
  std::map<std::pair<std::string, int>, std::vector<bpf::UprobeSite>> byObject;
  for (size_t i = 0; i < group.size(); i++) {
    for (bpf::UprobeSite site : group[i]->sites) {
      site.cookie = (site.cookie & ~uint64_t{0xffffffff}) | i;
      byObject[{group[i]->objectPath, group[i]->targetPid}].push_back(site);
    }
  }
  std::vector<bpf::Link> links;
  const bool multi = bpf::uprobeMultiSupported();
  for (const auto& [object, sites] : byObject) {
    const auto& [path, pid] = object;
    if (multi) {
      Result<bpf::Link> link = bpf::attachUprobeMulti(progFd, path, sites, false, pid);
      if (!link) return link.error();
      links.push_back(std::move(*link));
      continue;
    }
    for (const bpf::UprobeSite& site : sites) {
      Result<bpf::Link> link = bpf::attachUprobe(progFd, path, site, false, pid);
      if (!link) return link.error();
      links.push_back(std::move(*link));
    }
  }
  return links;
}

std::string uprobePath(int pid, const MappedObject& object) {
  struct stat st {};
  if (!object.path.empty() && object.path.front() == '/' && stat(object.path.c_str(), &st) == 0) {
    return object.path;
  }
  char path[96];
  std::snprintf(path, sizeof path, "/proc/%d/map_files/%llx-%llx", pid,
                static_cast<unsigned long long>(object.start),
                static_cast<unsigned long long>(object.end));
  return path;
}

}  // namespace dtrace::providers
