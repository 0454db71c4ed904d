// The tables programs unwind user stacks with (ir/unwind_table.h): the
// call frame information of every object a traced process maps, compiled
// once per object (by device and inode) into rows of one array map, and
// per process its mappings of those objects. Filled as dtrace meets
// processes (targets, processes with probes, processes that map more).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "bpf/map.h"
#include "ir/unwind_table.h"
#include "sym/load_segments.h"
#include "sym/process_maps.h"
#include "util/result.h"

namespace dtrace::driver {

class UnwindTables {
 public:
  // Room for `rowCapacity` rows of all objects together.
  static Result<std::unique_ptr<UnwindTables>> create(uint32_t rowCapacity);

  int rowsFd() const { return rows_.fd(); }
  int processesFd() const { return processes_.fd(); }

  // Compiles the objects of process `pid` not compiled yet and writes its
  // mappings; false when it has none with CFI. A process that is gone or
  // unreadable is left out (its stacks follow frame pointers).
  bool addProcess(int pid);
  // Whether addProcess() has read the process (to follow its new mappings).
  bool hasProcess(int pid) const { return processesSeen_.count(pid) != 0; }

  // What could not be loaded (the rows' room used up), once each.
  std::vector<std::string> takeWarnings() { return std::move(warnings_); }

  // For tests and figures: rows loaded, objects compiled.
  uint32_t rowsUsed() const { return used_; }
  size_t objects() const { return objects_.size(); }

 private:
  struct ObjectRows {
    uint32_t first = 0, count = 0;
    std::vector<sym::LoadSegment> segments;
  };
  UnwindTables(bpf::Map rows, bpf::Map processes, uint8_t* mapped, uint32_t capacity)
      : rows_(std::move(rows)),
        processes_(std::move(processes)),
        mapped_(mapped),
        capacity_(capacity) {}
  const ObjectRows& objectRows(const sym::Mapping& mapping, const std::string& path);

  bpf::Map rows_, processes_;
  uint8_t* mapped_;  // the rows' array, mmapped (one row per 8-byte-aligned slot)
  uint32_t capacity_;
  uint32_t used_ = 0;
  std::map<std::pair<uint64_t, uint64_t>, ObjectRows> objects_;  // by device, inode
  std::set<int> processesSeen_;
  std::vector<std::string> warnings_;
  bool warnedFull_ = false;
};

}  // namespace dtrace::driver
