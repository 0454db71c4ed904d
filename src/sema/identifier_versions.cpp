#include "sema/identifier_versions.h"

#include "util/d_version.h"

namespace dtrace::sema {

uint32_t introducedIn(std::string_view identifier) {
  // Only what came after D 1.0, as _dtrace_globals dates it.
  struct Introduced {
    const char* name;
    uint32_t version;
  };
  static constexpr Introduced kIdentifiers[] = {
      {"freopen", dVersion(1, 1)},   {"index", dVersion(1, 1)},       {"rindex", dVersion(1, 1)},
      {"strchr", dVersion(1, 1)},    {"strrchr", dVersion(1, 1)},     {"strstr", dVersion(1, 1)},
      {"strtok", dVersion(1, 1)},    {"substr", dVersion(1, 1)},      {"func", dVersion(1, 2)},
      {"mod", dVersion(1, 2)},       {"sym", dVersion(1, 2)},         {"uaddr", dVersion(1, 2)},
      {"ufunc", dVersion(1, 2)},     {"umod", dVersion(1, 2)},        {"usym", dVersion(1, 2)},
      {"ucaller", dVersion(1, 2)},   {"ustackdepth", dVersion(1, 2)}, {"setopt", dVersion(1, 2)},
      {"htonl", dVersion(1, 3)},     {"htonll", dVersion(1, 3)},      {"htons", dVersion(1, 3)},
      {"ntohl", dVersion(1, 3)},     {"ntohll", dVersion(1, 3)},      {"ntohs", dVersion(1, 3)},
      {"inet_ntoa", dVersion(1, 5)}, {"inet_ntoa6", dVersion(1, 5)},  {"inet_ntop", dVersion(1, 5)},
      {"stddev", dVersion(1, 6)},    {"llquantize", dVersion(1, 7)},  {"tolower", dVersion(1, 8)},
      {"toupper", dVersion(1, 8)},   {"print", dVersion(1, 9)},       {"getf", dVersion(1, 10)},
      {"json", dVersion(1, 11)},     {"strtoll", dVersion(1, 11)},
  };
  for (const Introduced& i : kIdentifiers) {
    if (identifier == i.name) return i.version;
  }
  return dVersion(1, 0);
}

}  // namespace dtrace::sema
