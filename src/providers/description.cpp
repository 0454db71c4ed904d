#include "providers/description.h"

#include <string>

namespace dtrace::providers {

Result<ast::ProbeSpec> splitProbeDescription(std::string_view text, DescriptionField last) {
  ast::ProbeSpec spec;
  spec.text = std::string(text);
  std::string* fields[] = {&spec.provider, &spec.module, &spec.function, &spec.name};
  int field = static_cast<int>(last);
  size_t end = text.size();
  while (true) {
    size_t colon = end == 0 ? std::string_view::npos : text.rfind(':', end - 1);
    size_t begin = colon == std::string_view::npos ? 0 : colon + 1;
    if (field < 0) return Error{"invalid probe specifier " + std::string(text)};
    *fields[field--] = std::string(text.substr(begin, end - begin));
    if (colon == std::string_view::npos) break;
    end = colon;
  }
  return spec;
}

std::string describeSpec(const ast::ProbeSpec& spec) {
  return spec.provider + ":" + spec.module + ":" + spec.function + ":" + spec.name;
}

}  // namespace dtrace::providers
