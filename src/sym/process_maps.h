// The mappings of a process's address space, as /proc/PID/maps lists them
// and as the kernel reports them while tracing runs (sym/mapping_events.h).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dtrace::sym {

struct Mapping {
  uint64_t start = 0;
  uint64_t end = 0;     // one past the last byte
  uint64_t offset = 0;  // of the file, at `start`
  uint64_t inode = 0;   // 0 for anonymous memory
  std::string path;     // the file, "[vdso]", "[stack]"..., or empty (anonymous)
  bool executable = false;
  bool readOnly = false;  // r--: an object's headers and constant data
  uint64_t device = 0;    // the file's, major << 32 | minor; 0 when unknown

  bool contains(uint64_t address) const { return address >= start && address < end; }
  // Backed by a file that can be read for symbols.
  bool isFile() const { return inode != 0 && !path.empty() && path.front() == '/'; }
};

// One line of /proc/PID/maps ("start-end perms offset dev inode path"), or
// false when it is not one. A file since deleted keeps its path, without
// the " (deleted)" the kernel appends.
bool parseMapsLine(std::string_view line, Mapping& out);

// The executable mappings of a live process; empty when it has exited (or
// never existed).
std::vector<Mapping> readExecutableMappings(int pid);

// Brings the read-only data (constant strings) that process `pid` maps
// from the file at `path` into its page tables, by reading it through
// /proc/PID/mem: probe context cannot fault pages in, so a USDT probe
// passing a string constant its process never read could not be read.
void faultInReadOnlyData(int pid, const std::string& path);

// A process that has exited but not been waited for: nothing left to trace.
bool isZombie(int pid);

// Whether a process with this ID exists (it may not be ours to signal) and
// has not exited: a zombie has no mappings left to trace.
bool processExists(int pid);

// The path of a live process's executable (/proc/PID/exe), without the
// " (deleted)" the kernel appends; empty when unknown.
std::string executablePath(int pid);

// The last component of a path, as DTrace names objects ("libc.so.6").
std::string_view baseName(std::string_view path);

}  // namespace dtrace::sym
