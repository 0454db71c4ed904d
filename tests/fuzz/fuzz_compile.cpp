// libFuzzer target: the whole compile of a script, as `dtrace -e -s` does
// it (pragmas, library units, probe matching against this machine's
// providers, the checker) and on to eBPF: storage layout and the programs
// of the first enabled probes, generated against placeholder map
// descriptors. Nothing is created in the kernel or loaded, no file is
// written and no process started; the C preprocessor is not run.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

#include "driver/session.h"
#include "fuzz/fuzz_macros.h"
#include "util/option_table.h"

using namespace dtrace;

namespace {

// Programs generated per input: a description such as `:::` matches
// thousands of probes whose programs differ little.
constexpr size_t kMaxPrograms = 8;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  OptionTable options;
  (void)options.set("destructive", "");  // -w: destructive actions compile too
  driver::SessionConfig config;
  config.allowZeroMatches = true;  // -Z: clauses that match nothing are checked all the same
  config.macros = fuzz::macroTable();
  config.out = stderr;
  driver::Session session(std::move(config), options);
  driver::SourceUnit unit;
  unit.isScript = true;
  unit.name = "fuzz.d";
  unit.text.assign(reinterpret_cast<const char*>(data), size);
  size_t matched = 0;
  if (!session.compile(unit, &matched)) return 0;
  (void)session.generateUnloaded(kMaxPrograms);
  return 0;
}
