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
  return CpuRings(std::move(rings), std::move(*array), ringSize);
}

Result<void> CpuRings::fillArray() {
  if (filled_) return {};
  if (auto r = array_.fillMapSlots(ringFds()); !r) return r;
  filled_ = true;
  return {};
}

std::vector<int> CpuRings::ringFds() const {
  std::vector<int> fds;
  fds.reserve(rings_.size());
  for (const Map& ring : rings_) fds.push_back(ring.fd());
  return fds;
}

}  // namespace dtrace::bpf
