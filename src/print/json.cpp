#include "print/json.h"

#include <cassert>

#include "print/appendf.h"
#include "print/utf8.h"

namespace dtrace::print {
namespace {

constexpr char kHexDigits[] = "0123456789abcdef";

void appendUnicodeEscape(std::string& out, uint32_t codePoint) {
  out += "\\u";
  for (int shift = 12; shift >= 0; shift -= 4) out += kHexDigits[(codePoint >> shift) & 0xF];
}

// ASCII that goes into a JSON string as it is.
bool plainAscii(uint8_t c) { return c >= 0x20 && c < 0x7F && c != '"' && c != '\\'; }

void appendAsciiEscaped(std::string& out, uint8_t c) {
  switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\b':
      out += "\\b";
      break;
    case '\f':
      out += "\\f";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\r':
      out += "\\r";
      break;
    case '\t':
      out += "\\t";
      break;
    default:
      appendUnicodeEscape(out, c);
      break;
  }
}

}  // namespace

void appendJsonString(std::string& out, std::string_view bytes) {
  out += '"';
  size_t i = 0;
  while (i < bytes.size()) {
    // Runs of plain ASCII, the common case, are copied whole.
    size_t run = i;
    while (run < bytes.size() && plainAscii(static_cast<uint8_t>(bytes[run]))) run++;
    out.append(bytes.substr(i, run - i));
    i = run;
    if (i == bytes.size()) break;

    const uint8_t c = static_cast<uint8_t>(bytes[i]);
    if (c < 0x80) {
      appendAsciiEscaped(out, c);
      i++;
      continue;
    }
    const size_t length = utf8SequenceLength(bytes, i);
    if (length == 0) {
      out += kUtf8Replacement;
      i++;
      continue;
    }
    // Two-byte C1 controls (U+0080..U+009F) and the three-byte line and
    // paragraph separators (U+2028, U+2029) are escaped.
    const uint8_t second = static_cast<uint8_t>(bytes[i + 1]);
    if (c == 0xC2 && second < 0xA0) {
      appendUnicodeEscape(out, second);
    } else if (c == 0xE2 && second == 0x80 && (bytes[i + 2] == '\xA8' || bytes[i + 2] == '\xA9')) {
      appendUnicodeEscape(out, bytes[i + 2] == '\xA8' ? 0x2028 : 0x2029);
    } else {
      out.append(bytes.substr(i, length));
    }
    i += length;
  }
  out += '"';
}

void JsonWriter::beforeValue() {
  assert(!complete() && "a JsonWriter writes one value");
  if (afterKey_) {
    afterKey_ = false;
    return;
  }
  if (scopes_.empty()) return;
  assert(!scopes_.back().object && "a value in an object needs a key first");
  if (!scopes_.back().empty) out_ += ',';
  scopes_.back().empty = false;
}

void JsonWriter::afterValue() {
  if (scopes_.empty()) wroteValue_ = true;
}

JsonWriter& JsonWriter::open(bool object, char bracket) {
  beforeValue();
  out_ += bracket;
  scopes_.push_back(Scope{object});
  return *this;
}

JsonWriter& JsonWriter::close(bool object, char bracket) {
  assert(!scopes_.empty() && scopes_.back().object == object && !afterKey_);
  (void)object;
  out_ += bracket;
  scopes_.pop_back();
  afterValue();
  return *this;
}

JsonWriter& JsonWriter::beginObject() { return open(true, '{'); }
JsonWriter& JsonWriter::endObject() { return close(true, '}'); }
JsonWriter& JsonWriter::beginArray() { return open(false, '['); }
JsonWriter& JsonWriter::endArray() { return close(false, ']'); }

JsonWriter& JsonWriter::key(std::string_view name) {
  assert(!scopes_.empty() && scopes_.back().object && !afterKey_);
  if (!scopes_.back().empty) out_ += ',';
  scopes_.back().empty = false;
  appendJsonString(out_, name);
  out_ += ':';
  afterKey_ = true;
  return *this;
}

JsonWriter& JsonWriter::string(std::string_view bytes) {
  return scalar([&] { appendJsonString(out_, bytes); });
}

JsonWriter& JsonWriter::integer(int64_t value) {
  return scalar([&] { appendInteger(out_, value); });
}

JsonWriter& JsonWriter::unsignedInteger(uint64_t value) {
  return scalar([&] { appendInteger(out_, value); });
}

JsonWriter& JsonWriter::boolean(bool value) {
  return scalar([&] { out_ += value ? "true" : "false"; });
}

JsonWriter& JsonWriter::null() {
  return scalar([&] { out_ += "null"; });
}

}  // namespace dtrace::print
