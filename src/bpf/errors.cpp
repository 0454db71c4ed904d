#include "bpf/errors.h"

#include <cctype>
#include <cstring>

namespace dtrace::bpf {

std::string errnoText(int err) {
  char buf[128];
  // GNU strerror_r may return a static string instead of filling buf.
  return strerror_r(err, buf, sizeof buf);
}

std::string kernelObjectName(const std::string& name) {
  constexpr size_t kMaxLength = 15;
  std::string out;
  for (char c : name) {
    if (out.size() == kMaxLength) break;
    const bool allowed = std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
    out += allowed ? c : '_';
  }
  return out;
}

}  // namespace dtrace::bpf
