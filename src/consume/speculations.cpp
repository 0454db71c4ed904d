#include "consume/speculations.h"

#include <algorithm>

namespace dtrace::consume {

void SpeculationBuffers::hold(uint64_t tag, const void* record, size_t size) {
  const uint32_t id = idOf(tag);
  if (id == 0 || id > count_ || generationOf(tag) <= ended_[id - 1]) return;
  held_[tag].emplace_back(static_cast<const char*>(record), size);
}

std::vector<std::string> SpeculationBuffers::end(uint64_t tag) {
  const uint32_t id = idOf(tag);
  std::vector<std::string> records;
  if (id == 0 || id > count_) return records;
  if (auto it = held_.find(tag); it != held_.end()) {
    records = std::move(it->second);
    held_.erase(it);
  }
  ended_[id - 1] = std::max(ended_[id - 1], generationOf(tag));
  return records;
}

}  // namespace dtrace::consume
