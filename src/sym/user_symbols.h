// Names for addresses in processes' address spaces: the mapping that
// holds an address (sym/address_spaces.h), the function containing it in
// the mapped object's symbol tables (sym/object_file.h, each object read
// once, when first needed), or in JIT-compiled code the function a
// /tmp/perf-PID.map names (sym/perf_map.h).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>

#include "sym/address_spaces.h"
#include "sym/object_file.h"
#include "sym/perf_map.h"

namespace dtrace::sym {

// What a user address names. Either part may be unknown (empty).
struct UserSymbol {
  std::string object;            // the mapped file's base name ("libc.so.6"), "[vdso]"...
  std::string function;          // the function containing the address
  uint64_t functionAddress = 0;  // where that function starts in the process
  // The start of the mapping holding the address: the same for every
  // address of the object's code (umod() keys merge on it).
  uint64_t mappingAddress = 0;
};

class UserSymbols {
 public:
  // The kernel's mapping events, as MappingEvents::drain hands them out.
  void apply(const MappingEvent& event) { spaces_.apply(event); }
  // A process whose addresses are to be named: its mappings are read now,
  // while it runs, unless its exec was seen.
  void notePid(int pid) { spaces_.note(pid); }

  UserSymbol lookup(int pid, uint64_t address);

 private:
  // The symbols of the file a mapping maps: none when the file at that
  // path is no longer the one mapped (deleted, or replaced by an upgrade).
  std::shared_ptr<const ObjectFile> object(const Mapping& mapping);
  // The symbols of what a mapping maps: a file's, or the vDSO's; null for
  // memory no object backs.
  std::shared_ptr<const ObjectFile> mappedObject(const Mapping& mapping);
  const PerfMap& perfMap(int pid);

  AddressSpaces spaces_;
  std::map<std::pair<std::string, uint64_t>, std::shared_ptr<const ObjectFile>>
      objects_;  // by path and inode
  struct JitSymbols {
    PerfMap map;
    int64_t fileSize = -1;  // of /tmp/perf-PID.map when read: a JIT appends to it
  };
  std::unordered_map<int, JitSymbols> perfMaps_;
};

}  // namespace dtrace::sym
