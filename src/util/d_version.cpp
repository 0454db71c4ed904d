#include "util/d_version.h"

#include <algorithm>

namespace dtrace {

namespace {

// The versions this compiler implements, up to the 1.13 dtrace -V reports.
constexpr uint32_t kDefinedVersions[] = {
    dVersion(1, 0),  dVersion(1, 1),  dVersion(1, 2),    dVersion(1, 2, 1), dVersion(1, 2, 2),
    dVersion(1, 3),  dVersion(1, 4),  dVersion(1, 4, 1), dVersion(1, 5),    dVersion(1, 6),
    dVersion(1, 6, 1), dVersion(1, 6, 2), dVersion(1, 6, 3), dVersion(1, 7), dVersion(1, 7, 1),
    dVersion(1, 8),  dVersion(1, 8, 1), dVersion(1, 9),  dVersion(1, 9, 1), dVersion(1, 10),
    dVersion(1, 11), dVersion(1, 12), dVersion(1, 12, 1), dVersion(1, 13),
};

}  // namespace

// Digits and at most two dots, each part within its field (8, 12 and 12
// bits), as dt_opt_version reads them.
std::optional<uint32_t> parseDVersion(std::string_view text, DVersionError* why) {
  auto fail = [why](DVersionError e) -> std::optional<uint32_t> {
    if (why) *why = e;
    return std::nullopt;
  };
  uint64_t parts[3] = {0, 0, 0};
  size_t part = 0;
  for (char c : text) {
    if (c >= '0' && c <= '9') {
      parts[part] = std::min<uint64_t>(parts[part] * 10 + static_cast<uint64_t>(c - '0'), 1u << 16);
    } else if (c != '.' || ++part > 2) {
      return fail(DVersionError::Malformed);
    }
  }
  if (text.empty() || parts[0] > 0xff || parts[1] > 0xfff || parts[2] > 0xfff) {
    return fail(DVersionError::Malformed);
  }
  const uint32_t version = dVersion(static_cast<uint32_t>(parts[0]),
                                    static_cast<uint32_t>(parts[1]), static_cast<uint32_t>(parts[2]));
  if (std::find(std::begin(kDefinedVersions), std::end(kDefinedVersions), version) ==
      std::end(kDefinedVersions)) {
    return fail(DVersionError::Undefined);
  }
  return version;
}

}  // namespace dtrace
