// The executable mappings of every process whose addresses are to be
// named, kept past the processes' exits: from the kernel's mapping events
// (processes that exec or fork while tracing runs) and from
// /proc/PID/maps (processes that were running before, read the first time
// one of their addresses is looked up, and again when an address falls in
// no known mapping: a library dlopen'd since).
#pragma once

#include <chrono>
#include <unordered_map>
#include <vector>

#include "sym/mapping_events.h"
#include "sym/process_maps.h"

namespace dtrace::sym {

class AddressSpaces {
 public:
  void apply(const MappingEvent& event);
  // Reads a live process's mappings now, unless its exec was seen (the
  // events then hold them all) or they were read already.
  void note(int pid);
  // The mapping containing `address` in the process: the latest made, the
  // process's own before those of the process it was forked from. Null
  // when none is known.
  const Mapping* find(int pid, uint64_t address);

 private:
  struct Space {
    std::vector<Mapping> mappings;  // oldest first
    int parent = 0;                 // forked from, while tracing ran
    bool execSeen = false;          // the events hold every mapping since
    bool read = false;              // /proc/PID/maps was read
    std::chrono::steady_clock::time_point lastRead{};
  };
  const Mapping* findKnown(int pid, uint64_t address) const;
  void readMaps(int pid, Space& space);

  std::unordered_map<int, Space> spaces_;
};

}  // namespace dtrace::sym
