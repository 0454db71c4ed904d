#include "providers/glob.h"

#include <cstddef>

namespace dtrace::providers {

namespace {

// Matches one bracket expression starting at pattern[p] == '['. Sets `next`
// to the index after the closing ']' and returns whether `c` is in the
// class; returns false with next == npos when the bracket is unterminated.
bool matchClass(char c, std::string_view pattern, size_t p, size_t& next) {
  size_t i = p + 1;
  bool negate = false;
  if (i < pattern.size() && pattern[i] == '!') {
    negate = true;
    ++i;
  }
  bool found = false;
  bool first = true;
  while (i < pattern.size() && (pattern[i] != ']' || first)) {
    first = false;
    char lo = pattern[i];
    if (lo == '\\' && i + 1 < pattern.size()) lo = pattern[++i];
    ++i;
    char hi = lo;
    if (i + 1 < pattern.size() && pattern[i] == '-' && pattern[i + 1] != ']') {
      hi = pattern[i + 1];
      if (hi == '\\' && i + 2 < pattern.size()) hi = pattern[++i + 1];
      i += 2;
    }
    if (static_cast<unsigned char>(lo) <= static_cast<unsigned char>(c) &&
        static_cast<unsigned char>(c) <= static_cast<unsigned char>(hi)) {
      found = true;
    }
  }
  if (i >= pattern.size()) {
    next = std::string_view::npos;
    return false;
  }
  next = i + 1;
  return found != negate;
}

}  // namespace

bool gmatch(std::string_view text, std::string_view pattern) {
  size_t t = 0, p = 0;
  // Where to resume after the most recent '*': pattern index after the
  // star, and the text index the star currently extends to.
  size_t starP = std::string_view::npos, starT = 0;
  while (t < text.size()) {
    if (p < pattern.size()) {
      char pc = pattern[p];
      if (pc == '*') {
        starP = ++p;
        starT = t;
        continue;
      }
      if (pc == '?') {
        ++p;
        ++t;
        continue;
      }
      if (pc == '[') {
        size_t next;
        if (matchClass(text[t], pattern, p, next)) {
          p = next;
          ++t;
          continue;
        }
        if (next == std::string_view::npos) return false;  // malformed class
      } else {
        if (pc == '\\' && p + 1 < pattern.size()) pc = pattern[p + 1];
        if (pc == text[t]) {
          p += pattern[p] == '\\' && p + 1 < pattern.size() ? 2 : 1;
          ++t;
          continue;
        }
      }
    }
    // Mismatch: let the last star swallow one more character.
    if (starP == std::string_view::npos) return false;
    p = starP;
    t = ++starT;
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

bool isGlob(std::string_view pattern) {
  // A backslash counts too: the field must go through gmatch to lose it.
  return pattern.find_first_of("*?[\\") != std::string_view::npos;
}

}  // namespace dtrace::providers
