// dtrace -h and -G from the program's sources to the files they write:
// parse, check the provider definitions, then write the header or the
// object. The command line decides the output names (probe_naming.h).
#pragma once

#include <string>
#include <vector>

#include "probegen/provider_model.h"
#include "util/result.h"

namespace dtrace::probegen {

// One program, already through cpp when -C asked for it.
struct ProgramText {
  std::string name;  // the script's path, or the -n/-P/... argument
  std::string text;
  bool isScript = true;
};

struct GenerateOptions {
  bool errtags = false;  // -x errtags: D error tags in compile errors
};

// The providers all `programs` define, merged by name. Fails with
// dtrace's compile error ("failed to compile script x.d: line 3: ...").
Result<std::vector<ProviderDefinition>> compileProviders(const std::vector<ProgramText>& programs,
                                                         const GenerateOptions& options);

// dtrace -h: writes the header for `programs` to `outputPath`.
Result<void> generateHeader(const std::vector<ProgramText>& programs, const std::string& outputPath,
                            const GenerateOptions& options);

// dtrace -G: writes the object for `programs` to `outputPath`, of the ELF
// class and machine of `objects` (which must all agree), or of
// `dataModel` (32 or 64, 0 when -32/-64 was not given) when there are
// none: x86-64 or i386.
Result<void> generateObject(const std::vector<ProgramText>& programs, const std::string& outputPath,
                            const std::vector<std::string>& objects, int dataModel,
                            const GenerateOptions& options);

}  // namespace dtrace::probegen
