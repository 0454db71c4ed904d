// printf-style formatting appended to a std::string: the output formats
// DTrace defines are printf formats, so we write them as such.
#pragma once

#include <string>
#include <string_view>

namespace dtrace::print {

void appendf(std::string& out, const char* format, ...) __attribute__((format(printf, 2, 3)));

// Fast paths for the two layouts aggregation output repeats a million
// times: "%*lld" (right-justified) and "%-*s" (left-justified).
void appendRightJustified(std::string& out, long long value, int width);
void appendLeftJustified(std::string& out, std::string_view text, int width);

}  // namespace dtrace::print
