#include <string>

#include "parse/parser.h"

namespace dtrace::parse {

// DTrace fills a description's fields from the right: "entry" is a name,
// "read:entry" a function and name, and so on. Anything left of the fourth
// colon from the right stays in the provider field.
ast::ProbeSpec splitProbeSpec(std::string_view text, SourceLoc loc) {
  ast::ProbeSpec spec;
  spec.text = std::string(text);
  spec.loc = loc;
  std::string* fields[] = {&spec.name, &spec.function, &spec.module, &spec.provider};
  std::string_view rest = text;
  for (int i = 0; i < 4; ++i) {
    size_t colon = (i == 3) ? std::string_view::npos : rest.rfind(':');
    if (colon == std::string_view::npos) {
      *fields[i] = std::string(rest);
      break;
    }
    *fields[i] = std::string(rest.substr(colon + 1));
    rest = rest.substr(0, colon);
  }
  return spec;
}

}  // namespace dtrace::parse
