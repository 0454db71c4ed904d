#include "consume/speculations.h"

namespace dtrace::consume {

SpeculationBuffers::Hold SpeculationBuffers::hold(uint64_t tag, const void* record, size_t size) {
  const uint32_t id = idOf(tag);
  if (id == 0 || id > count_) return Hold::Dropped;
  if (const std::optional<bool> ended = outcome(id, generationOf(tag))) {
    return *ended ? Hold::Committed : Hold::Dropped;
  }
  held_[tag].emplace_back(static_cast<const char*>(record), size);
  return Hold::Held;
}

std::optional<bool> SpeculationBuffers::outcome(uint32_t id, uint32_t generation) const {
  const Outcomes& o = outcomes_[id - 1];
  if (generation > o.newest) return std::nullopt;
  const uint32_t age = o.newest - generation;
  if (age >= 64) return false;
  if (!((o.ended >> age) & 1)) return std::nullopt;
  return ((o.committed >> age) & 1) != 0;
}

void SpeculationBuffers::drop(uint64_t tag) {
  const uint32_t id = idOf(tag);
  if (id == 0 || id > count_) return;
  if (const std::optional<bool> ended = outcome(id, generationOf(tag))) {
    if (*ended) committedDrops_++;
    return;
  }
  drops_[tag]++;
}

std::vector<std::string> SpeculationBuffers::end(uint64_t tag, bool committed) {
  const uint32_t id = idOf(tag), generation = generationOf(tag);
  std::vector<std::string> records;
  if (id == 0 || id > count_) return records;
  if (auto it = held_.find(tag); it != held_.end()) {
    records = std::move(it->second);
    held_.erase(it);
  }
  if (auto it = drops_.find(tag); it != drops_.end()) {
    if (committed) committedDrops_ += it->second;
    drops_.erase(it);
  }
  // Uses end in order, but a CPU read later may bring an older use's end.
  Outcomes& o = outcomes_[id - 1];
  if (generation > o.newest) {
    const uint32_t shift = generation - o.newest;
    o.ended = shift >= 64 ? 0 : o.ended << shift;
    o.committed = shift >= 64 ? 0 : o.committed << shift;
    o.newest = generation;
  }
  const uint32_t age = o.newest - generation;
  if (age < 64) {
    o.ended |= uint64_t{1} << age;
    if (committed) o.committed |= uint64_t{1} << age;
  }
  return records;
}

}  // namespace dtrace::consume
