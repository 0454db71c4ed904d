// Probe-description pattern matching with the rules of gmatch(3GEN), which
// DTrace uses for every field of a probe description.
#pragma once

#include <string_view>

namespace dtrace::providers {

// True when `text` matches `pattern`: `*` any string, `?` any character,
// `[abc]`, `[a-z]`, `[!...]` character classes, `\x` a literal x.
bool gmatch(std::string_view text, std::string_view pattern);

// True when the pattern uses any of the glob characters above.
bool isGlob(std::string_view pattern);

// A probe-description field: an empty pattern matches anything.
inline bool fieldMatches(std::string_view value, std::string_view pattern) {
  return pattern.empty() || gmatch(value, pattern);
}

}  // namespace dtrace::providers
