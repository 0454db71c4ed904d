// print(): a value shown with its C type, member by member, as Linux
// DTrace's print() lays it out: "(type)value", structs and unions as
// "(struct foo) {" with one ".member = value," per line, arrays as
// "(int [4]) [" with one element per line. A scalar follows on the current
// line; an object starts on a line of its own, after "0x... = *" when
// printed through a pointer. Those lines are indented to the data column of
// the default output, one more space per level of nesting; members whose
// bytes are all zero are left out.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "ir/type_info.h"

namespace dtrace::print {

struct PrintedValue {
  std::span<const ir::TypeInfo> types;
  uint32_t type = 0;                // index into types
  const uint8_t* bytes = nullptr;   // the value, types[type].size bytes
  std::optional<uint64_t> address;  // print(p): the pointer, shown as "0x... = *"
  uint64_t printSize = 0;           // the printsize option; 0 shows everything
};

void appendPrintedValue(std::string& out, const PrintedValue& value);

}  // namespace dtrace::print
