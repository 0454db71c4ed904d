#include "sema/identifier_versions.h"

#include "ir/subroutine.h"
#include "util/d_version.h"

namespace dtrace::sema {

uint32_t introducedIn(std::string_view identifier) {
  if (const ir::SubroutineInfo* s = ir::findSubroutine(identifier)) return s->introduced;
  // Only what came after D 1.0, as _dtrace_globals dates it.
  struct Introduced {
    const char* name;
    uint32_t version;
  };
  static constexpr Introduced kIdentifiers[] = {
      {"freopen", dVersion(1, 1)},     {"func", dVersion(1, 2)},   {"mod", dVersion(1, 2)},
      {"sym", dVersion(1, 2)},         {"uaddr", dVersion(1, 2)},  {"ufunc", dVersion(1, 2)},
      {"umod", dVersion(1, 2)},        {"usym", dVersion(1, 2)},   {"ucaller", dVersion(1, 2)},
      {"ustackdepth", dVersion(1, 2)}, {"setopt", dVersion(1, 2)}, {"stddev", dVersion(1, 6)},
      {"llquantize", dVersion(1, 7)},  {"print", dVersion(1, 9)},  {"json", dVersion(1, 11)},
  };
  for (const Introduced& i : kIdentifiers) {
    if (identifier == i.name) return i.version;
  }
  return dVersion(1, 0);
}

}  // namespace dtrace::sema
