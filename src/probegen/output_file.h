// The files dtrace -h and -G write: opened only once everything they hold
// is known to be right, written in place (so /dev/stdout, a symbolic link
// or a file others have open keep working), and removed again if writing
// them fails, so that a build never sees half a file.
#pragma once

#include <functional>
#include <string>

#include "util/result.h"

namespace dtrace::probegen {

// What to say, before ": reason", when the file cannot be opened or written.
struct OutputMessages {
  std::string cannotOpen;   // "failed to open header file 'x.h'"
  std::string cannotWrite;  // "failed to create header file x.h"
};

// Opens `path` for writing (created 0666 less the umask, or truncated)
// and has `fill` write it. On failure nothing is left of a regular file.
Result<void> writeOutputFile(const std::string& path, const OutputMessages& messages,
                             const std::function<Result<void>(int fd)>& fill);

}  // namespace dtrace::probegen
