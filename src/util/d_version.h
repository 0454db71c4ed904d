// D language versions (libdtrace's _dtrace_versions): a program may ask
// for an older one (-x version, #pragma D option version), which hides the
// identifiers introduced after it.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace dtrace {

// A version as libdtrace encodes it: major << 24 | minor << 12 | micro.
constexpr uint32_t dVersion(uint32_t major, uint32_t minor, uint32_t micro = 0) {
  return major << 24 | minor << 12 | micro;
}

inline constexpr uint32_t kLatestDVersion = dVersion(1, 13);

enum class DVersionError { Malformed, Undefined };

// "M[.m[.u]]" (dt_opt_version's form) naming a version D has.
std::optional<uint32_t> parseDVersion(std::string_view text, DVersionError* why = nullptr);

}  // namespace dtrace
