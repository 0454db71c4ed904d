// The D libraries the compiler compiles before its programs: the units
// dtrace has built in (d_library.h), loaded when a program names what they
// define, and the files of the library path (-L), loaded before the first
// program. What a library defines (inlines, translators, types) is then
// visible to every program of the session.
#include <set>

#include "driver/compiler.h"
#include "driver/d_library.h"
#include "driver/library_path.h"
#include "driver/pragmas.h"

namespace dtrace::driver {

Result<void> Compiler::loadLibraries(std::string_view script) {
  for (const LibraryUnit* lib : libraryUnitsFor(script)) {
    if (auto r = loadLibraryUnit(*lib); !r) return r;
  }
  return {};
}

// Each unit is checked once per compiler (session).
Result<void> Compiler::loadLibraryUnit(const LibraryUnit& lib) {
  if (!loadedLibraries_.insert(&lib).second) return {};
  if (auto r = loadLibraries(lib.source); !r) return r;  // units it builds on
  parse::ParseResult parsed = parseLibrary(lib.source);
  SourceUnit unit{true, std::string("/usr/lib/dtrace/") + lib.name, lib.source};
  if (!parsed.diags.empty()) {
    return makeError(compileError(unit, parsed.diags.first(), parsed.errorFile));
  }
  return checkLibrary(std::move(parsed), unit, "");
}

parse::ParseResult Compiler::parseLibrary(std::string_view source) {
  parse::ParseOptions po;
  po.isTypeName = [this](std::string_view n, bool) { return types().isTypeName(n); };
  return parse::parseProgram(source, po);
}

// Checks a parsed library; its definitions then serve every program.
// Errors are reported against `unit`, naming `file`.
Result<void> Compiler::checkLibrary(parse::ParseResult parsed, const SourceUnit& unit,
                                    const std::string& file) {
  auto program = std::make_unique<ast::Program>(std::move(parsed.program));
  Diagnostics diags;
  sema::Checker checker(types(), symbols_, config_.macros, diags, &definitions_);
  if (!checker.check(*program)) return makeError(compileError(unit, diags.first(), file));
  programs_.push_back(std::move(program));
  return {};
}

// dt_load_libs: in dependency order, each library is compiled as a
// program is, its errors reported against the program being compiled
// (`unit`) and naming the library's file. As in DTrace, a library whose
// dependencies are not met (a library skipped before it, a provider or
// module `depends_on` names that is not here: D_PRAGMA_DEPEND) is skipped
// without a word, and its clauses are checked but never enabled.
Result<void> Compiler::loadUserLibraries(const SourceUnit& unit) {
  if (userLibrariesLoaded_) return {};
  userLibrariesLoaded_ = true;
  auto libraries = findLibraries(
      options_.libDirs(), [](std::string_view name) { return builtinLibrary(name) != nullptr; });
  if (!libraries) return makeError(compileError(unit, {"", {}, libraries.error().message}));
  std::set<std::string> loaded;
  for (const LibraryFile& lib : *libraries) {
    bool usable = true;
    for (const std::string& dependency : lib.dependsOn) {
      if (const LibraryUnit* builtin = builtinLibrary(dependency)) {
        if (auto r = loadLibraryUnit(*builtin); !r) return r;
      } else if (!loaded.count(dependency)) {
        usable = false;
      }
    }
    if (!usable) continue;
    parse::ParseResult parsed = parseLibrary(lib.text);
    if (!parsed.diags.empty()) {
      const std::string& file = parsed.errorFile.empty() ? lib.path : parsed.errorFile;
      return makeError(compileError(unit, parsed.diags.first(), file));
    }
    for (const parse::PragmaLine& p : parsed.pragmas) {
      if (p.words.size() >= 2 && p.words[0] == "depends_on" && p.words[1] == "library") continue;
      if (std::optional<Diagnostic> problem = pragmaProblem(p, catalog_)) {
        if (problem->tag != "D_PRAGMA_DEPEND") {
          return makeError(compileError(unit, *problem, lib.path));
        }
        usable = false;
      }
    }
    if (!usable) continue;
    if (auto r = loadLibraries(lib.text); !r) return r;
    if (auto r = checkLibrary(std::move(parsed), unit, lib.path); !r) return r;
    loaded.insert(lib.path);
  }
  return {};
}

}  // namespace dtrace::driver
