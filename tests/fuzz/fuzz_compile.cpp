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

#include "driver/compiler.h"
#include "driver/program.h"
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
  driver::CompilerConfig config;
  config.allowZeroMatches = true;  // -Z: clauses that match nothing are checked all the same
  config.macros = fuzz::macroTable();
  driver::Compiler compiler(std::move(config), options);
  driver::Program program(compiler, options);
  driver::SourceUnit unit;
  unit.isScript = true;
  unit.name = "fuzz.d";
  unit.text.assign(reinterpret_cast<const char*>(data), size);
  auto compiled = compiler.compile(unit);
  if (!compiled) return 0;
  program.enable(*compiled);
  (void)program.generateUnloaded(kMaxPrograms);
  return 0;
}
