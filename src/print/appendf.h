// printf-style formatting appended to a std::string: the output formats
// DTrace defines are printf formats, so we write them as such.
#pragma once

#include <charconv>
#include <concepts>
#include <string>
#include <string_view>

namespace dtrace::print {

void appendf(std::string& out, const char* format, ...) __attribute__((format(printf, 2, 3)));

// Fast paths for the two layouts aggregation output repeats a million
// times: "%*lld" (right-justified) and "%-*s" (left-justified).
// The digits of an integer of any width and signedness, exactly (decimal
// unless `base` says otherwise).
template <std::integral Integer>
void appendInteger(std::string& out, Integer value, int base = 10) {
  char buf[24];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value, base);
  out.append(buf, end);
}

void appendRightJustified(std::string& out, std::string_view text, int width);
template <std::integral Integer>
void appendRightJustified(std::string& out, Integer value, int width) {
  char buf[24];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value);
  appendRightJustified(out, std::string_view(buf, static_cast<size_t>(end - buf)), width);
}
void appendLeftJustified(std::string& out, std::string_view text, int width);

}  // namespace dtrace::print
