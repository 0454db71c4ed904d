// The consumer's side of speculations: records speculate() tagged are held
// here, by tag, until the commit() or discard() record of that tag comes;
// then they are printed or dropped (ir/runtime.h).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace dtrace::consume {

class SpeculationBuffers {
 public:
  // The number of speculation IDs (nspec; 0 when the program uses none).
  void setCount(uint32_t count) {
    count_ = count;
    ended_.assign(count, 0);
  }
  // Holds one speculative record. A record of a use already committed or
  // discarded (it raced with the commit on another CPU) is dropped.
  void hold(uint64_t tag, const void* record, size_t size);
  // commit(): the records held for `tag`, in the order they came; discard():
  // none. Either way the use ends: its late records are dropped.
  std::vector<std::string> commit(uint64_t tag) { return end(tag); }
  void discard(uint64_t tag) { end(tag); }

 private:
  std::vector<std::string> end(uint64_t tag);
  static uint32_t idOf(uint64_t tag) { return static_cast<uint32_t>(tag); }
  static uint32_t generationOf(uint64_t tag) { return static_cast<uint32_t>(tag >> 32); }

  uint32_t count_ = 0;
  std::vector<uint32_t> ended_;  // per ID: the last generation that ended
  std::map<uint64_t, std::vector<std::string>> held_;
};

}  // namespace dtrace::consume
