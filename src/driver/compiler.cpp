#include "driver/compiler.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <fstream>
#include <map>

#include "driver/pragmas.h"
#include "providers/probe_args.h"
#include "util/d_version.h"

namespace dtrace::driver {

sema::StackOptions stackOptions(const OptionTable& options) {
  auto frames = [&options](const char* option, uint32_t fallback) {
    const uint64_t v = options.value(option);
    return v ? static_cast<uint32_t>(std::min<uint64_t>(v, UINT32_MAX)) : fallback;
  };
  sema::StackOptions o;
  o.stackFrames = frames("stackframes", o.stackFrames);
  o.ustackFrames = frames("ustackframes", o.ustackFrames);
  o.jstackFrames = frames("jstackframes", o.jstackFrames);
  o.maxFrames = frames("maxframes", kernelMaxFrames());
  return o;
}

uint32_t kernelMaxFrames() {
  static const uint32_t frames = [] {
    std::ifstream in("/proc/sys/kernel/perf_event_max_stack");
    uint32_t n = 0;
    return in >> n && n > 0 ? n : sema::StackOptions{}.maxFrames;
  }();
  return frames;
}

Compiler::Compiler(CompilerConfig config, OptionTable& options)
    : config_(std::move(config)), options_(options) {}

Compiler::~Compiler() = default;

// Made on first use, so that a strsize the first program's pragmas set is
// the size of D's string type, as if it had been given with -x.
sema::TypeTable& Compiler::types() {
  if (!types_) {
    uint64_t strsize = options_.value("strsize");
    types_ = std::make_unique<sema::TypeTable>(strsize ? static_cast<uint32_t>(strsize) : 256);
    types_->setSource(&kernelTypes_);
  }
  return *types_;
}

// Options a program's pragmas may have changed that the compiler keeps.
void Compiler::applyOptions() {
  // dtrace(1M) reads quiet back after compiling: a pragma may turn it off.
  config_.quiet = options_.flag("quiet");
  if (options_.flag("verbose")) config_.showProgram = true;
  if (options_.flag("errtags")) config_.errtags = true;
  if (options_.flag("defaultargs")) config_.macros.defaultArgs = true;
  if (options_.flag("zdefs")) config_.allowZeroMatches = true;
}

Result<void> Compiler::checkPragma(const SourceUnit& unit, const parse::PragmaLine& p) {
  if (std::optional<Diagnostic> problem = pragmaProblem(p, catalog_)) {
    return makeError(compileError(unit, *problem));
  }
  return {};
}

std::string Compiler::compileError(const SourceUnit& unit, const Diagnostic& d,
                                   const std::string& file, const char* region) const {
  // dt_set_errmsg(): the tag, then "file", line N; or line N (scripts); or
  // the region of a clause (-n programs, which have no line numbers).
  std::string out = unit.isScript ? "failed to compile script " + unit.name + ": "
                                  : "invalid probe specifier " + unit.name + ": ";
  if (config_.errtags && !d.tag.empty()) out += "[" + d.tag + "] ";
  if (!file.empty() && file != unit.name) {
    out += "\"" + file + "\", line " + std::to_string(d.loc.line) + ": ";
  } else if (unit.isScript && d.loc.line != 0) {
    out += "line " + std::to_string(d.loc.line) + ": ";
  } else if (region != nullptr) {
    out += std::string("in ") + region + ": ";
  }
  return out + d.message;
}

// Parses one source and acts on its pragmas; refuses a program with
// nothing to enable and one that leaves a macro argument unused.
Result<std::unique_ptr<ast::Program>> Compiler::parse(const SourceUnit& unit) {
  // $0 is the script's name with -s, dtrace's own argv[0] otherwise.
  parse::MacroSource macros;
  macros.defaultArgs = config_.macros.defaultArgs;
  macros.find = [this, &unit](std::string_view name) -> const std::string* {
    if (name == "0" && unit.isScript) return &unit.name;
    if (!name.empty() && std::isdigit(static_cast<unsigned char>(name[0]))) {
      if (name.size() > 9) return nullptr;
      size_t index = std::stoul(std::string(name));
      return index < config_.macros.args.size() ? &config_.macros.args[index] : nullptr;
    }
    return config_.macros.find(name);
  };
  parse::ParseOptions po;
  po.isTypeName = [this](std::string_view n, bool inClause) {
    if (!inClause || symbols_.findBuiltin(n, types())) return types().isLocalTypeName(n);
    return types().isTypeName(n);
  };
  po.allowBareProbeSpec = !unit.isScript;
  po.macros = &macros;
  po.probeSpecContext = unit.probeSpecContext;
  po.ambiguousAsProbes = options_.flag("pspec");
  parse::ParseResult parsed = parse::parseProgram(unit.text, po);
  if (!parsed.diags.empty()) {
    // DTrace acts on a pragma as its lexer reads it: one before the error
    // fails first.
    for (const parse::PragmaLine& p : parsed.pragmas) {
      if (p.loc.line > parsed.diags.first().loc.line) break;
      if (auto r = checkPragma(unit, p); !r) return r.error();
    }
    return makeError(compileError(unit, parsed.diags.first(), parsed.errorFile));
  }
  auto program = std::make_unique<ast::Program>(std::move(parsed.program));
  for (const parse::PragmaLine& p : parsed.pragmas) {
    if (auto r = checkPragma(unit, p); !r) return r.error();
  }

  // A program of nothing but declarations and pragmas has nothing to
  // enable (D_EMPTY); -x empty allows it.
  bool empty = std::none_of(program->items.begin(), program->items.end(), [](const auto& item) {
    return std::holds_alternative<ast::ProbeClause>(item) ||
           std::holds_alternative<ast::InlineDecl>(item) ||
           std::holds_alternative<ast::TranslatorDecl>(item);
  });
  if (empty && !options_.flag("empty")) {
    // DTrace checks declarations while parsing, before it looks for D_EMPTY.
    Diagnostics diags;
    sema::Checker checker(types(), symbols_, config_.macros, diags, &definitions_);
    if (!checker.check(*program)) return makeError(compileError(unit, diags.first()));
    return makeError(
        compileError(unit, {"D_EMPTY", {parsed.endLine, 0}, "empty D program translation unit"}));
  }
  // -x argref allows an argument no program references.
  if (auto unused = config_.macros.unusedArgument(parsed.referencedArgs);
      unused && !options_.flag("argref")) {
    return makeError(compileError(unit, {"D_MACRO_UNUSED", {}, *unused}));
  }
  return program;
}

Result<void> Compiler::matchClauses(const SourceUnit& unit, ast::Program& program,
                                    Matches& matches) {
  for (auto& item : program.items) {
    auto* clause = std::get_if<ast::ProbeClause>(&item);
    if (!clause) continue;
    for (const ast::ProbeSpec& spec : clause->probes) {
      auto m = matchDescription(catalog_, spec);
      if (!m) {
        const std::string& tag = m.error().tag;
        return makeError(
            compileError(unit, {tag.empty() ? "D_PDESC_INVAL" : tag, spec.loc, m.error().message}));
      }
      if (m->probes.empty() && !config_.allowZeroMatches) {
        return makeError(compileError(unit, {"D_PDESC_ZERO", spec.loc,
                                             "probe description " + fullDescription(m->spec) +
                                                 " does not match any probes"}));
      }
      // Translated arguments need their translators' library units (a
      // probe ID names its probe, whose arguments are described on use).
      if (!namesProbeId(spec)) {
        if (const providers::Probe* p = providers::argsProbe(m->spec, m->probes)) {
          if (!p->argsDescribed) (void)catalog_.describeArgs(*p);
          for (const providers::ArgSource& a : p->args) {
            if (auto r = loadLibraries(a.translatedType); !r) return r;
          }
        }
      }
      matches[clause].push_back(std::move(*m));
    }
  }
  return {};
}

namespace {

// What args[] is in each clause, described only for clauses that use it.
class ClauseArgs final : public sema::Checker::ArgsSource {
 public:
  using Matches = std::map<const ast::ProbeClause*, std::vector<DescriptionMatch>>;
  ClauseArgs(providers::ProbeCatalog& catalog, Matches& matches)
      : catalog_(catalog), matches_(matches) {}

  std::vector<sema::Checker::DescriptionArgs> argsOf(const ast::ProbeClause& clause) override {
    std::vector<sema::Checker::DescriptionArgs> out;
    for (const DescriptionMatch& m : matches_[&clause]) {
      sema::Checker::DescriptionArgs d;
      d.description = fullDescription(m.spec);
      const providers::Probe* p = providers::argsProbe(m.spec, m.probes);
      d.stable = p != nullptr;
      if (p && !p->argsDescribed) (void)catalog_.describeArgs(*p);
      for (size_t i = 0; p && i < p->args.size() && !p->args[i].typeName.empty(); i++) {
        const providers::ArgSource& a = p->args[i];
        d.args.push_back({a.typeName, a.size, a.isSigned, a.translatedType, a.translatedFrom});
      }
      out.push_back(std::move(d));
    }
    return out;
  }

 private:
  providers::ProbeCatalog& catalog_;
  Matches& matches_;
};

}  // namespace

Result<void> Compiler::check(const SourceUnit& unit, ast::Program& program, Matches& matches) {
  ClauseArgs clauseArgs(catalog_, matches);
  Diagnostics diags;
  sema::Checker checker(types(), symbols_, config_.macros, diags, &definitions_);
  checker.setStackOptions(stackOptions(options_));
  checker.setScratchSize(options_.size("scratchsize"));
  if (std::optional<uint32_t> version = parseDVersion(options_.text("version"))) {
    checker.setVersion(*version);
  }
  checker.prepareBuiltins(program, &clauseArgs);
  if (!checker.check(program)) {
    const Diagnostic& d = diags.first();
    return makeError(compileError(unit, d, "", unit.isScript ? nullptr : d.region));
  }
  return {};
}

Result<CompiledUnit> Compiler::compile(const SourceUnit& unit) {
  if (std::optional<Diagnostic> problem = applyOptionPragmas(unit.text, options_)) {
    return makeError(compileError(unit, *problem));
  }
  applyOptions();
  if (auto r = loadUserLibraries(unit); !r) return r.error();
  if (auto r = loadLibraries(unit.text); !r) return r.error();
  auto program = parse(unit);
  if (!program) return program.error();
  Matches matches;
  if (auto r = matchClauses(unit, **program, matches); !r) return r.error();
  if (auto r = check(unit, **program, matches); !r) return r.error();

  CompiledUnit compiled;
  compiled.firstClause = clauses_.size();
  for (auto& item : (*program)->items) {
    auto* clause = std::get_if<ast::ProbeClause>(&item);
    if (!clause) continue;
    clauses_.push_back(clause);
    ReportedClause& c = compiled.clauses.emplace_back(ReportedClause{clause, {}});
    for (DescriptionMatch& m : matches[clause]) {
      c.descriptions.push_back({std::move(m.spec), std::move(m.probes)});
    }
  }
  programs_.push_back(std::move(*program));
  return compiled;
}

Result<std::vector<ListedDescription>> Compiler::descriptionsToList(
    const std::vector<SourceUnit>& units) {
  parse::MacroSource macros;
  macros.find = [this](std::string_view name) { return config_.macros.find(name); };
  std::vector<ListedDescription> listed;
  for (const auto& unit : units) {
    parse::ParseOptions po;
    po.allowBareProbeSpec = true;
    po.macros = &macros;
    po.probeSpecContext = unit.probeSpecContext;
    auto parsed = parse::parseProgram(unit.text, po);
    if (!parsed.diags.empty()) {
      return makeError("invalid probe specifier " + unit.name + ": " +
                       formatDiagnostic(parsed.diags.first(), false, false));
    }
    // As dtrace(1M) compiles what it lists: an operand is a macro argument.
    if (auto unused = config_.macros.unusedArgument(parsed.referencedArgs);
        unused && !options_.flag("argref")) {
      return makeError("invalid probe specifier " + unit.name + ": " + *unused);
    }
    for (auto& item : parsed.program.items) {
      auto* clause = std::get_if<ast::ProbeClause>(&item);
      if (!clause) continue;
      for (const auto& spec : clause->probes) {
        ListedDescription l{spec};
        if (namesProbeId(spec)) {
          auto p = probeById(catalog_, spec);
          if (!p)
            return makeError("invalid probe specifier " + unit.name + ": " + p.error().message);
          l.byId = *p;
        }
        listed.push_back(std::move(l));
      }
    }
  }
  return listed;
}

}  // namespace dtrace::driver
