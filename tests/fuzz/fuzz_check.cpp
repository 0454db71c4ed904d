// libFuzzer target: the parser and the checker (sema) on any text, with
// the kernel's types from BTF and every probe description standing for a
// probe with a few typed arguments. The probe catalog and code generation
// are fuzz_compile's; this target reaches the checker's corners faster.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/fuzz_macros.h"
#include "parse/parser.h"
#include "sema/checker.h"
#include "sema/symbols.h"
#include "sema/types.h"
#include "types/btf_types.h"

using namespace dtrace;

namespace {

// args[0..4] of every description: an int, a string, a kernel pointer,
// a 64-bit unsigned and a char.
struct TypedArgs final : sema::Checker::ArgsSource {
  std::vector<sema::Checker::DescriptionArgs> argsOf(const ast::ProbeClause& clause) override {
    std::vector<sema::Checker::DescriptionArgs> out;
    for (const ast::ProbeSpec& spec : clause.probes) {
      sema::Checker::DescriptionArgs d;
      d.description = spec.provider + ":" + spec.module + ":" + spec.function + ":" + spec.name;
      d.stable = true;
      d.args = {{"int", 4, true},
                {"char *", 8, false, "string"},
                {"struct task_struct *", 8, false},
                {"uint64_t", 8, false},
                {"char", 1, true}};
      out.push_back(std::move(d));
    }
    return out;
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  static const sema::MacroTable table = fuzz::macroTable();
  const parse::MacroSource macros = fuzz::macroSource(table);
  types::BtfTypeSource kernelTypes;
  sema::TypeTable types;
  types.setSource(&kernelTypes);
  sema::SymbolTable symbols;

  parse::ParseOptions options;
  options.isTypeName = [&](std::string_view name, bool inClause) {
    if (!inClause || symbols.findBuiltin(name, types)) return types.isLocalTypeName(name);
    return types.isTypeName(name);
  };
  options.macros = &macros;
  parse::ParseResult parsed = parse::parseProgram(text, options);
  if (!parsed.diags.empty()) return 0;

  Diagnostics diags;
  sema::Checker checker(types, symbols, table, diags);
  TypedArgs args;
  checker.prepareBuiltins(parsed.program, &args);
  (void)checker.check(parsed.program);
  return 0;
}
