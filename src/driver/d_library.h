// DTrace's standard D definitions, as illumos ships them in
// /usr/lib/dtrace: psinfo_t, lwpsinfo_t and cpuinfo_t with their
// translators from the kernel's types, the curpsinfo, curlwpsinfo and
// curcpu inlines, and NULL. Compiled into a session only when a script
// names one of them, because the translators need the kernel's BTF.
#pragma once

#include <string_view>
#include <vector>

namespace dtrace::driver {

struct LibraryUnit {
  const char* name;                     // as errors name it: "process.d"
  const char* source;                   // D
  std::vector<std::string_view> names;  // what it defines for scripts
};

// io.d's, ip.d's, tcp.d's and udp.d's sources (io_library.cpp, ...).
extern const char kIoLibrarySource[];
extern const char kIpLibrarySource[];
extern const char kTcpLibrarySource[];
extern const char kUdpLibrarySource[];

// The library units a script needs: those defining a name it mentions.
std::vector<const LibraryUnit*> libraryUnitsFor(std::string_view script);

// The unit of that name ("ip.d"), or null: what a library found with -L
// may name in `#pragma D depends_on library`.
const LibraryUnit* builtinLibrary(std::string_view name);

}  // namespace dtrace::driver
