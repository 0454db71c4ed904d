// dtrace -C: run the script through the system C preprocessor (GNU cpp from
// Debian's `cpp` package), the way libdtrace runs cpp on illumos.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "util/d_version.h"
#include "util/result.h"

namespace dtrace {

// libdtrace's words for a preprocessor that ran and failed (EDT_CPPERR), for
// the line "dtrace: failed to compile script x.d: <this>".
inline constexpr const char* kPreprocessorFailedMessage =
    "Preprocessor failed to process input program";

// Preprocesses `source` (the text of `fileName`) with the predefined macros
// DTrace gives D programs on Linux (__linux, __unix, __SVR4, __SUNW_D=1,
// __SUNW_D_64, _LP64, __LP64, __x86_64, __amd64) and then `cppArgs`
// ("-DX=1", "-UY", "-I/dir", in order). A leading "#!" line is blanked, not
// removed, so line numbers stay those of the file. cpp reads the script as
// /dev/stdin, the name its own diagnostics give it ("/dev/stdin:3: error:
// ..."); the output's line markers (`# N "file"` with optional flags) name
// `fileName` for it, and any included files. With `showIncludes` (-H) cpp's
// list of included files is written to stderr, as dtrace -H does.
//
// On failure the error message is cpp's own stderr (trimmed); print it and
// then report kPreprocessorFailedMessage. If cpp cannot be run the message
// says so. `cppPath` is the -x cpppath option and `stdcMode` -X's a, c, s
// or t ("" is a). `dVersion` is the program's D version (-x version),
// which __SUNW_D_VERSION gives.
Result<std::string> preprocess(const std::string& source, const std::string& fileName,
                               const std::vector<std::string>& cppArgs, bool showIncludes,
                               const std::string& cppPath = "cpp", std::string_view stdcMode = "",
                               uint32_t dVersion = kLatestDVersion);

}  // namespace dtrace
