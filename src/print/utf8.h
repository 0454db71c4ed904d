// Validating UTF-8 for the formats that require it: JSON strings and the
// XML inside an SVG. Traced strings are bytes from the kernel or a process
// and may be anything; one invalid byte would make a whole JSON line or SVG
// file unreadable, so each invalid byte becomes U+FFFD instead.
#pragma once

#include <cstddef>
#include <string_view>

namespace dtrace::print {

// U+FFFD REPLACEMENT CHARACTER, encoded.
inline constexpr std::string_view kUtf8Replacement = "\xEF\xBF\xBD";

// The length (1 to 4) of the well-formed UTF-8 sequence that starts at
// text[at], or 0 when the bytes there are not one: a stray continuation
// byte, an overlong form, a UTF-16 surrogate, a code point past U+10FFFF,
// or a sequence cut short.
size_t utf8SequenceLength(std::string_view text, size_t at);

}  // namespace dtrace::print
