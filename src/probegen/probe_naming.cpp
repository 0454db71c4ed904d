#include "probegen/probe_naming.h"

#include <cctype>

namespace dtrace::probegen {

namespace {

std::string_view baseName(std::string_view path) {
  size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

// Each "__" replaced by `with`, scanning left to right ("a___b" gives
// with + "_").
std::string replaceDoubleUnderscores(std::string_view name, std::string_view with) {
  std::string out;
  for (size_t i = 0; i < name.size(); i++) {
    if (name[i] == '_' && i + 1 < name.size() && name[i + 1] == '_') {
      out += with;
      i++;
    } else {
      out += name[i];
    }
  }
  return out;
}

std::string upper(std::string text) {
  for (char& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return text;
}

}  // namespace

std::string dtraceProbeName(std::string_view declared) {
  return replaceDoubleUnderscores(declared, "-");
}

std::string probeMacroName(std::string_view provider, std::string_view probe) {
  return upper(std::string(provider) + "_" + replaceDoubleUnderscores(probe, "_"));
}

std::string enabledMacroName(std::string_view provider, std::string_view probe) {
  return probeMacroName(provider, probe) + "_ENABLED";
}

std::string semaphoreName(std::string_view provider, std::string_view probe) {
  return std::string(provider) + "_" + std::string(probe) + "_semaphore";
}

std::string includeGuard(std::string_view outputPath) {
  std::string guard = "_";
  for (char c : baseName(outputPath)) {
    const auto u = static_cast<unsigned char>(c);
    guard += std::isalnum(u) ? static_cast<char>(std::toupper(u)) : '_';
  }
  return guard;
}

std::string defaultOutputName(std::string_view script, std::string_view suffix) {
  std::string_view base = baseName(script);
  if (base.size() < 2 || !base.ends_with(".d")) return "";
  base.remove_suffix(2);
  return std::string(base) + std::string(suffix);
}

}  // namespace dtrace::probegen
