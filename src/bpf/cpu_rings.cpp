#include "bpf/cpu_rings.h"

#include <string>
#include <utility>

namespace dtrace::bpf {

Result<CpuRings> CpuRings::create(int cpus, uint32_t ringSize) {
  std::vector<Map> rings;
  rings.reserve(static_cast<size_t>(cpus));
  for (int cpu = 0; cpu < cpus; cpu++) {
    auto ring = Map::create(BPF_MAP_TYPE_RINGBUF, "dt_buffer", 0, 0, ringSize);
    if (!ring) return ring.error();
    rings.push_back(std::move(*ring));
  }
  if (rings.empty()) return makeError("no CPU to create a buffer for");
  auto array =
      Map::createArrayOfMaps("dt_buffers", rings.front().fd(), static_cast<uint32_t>(cpus));
  if (!array) return array.error();
  for (uint32_t cpu = 0; cpu < static_cast<uint32_t>(cpus); cpu++) {
    const uint32_t fd = static_cast<uint32_t>(rings[cpu].fd());
    if (auto r = array->update(&cpu, &fd); !r) return r.error();
  }
  return CpuRings(std::move(rings), std::move(*array), ringSize);
}

std::vector<int> CpuRings::ringFds() const {
  std::vector<int> fds;
  fds.reserve(rings_.size());
  for (const Map& ring : rings_) fds.push_back(ring.fd());
  return fds;
}

}  // namespace dtrace::bpf
