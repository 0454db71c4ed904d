#include "list_mode.h"

#include <cstdio>
#include <cstdlib>
#include <string>

#include "parse/parser.h"
#include "providers/listing.h"
#include "providers/unavailable_provider.h"

namespace dtrace {
namespace {

int fail(const std::string& message) {
  std::fprintf(stderr, "dtrace: %s\n", message.c_str());
  return 1;
}

}  // namespace

// dtrace(1M)'s DMODE_LIST: the header, then each description's probes in
// turn; a description that matches nothing (an unavailable provider's
// included) is reported and the listing goes on (list_stmt).
int listProbes(driver::Session& session, const std::vector<driver::SourceUnit>& units, bool verbose,
               const sema::MacroTable& macroTable, bool argref) {
  parse::MacroSource macros;
  macros.find = [&macroTable](std::string_view name) { return macroTable.find(name); };
  auto& catalog = session.catalog();
  auto print = [&](const std::vector<const providers::Probe*>& probes) {
    std::string text;
    for (const auto* p : probes) {
      (void)catalog.describeArgs(*p);
      text += providers::formatProbeListLine(*p);
      if (verbose) text += providers::formatProbeInfo(*p);
    }
    std::fputs(text.c_str(), stdout);
  };
  if (units.empty()) {
    std::fputs(providers::formatProbeListHeader().c_str(), stdout);
    print(catalog.all());
    return 0;
  }
  // Compiled first, as dtrace(1M) compiles before it lists: a bad
  // description fails before the header. A probe ID names its probe.
  struct Listed {
    ast::ProbeSpec spec;
    const providers::Probe* byId = nullptr;
  };
  std::vector<Listed> listed;
  for (const auto& unit : units) {
    parse::ParseOptions po;
    po.allowBareProbeSpec = true;
    po.macros = &macros;
    po.probeSpecContext = unit.probeSpecContext;
    auto parsed = parse::parseProgram(unit.text, po);
    if (!parsed.diags.empty()) {
      return fail("invalid probe specifier " + unit.name + ": " +
                  formatDiagnostic(parsed.diags.first(), false, false));
    }
    // As dtrace(1M) compiles what it lists: an operand is a macro argument.
    if (auto unused = macroTable.unusedArgument(parsed.referencedArgs); unused && !argref) {
      return fail("invalid probe specifier " + unit.name + ": " + *unused);
    }
    for (auto& item : parsed.program.items) {
      auto* clause = std::get_if<ast::ProbeClause>(&item);
      if (!clause) continue;
      for (const auto& spec : clause->probes) {
        Listed l{spec};
        if (!spec.text.empty() && spec.text.find_first_not_of("0123456789") == std::string::npos) {
          uint64_t id = std::strtoull(spec.text.c_str(), nullptr, 10);
          l.byId = id <= UINT32_MAX ? catalog.byId(static_cast<uint32_t>(id)) : nullptr;
          if (!l.byId) {
            return fail("invalid probe specifier " + unit.name + ": invalid probe identifier " +
                        spec.text + ": Unknown probe identifier");
          }
        }
        listed.push_back(std::move(l));
      }
    }
  }
  std::fputs(providers::formatProbeListHeader().c_str(), stdout);
  for (const Listed& l : listed) {
    if (l.byId) {
      print({l.byId});
      continue;
    }
    const ast::ProbeSpec& spec = l.spec;
    auto matched = catalog.match(spec);
    // A provider this kernel cannot carry matches nothing (D_PDESC_ZERO).
    const bool none =
        matched ? matched->empty() : matched.error().tag == providers::kMatchesNothingTag;
    if (none) {
      std::fflush(stdout);
      std::fprintf(stderr, "dtrace: failed to match %s:%s:%s:%s: No probe matches description\n",
                   spec.provider.c_str(), spec.module.c_str(), spec.function.c_str(),
                   spec.name.c_str());
      continue;
    }
    if (!matched) return fail(matched.error().message);
    print(*matched);
  }
  return 0;
}

}  // namespace dtrace
