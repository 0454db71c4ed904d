#include <set>
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

std::string expandProbeSpec(std::string_view text, SourceLoc loc, const MacroSource* macros,
                            ast::ProbeSpec& spec, std::set<size_t>* referenced,
                            ProbeSpecContext context) {
  spec = ast::ProbeSpec{};
  spec.text = std::string(text);
  spec.loc = loc;
  std::string* fields[] = {&spec.name, &spec.function, &spec.module, &spec.provider};
  // Fields are taken from the right, starting at the context's field; one
  // beyond the provider is an error.
  size_t end = text.size();
  for (int i = 3 - static_cast<int>(context);; ++i) {
    size_t colon = end == 0 ? std::string_view::npos : text.rfind(':', end - 1);
    size_t begin = colon == std::string_view::npos ? 0 : colon + 1;
    if (i == 4) return "Overspecified probe description";
    std::string_view field = text.substr(begin, end - begin);
    size_t dollar = field.find('$');
    if (dollar == std::string_view::npos || macros == nullptr) {
      *fields[i] = std::string(field);
    } else {
      // $ and $$ are the same here; a number is an argument and the text
      // after its digits stays, a name runs to the end of the field.
      std::string_view ref = field.substr(dollar);
      if (ref.size() > 2 && ref[1] == '$') ref.remove_prefix(1);
      std::string_view rest;
      std::string name;
      if (ref.size() > 1 && ref[1] >= '0' && ref[1] <= '9') {
        size_t n = 1;
        while (n < ref.size() && ref[n] >= '0' && ref[n] <= '9') ++n;
        name = std::string(ref.substr(1, n - 1));
        rest = ref.substr(n);
        if (name.size() > 9) return "Undefined macro variable in probe description";
      } else if (ref.size() > 1) {
        name = std::string(ref.substr(1));
      } else {
        return "Undefined macro variable in probe description";
      }
      const std::string* value = macros->find(name);
      if (value == nullptr) return "Undefined macro variable in probe description";
      if (referenced && name[0] >= '0' && name[0] <= '9') {
        referenced->insert(std::stoul(name));
      }
      *fields[i] = std::string(field.substr(0, dollar)) + *value + std::string(rest);
    }
    // As in DTrace, a colon in front of the first field starts no other.
    if (colon == std::string_view::npos || colon == 0) break;
    end = colon;
  }
  return "";
}

}  // namespace dtrace::parse
