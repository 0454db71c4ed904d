#include "print/xml.h"

#include <cstdint>

#include "print/utf8.h"

namespace dtrace::print {
namespace {

bool allowedControl(uint8_t c) { return c == '\t' || c == '\n' || c == '\r'; }

// U+FFFE and U+FFFF, which XML 1.0 leaves out of its characters.
bool isNoncharacterFFFx(std::string_view sequence) {
  return sequence == "\xEF\xBF\xBE" || sequence == "\xEF\xBF\xBF";
}

}  // namespace

void appendXmlEscaped(std::string& out, std::string_view text) {
  size_t i = 0;
  while (i < text.size()) {
    const uint8_t c = static_cast<uint8_t>(text[i]);
    if (c < 0x80) {
      switch (c) {
        case '&':
          out += "&amp;";
          break;
        case '<':
          out += "&lt;";
          break;
        case '>':
          out += "&gt;";
          break;
        case '"':
          out += "&quot;";
          break;
        case '\'':
          out += "&#39;";
          break;
        default:
          if (c < 0x20 && !allowedControl(c)) {
            out += kUtf8Replacement;
          } else {
            out += static_cast<char>(c);
          }
          break;
      }
      i++;
      continue;
    }
    const size_t length = utf8SequenceLength(text, i);
    const std::string_view sequence = text.substr(i, length);
    if (length == 0 || isNoncharacterFFFx(sequence)) {
      out += kUtf8Replacement;
      i += length == 0 ? 1 : length;
    } else {
      out += sequence;
      i += length;
    }
  }
}

}  // namespace dtrace::print
