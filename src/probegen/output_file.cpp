#include "probegen/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace dtrace::probegen {

Result<void> writeOutputFile(const std::string& path, const OutputMessages& messages,
                             const std::function<Result<void>(int fd)>& fill) {
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) return makeError(messages.cannotOpen + ": " + std::strerror(errno));
  struct stat st {};
  const bool regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
  Result<void> written = fill(fd);
  if (close(fd) != 0 && written) written = makeError(std::strerror(errno));
  if (written) return {};
  if (regular) unlink(path.c_str());
  return makeError(messages.cannotWrite + ": " + written.error().message);
}

}  // namespace dtrace::probegen
