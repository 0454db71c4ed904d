#include "print/appendf.h"

#include <charconv>
#include <cstdarg>
#include <cstdio>

namespace dtrace::print {

void appendf(std::string& out, const char* format, ...) {
  char buf[256];
  va_list ap;
  va_start(ap, format);
  const int n = std::vsnprintf(buf, sizeof buf, format, ap);
  va_end(ap);
  if (n < 0) return;
  if (static_cast<size_t>(n) < sizeof buf) {
    out.append(buf, static_cast<size_t>(n));
    return;
  }
  const size_t old = out.size();
  out.resize(old + static_cast<size_t>(n) + 1);
  va_start(ap, format);
  std::vsnprintf(out.data() + old, static_cast<size_t>(n) + 1, format, ap);
  va_end(ap);
  out.resize(old + static_cast<size_t>(n));
}

void appendRightJustified(std::string& out, std::string_view text, int width) {
  if (width > 0 && static_cast<size_t>(width) > text.size()) {
    out.append(static_cast<size_t>(width) - text.size(), ' ');
  }
  out.append(text);
}

void appendLeftJustified(std::string& out, std::string_view text, int width) {
  out.append(text);
  if (static_cast<size_t>(width) > text.size())
    out.append(static_cast<size_t>(width) - text.size(), ' ');
}

}  // namespace dtrace::print
