// A small JSON writer for -x oformat=json, which writes one object per line
// (see docs/OUTPUT.md): nested objects and arrays, strings escaped so that
// any bytes a probe traced make valid JSON, 64-bit integers written exactly.
// Values append to a caller's string, so a line can be built and written
// whole.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dtrace::print {

// Appends `bytes` as a quoted JSON string. Every control character is
// escaped (C0, DEL and C1, so a line stays one line and safe on a
// terminal), and so are U+2028 and U+2029 (JavaScript reads them as line
// ends); each byte that is not part of well-formed UTF-8 becomes U+FFFD.
void appendJsonString(std::string& out, std::string_view bytes);

// Writes one JSON value (usually an object) into `out`:
//
//   JsonWriter w(line);
//   w.beginObject().key("cpu").integer(0).key("data").beginArray();
//   w.string("hello").endArray().endObject();
//
// Commas and colons are placed by the writer. Names say the JSON type, so
// that a string literal can never turn into a boolean by overloading.
class JsonWriter {
 public:
  explicit JsonWriter(std::string& out) : out_(out) {}

  JsonWriter& beginObject();
  JsonWriter& endObject();
  JsonWriter& beginArray();
  JsonWriter& endArray();
  // The name of the next member of the enclosing object.
  JsonWriter& key(std::string_view name);

  JsonWriter& string(std::string_view bytes);
  JsonWriter& integer(int64_t value);
  JsonWriter& unsignedInteger(uint64_t value);
  JsonWriter& boolean(bool value);
  JsonWriter& null();

  // True once a whole value has been written and every object and array
  // it opened is closed.
  bool complete() const { return wroteValue_ && scopes_.empty(); }

 private:
  struct Scope {
    bool object;
    bool empty = true;
  };
  // Writes the separator a value needs where it stands.
  void beforeValue();
  // Notes a finished value: at the top level, the writer is complete.
  void afterValue();
  // Writes a value that holds no other: `write` appends its text.
  template <class Write>
  JsonWriter& scalar(Write write) {
    beforeValue();
    write();
    afterValue();
    return *this;
  }
  JsonWriter& open(bool object, char bracket);
  JsonWriter& close(bool object, char bracket);

  std::string& out_;
  std::vector<Scope> scopes_;
  bool afterKey_ = false;
  bool wroteValue_ = false;
};

}  // namespace dtrace::print
