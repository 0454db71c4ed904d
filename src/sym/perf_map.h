// Symbols of JIT-compiled code: the /tmp/perf-PID.map file that JITs
// write for Linux profilers (the JVM with -XX:+DumpPerfMapAtExit or a
// perf-map agent, node --perf-basic-prof, Python 3.12 -X perf, ...), one
// "START SIZE name" line (hexadecimal) per compiled function. Linux has no
// equivalent of DTrace's ustack helpers, which let a JIT name its frames
// from probe context: this file is the source jstack() names frames from.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dtrace::sym {

struct JitSymbol {
  std::string_view name;
  uint64_t address = 0;
};

class PerfMap {
 public:
  // Parses the text of a perf map; malformed lines are skipped.
  static PerfMap parse(std::string text);
  // /tmp/perf-PID.map, if it exists and belongs to root or to the process's
  // owner (anyone may write to /tmp); empty otherwise.
  static PerfMap read(int pid);
  // Where the process's JIT writes its map: /tmp/perf-PID.map.
  static std::string path(int pid);

  std::optional<JitSymbol> containing(uint64_t address) const;
  bool empty() const { return entries_.empty(); }

 private:
  struct Entry {
    uint64_t address, size;
    uint32_t nameOffset, nameLength;  // in text_ (offsets: a PerfMap may be moved)
  };
  std::string text_;
  std::vector<Entry> entries_;  // by address; a later line wins over an earlier one
};

}  // namespace dtrace::sym
