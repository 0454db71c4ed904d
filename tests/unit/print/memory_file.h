// A FILE* whose contents a test can read back (open_memstream).
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

namespace dtrace::testing {

class Capture {
 public:
  Capture() : file_(open_memstream(&buf_, &len_)) {}
  ~Capture() {
    std::fclose(file_);
    std::free(buf_);
  }
  Capture(const Capture&) = delete;
  Capture& operator=(const Capture&) = delete;
  FILE* file() { return file_; }
  std::string str() {
    std::fflush(file_);
    return std::string(buf_, len_);
  }

 private:
  char* buf_ = nullptr;
  size_t len_ = 0;
  FILE* file_;
};

}  // namespace dtrace::testing
