// Parsing a tracefs event `format` file into its fields: C type, name,
// offset, size and signedness of each record member.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "util/result.h"

namespace dtrace::providers {

struct TracepointField {
  std::string type;  // C type, e.g. "unsigned int", "const char *", "char[16]"
  std::string name;
  int offset = 0;
  int size = 0;
  bool isSigned = false;
};

// Every field line of the file, common_* fields included, in order.
Result<std::vector<TracepointField>> parseTracepointFormat(std::string_view text);

// Reads and parses TRACEFS/events/CATEGORY/EVENT/format.
Result<std::vector<TracepointField>> readTracepointFormat(const std::string& category,
                                                          const std::string& event);

}  // namespace dtrace::providers
