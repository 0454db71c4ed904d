// dtrace's output: the stream data goes to, which freopen() redirects to a
// file and back and ftruncate() empties, and the first write error that
// ends tracing. Sinks write to it; the consumer acts on it for freopen(),
// ftruncate() and system().
#pragma once

#include <cstdio>
#include <string>

#include "util/result.h"

namespace dtrace::consume {

class OutputFile {
 public:
  explicit OutputFile(FILE* out) : out_(out), original_(out) {}
  ~OutputFile();  // closes a file freopen() opened
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  FILE* current() const { return out_; }  // the original, or freopen()'s file
  FILE* original() const { return original_; }

  // Writes `text`, remembering the first failure (see writeError()).
  Result<void> write(const std::string& text);
  // freopen(path): later output is appended to `path`. Returns 0, or the
  // errno of a file that cannot be opened (the output stays where it was).
  int reopen(const std::string& path);
  // freopen(""): back to the original output.
  void restore();
  // ftruncate(): empties the output file and writes from its start again.
  void truncate();
  void flush();
  // The errno of the first write to the output that failed (a full disk,
  // an I/O error), 0 while every one succeeded. A closed pipe (EPIPE) is
  // not counted: a reader that has had enough ends tracing by SIGPIPE.
  int writeError() const { return writeError_; }

 private:
  FILE* out_;
  FILE* original_;
  int writeError_ = 0;
};

}  // namespace dtrace::consume
