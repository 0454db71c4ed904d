// libFuzzer target: the lexer and the parser on any text, read as a script
// and as a -n program (bare probe descriptions, macro variables), then the
// AST dumped. Whatever the input, parsing ends with a program or an error.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz/fuzz_macros.h"
#include "parse/ast_dump.h"
#include "parse/lexer.h"
#include "parse/parser.h"

using namespace dtrace;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  static const sema::MacroTable table = fuzz::macroTable();
  const parse::MacroSource macros = fuzz::macroSource(table);
  for (const bool commandLine : {false, true}) {
    parse::ParseOptions options;
    // A few names that parse as types, as the kernel's would.
    options.isTypeName = [](std::string_view name, bool) {
      return name == "uint_t" || name == "u64" || name == "pid_t";
    };
    options.allowBareProbeSpec = commandLine;
    options.macros = commandLine ? &macros : nullptr;
    parse::ParseResult parsed = parse::parseProgram(text, options);
    if (parsed.diags.empty()) (void)ast::dumpProgram(parsed.program);
  }
  (void)parse::scanOptionPragmas(text);
  return 0;
}
