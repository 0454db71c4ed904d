// Compile-time diagnostics: D error tag, source position and message, in
// the words illumos DTrace uses, collected instead of aborting.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace dtrace {

struct SourceLoc {
  uint32_t line = 0;    // 1-based; 0 when unknown
  uint32_t column = 0;  // 1-based; 0 when unknown
};

struct Diagnostic {
  std::string tag;  // D error tag, e.g. "D_SYNTAX", "D_IDENT_UNDEF"
  SourceLoc loc;
  std::string message;  // e.g. "syntax error near \"}\""
  // The part of a clause being checked ("predicate", "action list"), which
  // DTrace names when the source has no line numbers (-n); null outside.
  const char* region = nullptr;
};

// Renders "[TAG] line N: message" the way dtrace(1M) prints a compile error
// after "failed to compile script FILE: " or "invalid probe specifier SPEC: ".
// The tag appears only with -x errtags; the line only when the source is a
// script file (DTrace omits it for -n descriptions).
std::string formatDiagnostic(const Diagnostic& d, bool withTag, bool withLine);

class Diagnostics {
 public:
  void error(std::string tag, SourceLoc loc, std::string message, const char* region = nullptr) {
    list_.push_back({std::move(tag), loc, std::move(message), region});
  }
  bool empty() const { return list_.empty(); }
  const std::vector<Diagnostic>& all() const { return list_; }
  const Diagnostic& first() const { return list_.front(); }
  void dropLast() { list_.pop_back(); }

 private:
  std::vector<Diagnostic> list_;
};

}  // namespace dtrace
