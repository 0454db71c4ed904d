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
  // "libc" and "libc.so" name libc.so.6: the name up to any of its dots.
  for (size_t dot = base.find('.'); dot != std::string_view::npos; dot = base.find('.', dot + 1)) {
    if (gmatch(base.substr(0, dot), pattern)) return true;
  }
  return false;
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
  size_t attached = 0, refused = 0;
  std::string firstRefusal;
  for (const auto& [object, sites] : byObject) {
    const auto& [path, pid] = object;
    attachSites(progFd, path, pid, sites, links, attached, refused, firstRefusal);
  }
  if (attached == 0 && refused > 0) return makeError(firstRefusal);
  if (refused > 0) {
    warnings_.push_back(std::to_string(refused) + " probe site" + (refused == 1 ? "" : "s") +
                        " could not be instrumented (" + firstRefusal + ")");
  }
  return links;
}

// The kernel refuses a uprobe on some instructions, and a multi-uprobe
// link fails as a whole: the sites are halved until the refused ones are
// found, and the others attached.
void UprobeProvider::attachSites(int progFd, const std::string& path, int pid,
                                 std::span<const bpf::UprobeSite> sites,
                                 std::vector<bpf::Link>& links, size_t& attached, size_t& refused,
                                 std::string& firstRefusal) {
  if (sites.empty()) return;
  Result<bpf::Link> link =
      bpf::uprobeMultiSupported()
          ? bpf::attachUprobeMulti(progFd, path, sites, false, pid)
          : (sites.size() == 1 ? bpf::attachUprobe(progFd, path, sites.front(), false, pid)
                               : Result<bpf::Link>(makeError("")));
  if (link) {
    links.push_back(std::move(*link));
    attached += sites.size();
    return;
  }
  if (sites.size() == 1) {
    if (refused++ == 0) firstRefusal = link.error().message;
    return;
  }
  const size_t half = sites.size() / 2;
  attachSites(progFd, path, pid, sites.first(half), links, attached, refused, firstRefusal);
  attachSites(progFd, path, pid, sites.subspan(half), links, attached, refused, firstRefusal);
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
