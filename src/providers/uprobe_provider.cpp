#include "providers/uprobe_provider.h"

#include <sys/stat.h>

#include <cstdio>
#include <map>
#include <set>
#include <utility>

#include "providers/glob.h"

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
  Attachment out;
  for (const auto& [object, sites] : byObject) {
    const auto& [path, pid] = object;
    if (bpf::uprobeMultiSupported()) {
      attachMulti(progFd, path, pid, sites, out);
      continue;
    }
    for (const bpf::UprobeSite& site : sites) {
      out.add(bpf::attachUprobe(progFd, path, site, false, pid), 1);
    }
  }
  if (out.attached == 0 && out.refused > 0) return makeError(out.firstRefusal);
  if (out.refused > 0) {
    warnings_.push_back(std::to_string(out.refused) + " probe site" +
                        (out.refused == 1 ? "" : "s") + " could not be instrumented (" +
                        out.firstRefusal + ")");
  }
  return std::move(out.links);
}

void UprobeProvider::Attachment::add(Result<bpf::Link> link, size_t sites) {
  if (link) {
    links.push_back(std::move(*link));
    attached += sites;
  } else if (refused++ == 0) {
    firstRefusal = link.error().message;
  }
}

// The kernel refuses a uprobe on some instructions, and a multi-uprobe
// link fails as a whole: the sites are halved until the refused ones are
// found, and the others attached.
void UprobeProvider::attachMulti(int progFd, const std::string& path, int pid,
                                 std::span<const bpf::UprobeSite> sites, Attachment& out) {
  if (sites.empty()) return;
  Result<bpf::Link> link = bpf::attachUprobeMulti(progFd, path, sites, false, pid);
  if (link || sites.size() == 1) {
    out.add(std::move(link), sites.size());
    return;
  }
  const size_t half = sites.size() / 2;
  attachMulti(progFd, path, pid, sites.first(half), out);
  attachMulti(progFd, path, pid, sites.subspan(half), out);
}

std::vector<ProcessObject> processObjects(int pid) {
  const std::string executable = sym::executablePath(pid);
  std::vector<ProcessObject> out;
  std::set<std::string> seen;
  for (sym::Mapping& m : sym::readExecutableMappings(pid)) {
    if (!m.isFile() || !seen.insert(m.path).second) continue;
    const bool isExecutable = m.path == executable;
    out.push_back({std::move(m), isExecutable});
  }
  return out;
}

std::string uprobePath(int pid, const sym::Mapping& mapping) {
  struct stat st {};
  if (!mapping.path.empty() && mapping.path.front() == '/' &&
      stat(mapping.path.c_str(), &st) == 0) {
    return mapping.path;
  }
  char path[96];
  std::snprintf(path, sizeof path, "/proc/%d/map_files/%llx-%llx", pid,
                static_cast<unsigned long long>(mapping.start),
                static_cast<unsigned long long>(mapping.end));
  return path;
}

}  // namespace dtrace::providers
