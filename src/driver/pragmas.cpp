#include "driver/pragmas.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "util/command_line.h"

namespace dtrace::driver {

namespace {

// dtrace_str2attr(): "name[/data[/class]]" stabilities and dependency class.
bool validAttributes(const std::string& text) {
  static const char* const kStability[] = {"internal", "private",  "obsolete", "external",
                                           "unstable", "evolving", "stable",   "standard"};
  static const char* const kClass[] = {"unknown", "cpu", "platform", "group", "isa", "common"};
  auto in = [](const auto& list, std::string w) {
    for (char& c : w) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return std::find(std::begin(list), std::end(list), w) != std::end(list);
  };
  std::vector<std::string> parts;
  size_t pos = 0;
  while (true) {
    size_t slash = text.find('/', pos);
    parts.push_back(text.substr(pos, slash == std::string::npos ? std::string::npos : slash - pos));
    if (slash == std::string::npos) break;
    pos = slash + 1;
  }
  for (size_t i = 0; i < parts.size(); i++) {
    if (parts[i].empty()) return true;  // DTrace stops at an empty part
    if (i < 2 && !in(kStability, parts[i])) return false;
    if (i == 2) return in(kClass, parts[i]) && parts.size() == 3;
  }
  return true;
}

// dt_version_str2num(): "major[.minor[.micro]]" within 255.4095.4095.
bool validVersion(const std::string& text) {
  const uint64_t limits[] = {255, 4095, 4095};
  size_t part = 0, digits = 0;
  uint64_t value = 0;
  for (char c : text) {
    if (c >= '0' && c <= '9') {
      value = value * 10 + static_cast<uint64_t>(c - '0');
      if (value > limits[part]) return false;
      digits++;
    } else if (c == '.' && digits != 0 && part < 2) {
      part++;
      digits = 0;
      value = 0;
    } else {
      return false;
    }
  }
  return digits != 0;
}

}  // namespace

std::optional<Diagnostic> applyOptionPragmas(std::string_view source, OptionTable& options) {
  for (const parse::PragmaLine& p : parse::scanOptionPragmas(source)) {
    const std::string& w = p.words[1];
    size_t eq = w.find('=');
    std::string name = w.substr(0, eq);
    const OptionSpec* spec = OptionTable::find(name);
    auto set = spec && spec->commandLineOnly
                   ? Result<void>(Error{OptionTable::kBadContextMessage})
                   : cli::setOption(options, name,
                                    eq == std::string::npos
                                        ? std::nullopt
                                        : std::optional(std::string_view(w).substr(eq + 1)));
    if (!set) {
      std::string what = eq == std::string::npos ? "'" + name + "'"
                                                 : "'" + name + "' to '" + w.substr(eq + 1) + "'";
      return Diagnostic{"D_PRAGMA_OPTSET", p.loc,
                        "failed to set option " + what + ": " + set.error().message};
    }
  }
  return std::nullopt;
}

// dt_pragma.c: depends_on, binding and attributes check their arguments.
std::optional<Diagnostic> pragmaProblem(const parse::PragmaLine& p,
                                        const providers::ProbeCatalog& catalog) {
  const std::string& kind = p.words[0];
  auto fail = [&](const char* tag, const std::string& message) {
    return Diagnostic{tag, p.loc, message};
  };
  if (kind == "depends_on") {
    if (p.words.size() < 3 || p.kinds[1] != 'i' || p.kinds[2] != 'i') {
      return fail("D_PRAGMA_MALFORM", "malformed #pragma depends_on <class> <name>");
    }
    const std::string &cls = p.words[1], &name = p.words[2];
    bool found = false;
    if (cls == "provider") {
      found = catalog.provider(name) != nullptr;
    } else if (cls == "module") {
      // A kernel module: loaded ones (and built-ins with parameters) are
      // in /sys/module; vmlinux is the kernel itself.
      found = name == "vmlinux" || access(("/sys/module/" + name).c_str(), F_OK) == 0;
    } else if (cls == "library") {
      return fail("D_PRAGMA_DEPEND", "main program may not explicitly depend on a library");
    } else {
      return fail("D_PRAGMA_INVAL", "invalid class " + cls + " specified by #pragma depends_on");
    }
    if (!found) return fail("D_PRAGMA_DEPEND", "program requires " + cls + " " + name);
  } else if (kind == "binding") {
    if (p.words.size() < 3 || p.kinds[1] != 's' || p.kinds[2] != 'i') {
      return fail("D_PRAGMA_MALFORM", "malformed #pragma binding \"version\" <ident>");
    }
    if (!validVersion(p.words[1])) {
      return fail("D_PRAGMA_INVAL", "invalid version string specified by #pragma binding");
    }
  } else if (kind == "attributes") {
    if (p.words.size() < 3 || p.kinds[1] != 'i' || p.kinds[2] != 'i') {
      return fail("D_PRAGMA_MALFORM", "malformed #pragma attributes <attributes> <ident>");
    }
    if (!validAttributes(p.words[1])) {
      return fail("D_PRAGMA_INVAL", "invalid attributes specified by #pragma attributes");
    }
    if (p.words[2] == "provider" && p.words.size() >= 5 && catalog.provider(p.words[3])) {
      static const char* const kParts[] = {"provider", "module", "function", "name", "args"};
      if (std::find(std::begin(kParts), std::end(kParts), p.words[4]) == std::end(kParts)) {
        // DTrace's message names the provider as the component and vice versa.
        return fail("D_PRAGMA_INVAL", "invalid component \"" + p.words[3] +
                                          "\" in attribute #pragma for provider " + p.words[4]);
      }
    }
  }
  return std::nullopt;
}

}  // namespace dtrace::driver
