// The kernel's account of executable mappings as processes make them: a
// perf "dummy" event per CPU records every executable mmap (the program
// and ld.so at exec, each library as it is loaded or dlopen'd), every
// fork and every exec, the way perf record keeps mappings of processes
// that are gone by the time it reports. A process that exits before its
// stacks are printed is still named from these.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "sym/process_maps.h"
#include "util/result.h"

namespace dtrace::sym {

// What the kernel reported, in time order.
struct MappingEvent {
  enum class Kind { Mapped, Forked, Execed } kind = Kind::Mapped;
  int pid = 0;
  int parent = 0;   // Forked
  Mapping mapping;  // Mapped
};

class MappingEvents {
 public:
  // One ring per possible CPU; fails without CAP_PERFMON (or root).
  static Result<std::unique_ptr<MappingEvents>> open();
  ~MappingEvents();
  MappingEvents(const MappingEvents&) = delete;
  MappingEvents& operator=(const MappingEvents&) = delete;

  // File descriptors that poll readable when a ring is a quarter full.
  std::vector<int> pollFds() const;
  // Hands every event recorded since the last call to `sink`, ordered by
  // time across CPUs. Returns false when the kernel lost some (a ring
  // overflowed).
  bool drain(const std::function<void(const MappingEvent&)>& sink);

 private:
  MappingEvents() = default;
  struct Ring;
  std::vector<Ring> rings_;
};

}  // namespace dtrace::sym
