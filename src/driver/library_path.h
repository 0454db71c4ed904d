// The D libraries of the library path (-L, -x libdir), found as illumos's
// dt_load_libs finds them: every file ending in `.d` in each directory,
// the first file of a name winning, ordered so that each library comes
// after those its `#pragma D depends_on library` lines name. A dependency
// is looked for in the library's own directory, then among the libraries
// dtrace has built in (process.d, ip.d, ...).
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "util/result.h"

namespace dtrace::driver {

struct LibraryFile {
  std::string path;  // directory/name.d, as messages name it
  std::string text;
  std::vector<std::string> dependsOn;  // the libraries it names, as paths or built-in names
};

// Missing directories and unreadable files are skipped, as DTrace skips
// them; a dependency on no library, or a cycle, is an error worded as
// DTrace words it.
Result<std::vector<LibraryFile>> findLibraries(
    const std::vector<std::string>& directories,
    const std::function<bool(std::string_view)>& isBuiltin);

}  // namespace dtrace::driver
