// The consumer's side of speculations: records speculate() tagged are held
// here, by tag, until the commit() or discard() record of that tag comes;
// then they are printed or dropped (ir/runtime.h).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace dtrace::consume {

class SpeculationBuffers {
 public:
  // The number of speculation IDs (nspec; 0 when the program uses none).
  void setCount(uint32_t count) {
    count_ = count;
    outcomes_.assign(count, {});
  }
  enum class Hold {
    Held,       // kept until its use is committed or discarded
    Committed,  // its use is already committed: the record prints now
    Dropped,    // its use was discarded (or its ID is not one of nspec)
  };
  // One speculative record. Each CPU's records are read in turn, so a
  // record written on one CPU before another CPU committed its use may be
  // read after the commit: it prints then, as DTrace prints the other
  // CPUs' speculative buffers of a committed speculation after the commit.
  Hold hold(uint64_t tag, const void* record, size_t size);
  // commit(): the records held for `tag`, in the order they came; discard():
  // none. Either way the use ends.
  std::vector<std::string> commit(uint64_t tag) { return end(tag, true); }
  void discard(uint64_t tag) { end(tag, false); }
  // A record of the use `tag` that did not fit in specsize. It counts as a
  // speculative drop once the use is committed; a discard forgets it.
  void drop(uint64_t tag);
  // The drops of committed uses so far.
  uint64_t committedDrops() const { return committedDrops_; }

 private:
  std::vector<std::string> end(uint64_t tag, bool committed);
  // Whether the use has ended (nullopt: not yet), and then if committed.
  std::optional<bool> outcome(uint32_t id, uint32_t generation) const;
  static uint32_t idOf(uint64_t tag) { return static_cast<uint32_t>(tag); }
  static uint32_t generationOf(uint64_t tag) { return static_cast<uint32_t>(tag >> 32); }

  // Per ID, how its last 64 uses ended: bit k of each mask is generation
  // `newest - k`. Older uses' late records are dropped.
  struct Outcomes {
    uint32_t newest = 0;
    uint64_t ended = 0;
    uint64_t committed = 0;
  };
  uint32_t count_ = 0;
  std::vector<Outcomes> outcomes_;
  std::map<uint64_t, std::vector<std::string>> held_;
  std::map<uint64_t, uint64_t> drops_;  // by tag, until its use ends
  uint64_t committedDrops_ = 0;
};

}  // namespace dtrace::consume
