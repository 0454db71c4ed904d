// The macro variables the fuzz targets compile with, as if dtrace had been
// run with two arguments and a -p of process 1: $0..$2, $target, $pid, ...
#pragma once

#include <cctype>
#include <string>
#include <string_view>

#include "parse/lexer.h"
#include "sema/checker.h"

namespace dtrace::fuzz {

inline sema::MacroTable macroTable() {
  sema::MacroTable macros;
  macros.args = {"fuzz.d", "42", "word"};
  for (const char* name : {"target", "pid", "pgid", "sid"}) macros.named[name] = "1";
  for (const char* name : {"ppid", "uid", "gid", "euid", "egid", "projid", "taskid"}) {
    macros.named[name] = "0";
  }
  return macros;
}

// What the lexer substitutes: $N from the arguments, $name from the rest.
inline parse::MacroSource macroSource(const sema::MacroTable& table) {
  parse::MacroSource macros;
  macros.find = [&table](std::string_view name) -> const std::string* {
    if (!name.empty() && std::isdigit(static_cast<unsigned char>(name[0]))) {
      for (size_t i = 0; i < table.args.size(); i++) {
        if (name == std::to_string(i)) return &table.args[i];
      }
      return nullptr;
    }
    return table.find(name);
  };
  return macros;
}

}  // namespace dtrace::fuzz
