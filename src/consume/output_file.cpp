#include "consume/output_file.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace dtrace::consume {

OutputFile::~OutputFile() {
  if (out_ != original_) std::fclose(out_);
}

Result<void> OutputFile::write(const std::string& text) {
  if (std::fwrite(text.data(), 1, text.size(), out_) != text.size()) {
    if (writeError_ == 0 && errno != EPIPE) writeError_ = errno;
    return makeError(std::string("failed to print aggregations: ") + std::strerror(errno));
  }
  return {};
}

int OutputFile::reopen(const std::string& path) {
  FILE* next = std::fopen(path.c_str(), "ae");  // not inherited by system() or -c commands
  if (!next) return errno;
  if (out_ != original_) std::fclose(out_);
  out_ = next;
  return 0;
}

void OutputFile::restore() {
  if (out_ != original_) std::fclose(out_);
  out_ = original_;
}

void OutputFile::truncate() {
  if (ftruncate(fileno(out_), 0) == 0) (void)fseeko(out_, 0, SEEK_SET);
}

void OutputFile::flush() {
  // stdio reports a failed write at the flush that retries it, if not before.
  if (std::fflush(out_) != 0 && writeError_ == 0 && errno != EPIPE) writeError_ = errno;
}

}  // namespace dtrace::consume
