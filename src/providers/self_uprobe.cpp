#include "providers/self_uprobe.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <fstream>

namespace dtrace::providers {

Result<UprobeTarget> locateOwnFunction(const void* function) {
  const auto addr = reinterpret_cast<uintptr_t>(function);
  std::ifstream maps("/proc/self/maps");
  if (!maps) return Error{"cannot read /proc/self/maps: " + std::string(strerror(errno))};
  std::string line;
  while (std::getline(maps, line)) {
    // start-end perms offset dev inode path
    uint64_t start = 0, end = 0, offset = 0;
    char perms[8] = {};
    int pathStart = 0;
    if (sscanf(line.c_str(), "%" SCNx64 "-%" SCNx64 " %7s %" SCNx64 " %*s %*u %n", &start, &end,
               perms, &offset, &pathStart) < 4) {
      continue;
    }
    if (addr < start || addr >= end) continue;
    if (perms[2] != 'x') return Error{"marker function is not in an executable mapping"};
    std::string path = pathStart > 0 ? line.substr(pathStart) : std::string();
    if (path.empty() || path[0] != '/') {
      return Error{"marker function is not in a file-backed mapping"};
    }
    // A binary replaced since it started (e.g. rebuilt) is still reachable
    // through its mapping.
    const std::string deleted = " (deleted)";
    if (path.size() > deleted.size() &&
        path.compare(path.size() - deleted.size(), deleted.size(), deleted) == 0) {
      char buf[96];
      snprintf(buf, sizeof buf, "/proc/self/map_files/%" PRIx64 "-%" PRIx64, start, end);
      path = buf;
    }
    return UprobeTarget{path, addr - start + offset};
  }
  return Error{"marker function not found in /proc/self/maps"};
}

}  // namespace dtrace::providers
