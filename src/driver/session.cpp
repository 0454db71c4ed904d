#include "driver/session.h"

#include <signal.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cstring>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <utility>

#include "bpf/cpu_rings.h"
#include "bpf/disasm.h"
#include "codegen/emitter.h"
#include "consume/aggregation_source.h"
#include "consume/consumer.h"
#include "consume/messages.h"
#include "consume/principal_buffers.h"
#include "driver/d_library.h"
#include "driver/program_listing.h"
#include "driver/symbols.h"
#include "driver/variable_table.h"
#include "output/make_sink.h"
#include "parse/parser.h"
#include "proc/target.h"
#include "providers/glob.h"
#include "providers/probe_args.h"
#include "sym/process_maps.h"
#include "types/kernel_btf.h"
#include "util/clock.h"
#include "util/command_line.h"
#include "util/cpu_list.h"
#include "util/d_version.h"
#include "util/thread_on_cpu.h"

namespace dtrace::driver {

using ir::Activity;

struct Session::Maps {
  std::optional<bpf::Map> globals, scratch, counters, aggregationZero;
  std::optional<bpf::CpuRings> principal;    // one ring buffer per CPU
  std::optional<bpf::Map> speculationUsage;  // when a clause uses speculations
  std::vector<bpf::Map> aggregations;
  std::vector<bpf::Map> dynamics;
  std::vector<bpf::Map> mapArrays;    // codegen::Layout::mapArrays
  std::vector<bpf::Map> probeTables;  // one per shared program
  uint64_t* globalsValue = nullptr;   // mmapped: the state is only touched through atomic_ref
};

namespace {

// Kernel bookkeeping per hash-map element (struct htab_elem), for sizing.
constexpr uint64_t kHashEntryOverhead = 48;

uint64_t nextPowerOfTwo(uint64_t v) {
  uint64_t p = 1;
  while (p < v) p <<= 1;
  return p;
}

std::string fullDescription(const ast::ProbeSpec& s) {
  return s.provider + ":" + s.module + ":" + s.function + ":" + s.name;
}

std::string fullName(const providers::Probe& p) {
  return p.provider + ":" + p.module + ":" + p.function + ":" + p.name;
}

bool isErrorProbe(const providers::Probe& p) { return p.provider == "dtrace" && p.name == "ERROR"; }

// Whether a description (macros expanded) names the probe; an empty field
// matches any.
bool specMatches(const ast::ProbeSpec& s, const providers::Probe& p) {
  auto field = [](const std::string& pattern, const std::string& value) {
    return pattern.empty() || providers::gmatch(value, pattern);
  };
  return field(s.provider, p.provider) && field(s.module, p.module) &&
         field(s.function, p.function) && field(s.name, p.name);
}

std::atomic_ref<uint64_t> stateRef(uint64_t* globals) {
  return std::atomic_ref<uint64_t>(globals[ir::kStateOffset / 8]);
}

}  // namespace

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

// The part of a -n program's clause an error is in, as DTrace names it
// ("in predicate: "), or null outside clauses.

// The frame counts stack(), ustack() and jstack() record by default, and
// the most any may: maxframes, else what the kernel unwinds at most.
sema::StackOptions Session::stackOptions() {
  auto frames = [this](const char* option, uint32_t fallback) {
    const uint64_t v = options_.value(option);
    return v ? static_cast<uint32_t>(std::min<uint64_t>(v, UINT32_MAX)) : fallback;
  };
  sema::StackOptions o;
  o.stackFrames = frames("stackframes", o.stackFrames);
  o.ustackFrames = frames("ustackframes", o.ustackFrames);
  o.jstackFrames = frames("jstackframes", o.jstackFrames);
  o.maxFrames = frames("maxframes", kernelMaxFrames());
  return o;
}

// The most frames the kernel unwinds (perf_event_max_stack, 127 unless an
// administrator changed it), read once.
uint32_t Session::kernelMaxFrames() {
  if (!kernelMaxFrames_) {
    std::ifstream in("/proc/sys/kernel/perf_event_max_stack");
    uint32_t n = 0;
    kernelMaxFrames_ = in >> n && n > 0 ? n : sema::StackOptions{}.maxFrames;
  }
  return kernelMaxFrames_;
}

// Options a program's pragmas may have changed that the session keeps.
void Session::applyOptions() {
  // dtrace(1M) reads quiet back after compiling: a pragma may turn it off.
  config_.quiet = options_.flag("quiet");
  if (options_.flag("verbose")) config_.showProgram = true;
  if (options_.flag("errtags")) config_.errtags = true;
  if (options_.flag("defaultargs")) config_.macros.defaultArgs = true;
  if (options_.flag("zdefs")) config_.allowZeroMatches = true;
}

Result<void> Session::checkPragma(const SourceUnit& unit, const parse::PragmaLine& p) {
  if (std::optional<Diagnostic> problem = pragmaProblem(p)) {
    return makeError(compileError(unit, *problem));
  }
  return {};
}

// dt_pragma.c: depends_on, binding and attributes check their arguments.
std::optional<Diagnostic> Session::pragmaProblem(const parse::PragmaLine& p) {
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
      found = catalog_.provider(name) != nullptr;
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
    if (p.words[2] == "provider" && p.words.size() >= 5 && catalog_.provider(p.words[3])) {
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

Session::Session(SessionConfig config, OptionTable& options)
    : config_(std::move(config)), options_(options) {}

// Made on first use, so that a strsize the first program's pragmas set is
// the size of D's string type, as if it had been given with -x.
sema::TypeTable& Session::types() {
  if (!types_) {
    uint64_t strsize = options_.value("strsize");
    types_ = std::make_unique<sema::TypeTable>(strsize ? static_cast<uint32_t>(strsize) : 256);
    types_->setSource(&kernelTypes_);
  }
  return *types_;
}

Session::~Session() = default;

std::string Session::compileError(const SourceUnit& unit, const Diagnostic& d,
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

Session::ProbeEnabling& Session::addEcb(size_t clauseIndex, const providers::Probe& probe,
                                        std::map<uint32_t, size_t>& enablingIndex) {
  auto [it, added] = enablingIndex.emplace(probe.id, enablings_.size());
  if (added) enablings_.push_back({&probe, {}});
  ir::Ecb ecb;
  ecb.epid = static_cast<uint32_t>(ir_.ecbs.size() + 1);
  ecb.probeId = probe.id;
  ecb.clauseIndex = static_cast<uint32_t>(clauseIndex);
  ecb.provider = probe.provider;
  ecb.module = probe.module;
  ecb.function = probe.function;
  ecb.name = probe.name;
  ir_.ecbs.push_back(ecb);
  enablings_[it->second].clauses.push_back({clauseIndex, ecb.epid});
  return enablings_[it->second];
}

Result<void> Session::compile(const SourceUnit& unit, size_t* matched) {
  // `#pragma D option` acts as -x does, before the program is compiled
  // (DTrace sets options while lexing, ahead of the rest of the program).
  for (const parse::PragmaLine& p : parse::scanOptionPragmas(unit.text)) {
    const std::string& w = p.words[1];
    size_t eq = w.find('=');
    std::string name = w.substr(0, eq);
    const OptionSpec* spec = OptionTable::find(name);
    auto set = spec && spec->commandLineOnly
                   ? Result<void>(Error{OptionTable::kBadContextMessage})
                   : cli::setOption(options_, name,
                                    eq == std::string::npos
                                        ? std::nullopt
                                        : std::optional(std::string_view(w).substr(eq + 1)));
    if (!set) {
      std::string what = eq == std::string::npos ? "'" + name + "'"
                                                 : "'" + name + "' to '" + w.substr(eq + 1) + "'";
      return makeError(compileError(
          unit,
          {"D_PRAGMA_OPTSET", p.loc, "failed to set option " + what + ": " + set.error().message}));
    }
  }
  applyOptions();
  if (auto r = loadUserLibraries(unit); !r) return r;
  if (auto r = loadLibraries(unit.text); !r) return r;

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
      if (auto r = checkPragma(unit, p); !r) return r;
    }
    return makeError(compileError(unit, parsed.diags.first(), parsed.errorFile));
  }
  auto program = std::make_unique<ast::Program>(std::move(parsed.program));
  for (const parse::PragmaLine& p : parsed.pragmas) {
    if (auto r = checkPragma(unit, p); !r) return r;
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

  // Descriptions are matched before clauses are checked, as in DTrace:
  // args[] takes its types from the probes.
  struct Matched {
    ast::ProbeSpec spec;  // macros expanded
    std::vector<const providers::Probe*> probes;
  };
  using MatchMap = std::map<const ast::ProbeClause*, std::vector<Matched>>;
  MatchMap matches;
  for (auto& item : program->items) {
    auto* clause = std::get_if<ast::ProbeClause>(&item);
    if (!clause) continue;
    for (ast::ProbeSpec spec : clause->probes) {
      // A number is a probe ID (as dtrace -l lists them).
      if (!spec.text.empty() && spec.text.find_first_not_of("0123456789") == std::string::npos) {
        uint64_t id = std::strtoull(spec.text.c_str(), nullptr, 10);
        const providers::Probe* p =
            id <= UINT32_MAX ? catalog_.byId(static_cast<uint32_t>(id)) : nullptr;
        if (!p) {
          return makeError(compileError(
              unit, {"D_PDESC_INVAL", spec.loc,
                     "invalid probe identifier " + spec.text + ": Unknown probe identifier"}));
        }
        spec.provider = p->provider;
        spec.module = p->module;
        spec.function = p->function;
        spec.name = p->name;
        matches[clause].push_back({spec, {p}});
        continue;
      }
      auto probes = catalog_.match(spec);
      if (!probes) {
        const std::string& tag = probes.error().tag;
        return makeError(compileError(
            unit, {tag.empty() ? "D_PDESC_INVAL" : tag, spec.loc, probes.error().message}));
      }
      if (probes->empty() && !config_.allowZeroMatches) {
        return makeError(compileError(
            unit, {"D_PDESC_ZERO", spec.loc,
                   "probe description " + fullDescription(spec) + " does not match any probes"}));
      }
      // Translated arguments need their translators' library units.
      if (const providers::Probe* p = providers::argsProbe(spec, *probes)) {
        if (!p->argsDescribed) (void)catalog_.describeArgs(*p);
        for (const providers::ArgSource& a : p->args) {
          if (auto r = loadLibraries(a.translatedType); !r) return r;
        }
      }
      matches[clause].push_back({spec, std::move(*probes)});
    }
  }
  // What args[] is in each clause, described only for clauses that use it.
  struct ClauseArgs final : sema::Checker::ArgsSource {
    ClauseArgs(providers::ProbeCatalog& c, MatchMap& m) : catalog(c), matches(m) {}
    std::vector<sema::Checker::DescriptionArgs> argsOf(const ast::ProbeClause& clause) override {
      std::vector<sema::Checker::DescriptionArgs> out;
      for (const Matched& m : matches[&clause]) {
        sema::Checker::DescriptionArgs d;
        d.description = fullDescription(m.spec);
        const providers::Probe* p = providers::argsProbe(m.spec, m.probes);
        d.stable = p != nullptr;
        if (p && !p->argsDescribed) (void)catalog.describeArgs(*p);
        for (size_t i = 0; p && i < p->args.size() && !p->args[i].typeName.empty(); i++) {
          const providers::ArgSource& a = p->args[i];
          d.args.push_back({a.typeName, a.size, a.isSigned, a.translatedType, a.translatedFrom});
        }
        out.push_back(std::move(d));
      }
      return out;
    }
    providers::ProbeCatalog& catalog;
    MatchMap& matches;
  } clauseArgs(catalog_, matches);

  Diagnostics diags;
  sema::Checker checker(types(), symbols_, config_.macros, diags, &definitions_);
  checker.setStackOptions(stackOptions());
  checker.setScratchSize(options_.size("scratchsize"));
  if (std::optional<uint32_t> version = parseDVersion(options_.text("version"))) {
    checker.setVersion(*version);
  }
  checker.prepareBuiltins(*program, &clauseArgs);
  if (!checker.check(*program)) {
    const Diagnostic& d = diags.first();
    return makeError(compileError(unit, d, "", unit.isScript ? nullptr : d.region));
  }

  compiled_.clear();
  size_t count = 0;
  std::map<uint32_t, size_t> enablingIndex;
  for (size_t i = 0; i < enablings_.size(); i++) enablingIndex[enablings_[i].probe->id] = i;
  for (auto& item : program->items) {
    auto* clause = std::get_if<ast::ProbeClause>(&item);
    if (!clause) continue;
    size_t clauseIndex = clauses_.size();
    clauses_.push_back(clause);
    if (config_.verbose) compiled_.push_back({clause, {}});
    for (const Matched& m : matches[clause]) {
      if (config_.verbose) compiled_.back().descriptions.push_back({m.spec, m.probes});
      const bool glob = m.spec.provider.find_first_of("*?[") != std::string::npos;
      const bool inProcesses =
          glob || m.probes.empty() || std::any_of(m.probes.begin(), m.probes.end(), [](auto* p) {
            return p->attachKind == providers::AttachKind::Uprobe;
          });
      retainedSpecs_.push_back({clauseIndex, m.spec, inProcesses});
      for (const providers::Probe* probe : m.probes) {
        addEcb(clauseIndex, *probe, enablingIndex);
        count++;
      }
    }
  }
  programs_.push_back(std::move(program));
  if (matched) *matched = count;
  return {};
}

namespace {

// The principal buffers: one ring buffer of `bufsize` bytes per possible
// CPU, as DTrace sizes them (a power of two: see docs/DIFFERENCES.md).
// With bufresize=auto (the default), as DTrace's kernel does, a size that
// cannot be allocated is halved until one can; the size granted goes back
// into `bufsize`, where dtrace(1M) finds it to report the lowering. As
// DTrace's kernel bounds the memory its buffers take, an automatic size
// stays within a sixteenth of physical memory (a 1g ring takes a quarter of
// a second to create, 2g several). With bufresize=manual the size is taken
// or refused.
Result<bpf::CpuRings> createPrincipalBuffers(OptionTable& options) {
  constexpr uint64_t kPageSize = 4096;
  constexpr uint64_t kLargestRing = uint64_t{1} << 31;  // a power of two in a u32
  const int cpus = bpf::Map::possibleCpus();
  const uint64_t bufsize = options.size("bufsize");
  uint64_t ringSize = nextPowerOfTwo(std::max<uint64_t>(bufsize, kPageSize));
  const bool autoResize = options.text("bufresize") != "manual";
  if (!autoResize && ringSize > kLargestRing) {
    return makeError("cannot create principal buffer: bufsize exceeds the largest ring (2g)");
  }
  if (autoResize) {
    long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
    uint64_t limit = kLargestRing;
    if (pages > 0 && pageSize > 0) {
      const uint64_t memory = static_cast<uint64_t>(pages) * static_cast<uint64_t>(pageSize);
      limit = std::min(limit, memory / 16 / static_cast<uint64_t>(std::max(cpus, 1)));
    }
    while (ringSize > kPageSize && ringSize > limit) ringSize >>= 1;
  }
  for (;;) {
    auto rings = bpf::CpuRings::create(cpus, static_cast<uint32_t>(ringSize));
    if (rings) {
      if (ringSize < bufsize) (void)options.set("bufsize", std::to_string(ringSize));
      return rings;
    }
    if (!autoResize || ringSize <= kPageSize) {
      return makeError("cannot create principal buffer: " + rings.error().message);
    }
    ringSize >>= 1;
  }
}

// Hash maps allocate their elements as they are stored, but `size` bytes
// of them (`perEntry` each, times `copies` for one per CPU) bound how many
// there may be. As DTrace's kernel lowers an aggsize or dynvarsize it
// cannot allocate (bufresize=auto), a size whose elements would take more
// than a sixteenth of physical memory, or that the kernel refuses (at most
// 2^27 buckets), is halved until the map can be created; `size` becomes
// the size granted. With bufresize=manual the size is taken or refused.
Result<bpf::Map> createSizedHash(const char* name, uint32_t keySize, uint32_t valueSize,
                                 uint64_t& size, uint64_t perEntry, uint64_t copies,
                                 uint64_t minEntries, bool autoResize) {
  auto entries = [&] {
    return std::clamp<uint64_t>(size / perEntry * copies, minEntries, UINT32_MAX);
  };
  if (autoResize) {
    long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
    if (pages > 0 && pageSize > 0) {
      const uint64_t limit = static_cast<uint64_t>(pages) * static_cast<uint64_t>(pageSize) / 16;
      while (size > perEntry && entries() * perEntry > limit) size >>= 1;
    }
  }
  for (;;) {
    auto map = bpf::Map::create(BPF_MAP_TYPE_HASH, name, keySize, valueSize,
                                static_cast<uint32_t>(entries()), BPF_F_NO_PREALLOC);
    if (map || !autoResize || entries() <= minEntries) return map;
    size >>= 1;
  }
}

}  // namespace

Result<void> Session::createMaps() {
  maps_ = std::make_unique<Maps>();
  auto globals =
      bpf::Map::create(BPF_MAP_TYPE_ARRAY, "dt_globals", 4, layout_.globalsSize, 1, BPF_F_MMAPABLE);
  if (!globals) return makeError("cannot create globals map: " + globals.error().message);
  maps_->globals.emplace(std::move(*globals));
  auto mapped = maps_->globals->mmapValue();
  if (!mapped) return makeError("cannot map globals: " + mapped.error().message);
  maps_->globalsValue = static_cast<uint64_t*>(*mapped);

  auto scratch = bpf::Map::create(BPF_MAP_TYPE_PERCPU_ARRAY, "dt_scratch", 4,
                                  (layout_.scratchSize + 7) / 8 * 8, 1);
  if (!scratch) return makeError("cannot create scratch map: " + scratch.error().message);
  maps_->scratch.emplace(std::move(*scratch));

  auto counters =
      bpf::Map::create(BPF_MAP_TYPE_PERCPU_ARRAY, "dt_counters", 4, sizeof(ir::Counters), 1);
  if (!counters) return makeError("cannot create counters map: " + counters.error().message);
  maps_->counters.emplace(std::move(*counters));

  auto principal = createPrincipalBuffers(options_);
  if (!principal) return principal.error();
  maps_->principal.emplace(std::move(*principal));

  if (layout_.speculations > 0) {
    auto usage = bpf::Map::create(BPF_MAP_TYPE_PERCPU_ARRAY, "dt_spec_usage", 4,
                                  sizeof(ir::SpeculationUsage), layout_.speculations);
    if (!usage) return makeError("cannot create speculation map: " + usage.error().message);
    maps_->speculationUsage.emplace(std::move(*usage));
  }

  // Entries are allocated as they are first used; `aggsize` (per CPU, as
  // in DTrace) bounds how many there may be, and a full map counts drops.
  const bool autoResize = options_.text("bufresize") != "manual";
  const uint64_t aggsize = options_.size("aggsize");
  layout_.aggregationBytesPerCpu = aggsize;
  uint32_t largestValue = 8;
  for (ir::Aggregation& agg : layout_.aggregations) {
    const uint32_t mapKey = agg.keySize + ir::kAggregationCpuSlot;
    const uint64_t perEntry = mapKey + agg.valueSize() + kHashEntryOverhead;
    // As DTrace refuses an aggregation buffer that cannot hold one record.
    if (aggsize < agg.recordSize() + 8 * ir::kAggregationGenerationWords) {
      return makeError("Enabling exceeds size of buffer");
    }
    const uint64_t cpus = static_cast<uint64_t>(bpf::Map::possibleCpus());
    uint64_t size = aggsize;
    auto map =
        createSizedHash("dt_agg", mapKey, agg.valueSize(), size, perEntry, cpus, 1, autoResize);
    if (!map) return makeError("cannot create aggregation map: " + map.error().message);
    agg.maxEntries =
        static_cast<uint32_t>(std::clamp<uint64_t>(size / perEntry * cpus, 1, UINT32_MAX));
    if (size < options_.size("aggsize")) (void)options_.set("aggsize", std::to_string(size));
    layout_.aggregationBytesPerCpu = std::min(layout_.aggregationBytesPerCpu, size);
    maps_->aggregations.push_back(std::move(*map));
    largestValue = std::max(largestValue, agg.valueSize());
    // Generation 1 is the first: an entry made from the zero value
    // (generation 0) is always brought to the current one before use.
    maps_->globalsValue[agg.generationOffset / 8] = 1;
  }
  // The consumer reads the aggregations layOut() gave the program: they
  // hold as many entries as their maps were granted.
  for (size_t i = 0; i < layout_.aggregations.size(); i++) {
    ir_.aggregations.at(i).maxEntries = layout_.aggregations[i].maxEntries;
  }
  if (!layout_.aggregations.empty()) {
    auto zero = bpf::Map::create(BPF_MAP_TYPE_ARRAY, "dt_aggzero", 4, largestValue, 1);
    if (!zero) return makeError("cannot create aggregation map: " + zero.error().message);
    maps_->aggregationZero.emplace(std::move(*zero));
  }
  // Each dynamic variable gets a map of up to `dynvarsize` bytes of
  // elements, allocated as elements are stored.
  // 0 is a size too: as few elements as a map may have.
  const uint64_t dynvarsize = options_.size("dynvarsize");
  for (const codegen::DynamicLayout& d : layout_.dynamics) {
    const uint64_t perEntry = d.keySize + d.valueSize + kHashEntryOverhead;
    uint64_t size = dynvarsize;
    auto map =
        createSizedHash("dt_dynvar", d.keySize, d.valueSize, size, perEntry, 1, 64, autoResize);
    if (!map) return makeError("cannot create dynamic variable map: " + map.error().message);
    if (size < options_.size("dynvarsize")) (void)options_.set("dynvarsize", std::to_string(size));
    maps_->dynamics.push_back(std::move(*map));
  }
  // Programs that would use more maps than the kernel allows one program
  // reach these through arrays of maps (codegen/map_sharing.h). A map
  // keeps its own size in its array: only key and value sizes must agree.
  for (const codegen::MapArray& array : layout_.mapArrays) {
    const std::vector<bpf::Map>& members =
        array.kind == codegen::MapKind::Aggregation ? maps_->aggregations : maps_->dynamics;
    auto outer = bpf::Map::createArrayOfMaps("dt_maps", members.at(array.members.front()).fd(),
                                             static_cast<uint32_t>(array.members.size()));
    if (!outer) return makeError("cannot create map array: " + outer.error().message);
    for (uint32_t slot = 0; slot < array.members.size(); slot++) {
      const uint32_t fd = static_cast<uint32_t>(members.at(array.members[slot]).fd());
      if (auto r = outer->update(&slot, &fd); !r) {
        return makeError("cannot fill map array: " + r.error().message);
      }
    }
    maps_->mapArrays.push_back(std::move(*outer));
  }
  return {};
}

void Session::referToMaps(codegen::MapFds& fds) const {
  auto refer = [this](const codegen::MapPlace& place, const bpf::Map& own) {
    if (!place.shared()) return codegen::MapRef{own.fd()};
    return codegen::MapRef{maps_->mapArrays.at(place.array).fd(), static_cast<int32_t>(place.slot)};
  };
  for (size_t i = 0; i < maps_->aggregations.size(); i++) {
    fds.aggregations.push_back(refer(layout_.aggregationPlaces.at(i), maps_->aggregations[i]));
  }
  for (size_t i = 0; i < maps_->dynamics.size(); i++) {
    fds.dynamics.push_back(refer(layout_.dynamics.at(i).place, maps_->dynamics[i]));
  }
}

// Every probe's program runs its clauses and ERROR's (inline, at a fault).
// Probes found later in a process (extendToProcess) may run the clauses
// of any descriptions that can match there together.
codegen::ProgramClauses Session::programClauses() const {
  std::vector<size_t> errorClauses;
  for (const ProbeEnabling& e : enablings_) {
    if (!isErrorProbe(*e.probe)) continue;
    for (const auto& [clauseIndex, epid] : e.clauses) errorClauses.push_back(clauseIndex);
  }
  std::set<std::vector<size_t>> programs;
  auto add = [&](std::vector<size_t> clauses) {
    clauses.insert(clauses.end(), errorClauses.begin(), errorClauses.end());
    std::sort(clauses.begin(), clauses.end());
    clauses.erase(std::unique(clauses.begin(), clauses.end()), clauses.end());
    programs.insert(std::move(clauses));
  };
  for (const ProbeEnabling& e : enablings_) {
    if (isErrorProbe(*e.probe)) continue;
    std::vector<size_t> clauses;
    for (const auto& [clauseIndex, epid] : e.clauses) clauses.push_back(clauseIndex);
    add(std::move(clauses));
  }
  std::vector<size_t> inProcesses;
  for (const RetainedSpec& r : retainedSpecs_) {
    if (r.inProcesses) inProcesses.push_back(r.clauseIndex);
  }
  if (!inProcesses.empty()) add(std::move(inProcesses));
  return {programs.begin(), programs.end()};
}

constexpr uint32_t kMaxScratchSize = 32 * 1024;

Result<void> Session::layOut() {
  // dtrace_state_go() allocates nspec speculations first: none (a zero
  // allocation) or more than INT_MAX fails with ENOMEM.
  const uint64_t nspec = options_.value("nspec");
  if (nspec == 0 || nspec > INT_MAX) return makeError("Not enough space");
  const codegen::SpeculationLimits speculations{static_cast<uint32_t>(nspec),
                                                options_.size("specsize")};
  // Every program has room for two strings in its scratch space: a larger
  // strsize cannot fit (nor be laid out in 32-bit offsets).
  if (types().strsize() > kMaxScratchSize / 2) {
    return makeError("strsize of " + std::to_string(types().strsize()) +
                     " bytes exceeds what scratch space holds (two strings in " +
                     std::to_string(kMaxScratchSize) + " bytes per CPU)");
  }
  // alloca() space is laid out twice over (see computeLayout): at most
  // what fits a per-CPU value beside everything else.
  const uint64_t scratchsize = options_.size("scratchsize");
  if (scratchsize > kMaxScratchSize / 2) {
    return makeError("scratchsize of " + std::to_string(scratchsize) +
                     " bytes exceeds what scratch space holds (" +
                     std::to_string(kMaxScratchSize / 2) + " bytes per CPU)");
  }
  layout_ =
      codegen::computeLayout(clauses_, symbols_, config_.quiet, types().stringBufferSize(),
                             speculations, static_cast<uint32_t>(scratchsize), programClauses());
  // As dtrace_go() refuses them (EDT_DESTRUCTIVE), before anything is attached.
  if (layout_.destructive && !options_.flag("destructive")) {
    return makeError("Destructive actions not allowed");
  }
  // A per-CPU map value (and a BPF instruction's offset) reaches 32 KiB.
  if (layout_.scratchSize > kMaxScratchSize) {
    return makeError("scratch space of " + std::to_string(layout_.scratchSize) +
                     " bytes per CPU exceeds the limit of " + std::to_string(kMaxScratchSize) +
                     ": lower strsize (now " + std::to_string(types().strsize()) +
                     "), scratchsize (now " + std::to_string(scratchsize) +
                     ") or the size of clause-local variables");
  }
  if (options_.text("bufpolicy") == "fill") {
    // As DTrace keeps room for END in each CPU's fill buffer.
    uint64_t endRecords = 0;
    for (const ProbeEnabling& e : enablings_) {
      if (e.probe->provider != "dtrace" || e.probe->name != "END") continue;
      for (const auto& [clauseIndex, epid] : e.clauses) {
        const codegen::ClauseLayout& cl = layout_.clauses[clauseIndex];
        if (cl.recordsData) endRecords += sizeof(ir::RecordHeader) + cl.dataSize;
      }
    }
    const uint64_t bufsize = options_.size("bufsize");
    if (endRecords >= bufsize) return makeError("Enabling exceeds size of buffer");
    layout_.fillLimit = bufsize - endRecords;
  }
  // dtrace_state_go(): a buffer the enabling needs, sized under 8 bytes,
  // fails with ENOSPC; bufsize is raised when aggregations need it as
  // scratch.
  {
    constexpr uint64_t kSmallest = sizeof(uint64_t);
    const bool aggregates = !layout_.aggregations.empty();
    const uint64_t aggsize = options_.size("aggsize");
    const bool bufferRaised = aggregates && aggsize != 0;
    if ((!enablings_.empty() && !bufferRaised && options_.size("bufsize") < kSmallest) ||
        (layout_.speculations > 0 && options_.size("specsize") < kSmallest) ||
        (aggregates && aggsize < kSmallest)) {
      return makeError("Enabling exceeds size of buffer");
    }
  }
  // Records ordered across CPUs by time carry it (consume::TemporalOrder).
  layout_.recordTimestamps = options_.flag("temporal") || options_.text("bufpolicy") == "ring";
  if (options_.isSet("cpu")) layout_.tracingCpu = static_cast<uint32_t>(options_.value("cpu"));
  // stackdepth and ustackdepth count at most maxframes (Oracle's option),
  // and never more than the kernel unwinds.
  layout_.stackDepthLimit = std::min(stackOptions().maxFrames, kernelMaxFrames());
  for (ir::Ecb& ecb : ir_.ecbs) completeEcb(ecb);
  ir_.aggregations = layout_.aggregations;
  ir_.formats = layout_.formats;
  ir_.types = layout_.types;
  // ERROR has no program of its own: its clauses run inline where a fault
  // happens, so they are found first.
  for (ProbeEnabling& e : enablings_) {
    if (!isErrorProbe(*e.probe)) continue;
    if (auto r = catalog_.describeArgs(*e.probe); !r) return r;
    errorEnabling_ = &e;
  }
  return {};
}

Result<void> Session::load() {
  if (auto r = layOut(); !r) return r;
  // dtrace_state_go(): the status rate is at most dtrace_statusrate_max
  // (10 s), the cleaning rate within 200 us and 60 s (0 meaning 60 s);
  // dtrace(1M) reports a rate changed so.
  constexpr uint64_t kSecond = 1000000000;
  if (options_.isSet("statusrate") && options_.timeNs("statusrate") > 10 * kSecond) {
    (void)options_.set("statusrate", "10s");
  }
  if (const uint64_t clean = options_.timeNs("cleanrate"); clean == 0 || clean > 60 * kSecond) {
    (void)options_.set("cleanrate", "60s");
  } else if (clean < 200000) {
    (void)options_.set("cleanrate", "200us");
  }
  if (layout_.tracingCpu) {
    const std::vector<int> online = onlineCpus();
    if (std::find(online.begin(), online.end(), static_cast<int>(*layout_.tracingCpu)) ==
        online.end()) {
      return makeError("CPU " + std::to_string(*layout_.tracingCpu) + " is not online");
    }
    catalog_.setTracingCpu(*layout_.tracingCpu);
  }
  if (auto r = createMaps(); !r) return r;
  std::vector<ProbeEnabling*> all;
  for (ProbeEnabling& e : enablings_) {
    if (&e != errorEnabling_) all.push_back(&e);
  }
  return loadPrograms(all);
}

void Session::showVariableTables() {
  if (!layOut()) return;
  for (size_t i = 0; i < clauses_.size(); i++) {
    const ast::ProbeClause& clause = *clauses_[i];
    const std::string table = formatVariableTable(clause, symbols_, layout_);
    if (table.empty()) continue;
    std::string probes;
    for (const ast::ProbeSpec& p : clause.probes) probes += (probes.empty() ? "" : ", ") + p.text;
    std::fprintf(stderr, "\nVariables of clause %zu (%s, line %u):\n%s", i, probes.c_str(),
                 clause.loc.line, table.c_str());
  }
}

Result<size_t> Session::generateUnloaded(size_t maxPrograms, bool listPrograms) {
  const bool showProgram = std::exchange(config_.showProgram, listPrograms);
  if (auto r = layOut(); !r) return r.error();
  // Descriptors no map has: nothing generated here reaches the kernel.
  int next = 1000;
  codegen::MapFds fds;
  fds.globals = next++;
  fds.scratch = next++;
  fds.counters = next++;
  fds.cpuRings = next++;
  fds.ringbufWakeBytes = (4 << 20) / 4;
  if (layout_.speculations > 0) fds.speculationUsage = next++;
  std::vector<int> arrays;
  for (size_t i = 0; i < layout_.mapArrays.size(); i++) arrays.push_back(next++);
  auto refer = [&](const codegen::MapPlace& place) {
    if (!place.shared()) return codegen::MapRef{next++};
    return codegen::MapRef{arrays.at(place.array), static_cast<int32_t>(place.slot)};
  };
  for (const codegen::MapPlace& place : layout_.aggregationPlaces) {
    fds.aggregations.push_back(refer(place));
  }
  if (!layout_.aggregations.empty()) fds.aggregationZero = next++;
  for (const codegen::DynamicLayout& d : layout_.dynamics) fds.dynamics.push_back(refer(d.place));
  size_t instructions = 0, programs = 0;
  for (ProbeEnabling& e : enablings_) {
    if (&e == errorEnabling_) continue;
    if (programs++ == maxPrograms) break;
    if (!e.probe->argsDescribed) {
      if (auto r = catalog_.describeArgs(*e.probe); !r) return r.error();
    }
    codegen::MapFds programFds = fds;
    if (e.probe->owner && e.probe->owner->sharesPrograms()) programFds.probeTable = next;
    auto insns = emitProgram(e, programFds);
    if (!insns) {
      config_.showProgram = showProgram;
      return insns.error();
    }
    instructions += insns->size();
  }
  config_.showProgram = showProgram;
  return instructions;
}

// Probes of a provider that shares programs, read alike and running the
// same clauses, get one program between them (thousands of pid probes
// would otherwise take as many programs to load); others one each.
Result<void> Session::loadPrograms(const std::vector<ProbeEnabling*>& enablings) {
  using GroupKey = std::tuple<const providers::Provider*, std::string, std::vector<size_t>>;
  std::map<GroupKey, std::vector<ProbeEnabling*>> groups;
  for (ProbeEnabling* e : enablings) {
    const providers::Provider* owner = e->probe->owner;
    if (!owner || !owner->sharesPrograms()) {
      ProbeEnabling* one[] = {e};
      if (auto r = loadProgram(one); !r) return r;
      continue;
    }
    std::vector<size_t> clauseIndexes;
    for (const auto& [clauseIndex, epid] : e->clauses) clauseIndexes.push_back(clauseIndex);
    groups[{owner, e->probe->argumentsKey, std::move(clauseIndexes)}].push_back(e);
  }
  for (auto& [key, group] : groups) {
    if (auto r = loadProgram(group); !r) return r;
  }
  return {};
}

void Session::completeEcb(ir::Ecb& ecb) const {
  const codegen::ClauseLayout& cl = layout_.clauses.at(ecb.clauseIndex);
  ecb.actions = cl.orderedActions;
  ecb.dataSize = cl.recordsData ? cl.dataSize : 0;
  ecb.hasActionMask = cl.hasActionMask;
}

// A process mapped new objects (a library it dlopen'd): the descriptions
// that name its providers may match probes there now, which are enabled
// as the ones matched at the start were.
Result<void> Session::extendToProcess(int pid) {
  if (!sym::processExists(pid)) return {};  // gone since it mapped them
  std::map<uint32_t, size_t> enablingIndex;
  for (size_t i = 0; i < enablings_.size(); i++) enablingIndex[enablings_[i].probe->id] = i;
  const size_t enabledBefore = enablings_.size();
  std::vector<ProbeEnabling*> added;
  for (const RetainedSpec& r : retainedSpecs_) {
    auto probes = catalog_.matchInProcess(r.spec, pid);
    if (!probes) return probes.error();
    for (const providers::Probe* probe : *probes) {
      if (probe->attachKind != providers::AttachKind::Uprobe) continue;
      if (probe->targetPid != pid && probe->targetPid != -1) continue;
      auto known = enablingIndex.find(probe->id);
      if (known != enablingIndex.end() && known->second < enabledBefore) continue;
      ProbeEnabling& e = addEcb(r.clauseIndex, *probe, enablingIndex);
      completeEcb(ir_.ecbs.back());
      if (std::find(added.begin(), added.end(), &e) == added.end()) added.push_back(&e);
    }
  }
  for (ProbeEnabling* e : added) {
    if (!e->probe->argsDescribed) {
      if (auto r = catalog_.describeArgs(*e->probe); !r) return r;
    }
  }
  return loadPrograms(added);
}

Result<int> Session::createProbeTable(std::span<ProbeEnabling* const> group) {
  const codegen::ProbeTableEntry layout(static_cast<uint32_t>(group.front()->clauses.size()));
  auto table = bpf::Map::create(BPF_MAP_TYPE_ARRAY, "dt_probes", 4, layout.size(),
                                static_cast<uint32_t>(group.size()));
  if (!table) return makeError("cannot create probe table: " + table.error().message);
  std::vector<uint8_t> entry(layout.size());
  auto put = [&](uint32_t at, const std::string& text, uint32_t size) {
    const size_t n = std::min<size_t>(text.size(), size - 1);
    std::memcpy(entry.data() + at, text.data(), n);
  };
  for (uint32_t i = 0; i < group.size(); i++) {
    std::fill(entry.begin(), entry.end(), 0);
    const providers::Probe& p = *group[i]->probe;
    std::memcpy(entry.data() + codegen::ProbeTableEntry::idOffset(), &p.id, 4);
    for (uint32_t k = 0; k < group[i]->clauses.size(); k++) {
      std::memcpy(entry.data() + layout.epidOffset(k), &group[i]->clauses[k].second, 4);
    }
    put(layout.moduleOffset(), p.module, codegen::ProbeTableEntry::kModuleSize);
    put(layout.functionOffset(), p.function, codegen::ProbeTableEntry::kFunctionSize);
    put(layout.nameOffset(), p.name, codegen::ProbeTableEntry::kNameSize);
    if (auto r = table->update(&i, entry.data()); !r) {
      return makeError("cannot fill probe table: " + r.error().message);
    }
  }
  maps_->probeTables.push_back(std::move(*table));
  return maps_->probeTables.back().fd();
}

Result<std::vector<bpf::Insn>> Session::emitProgram(const ProbeEnabling& enabling,
                                                    const codegen::MapFds& fds) {
  const providers::Probe& probe = *enabling.probe;
  Activity expected = probe.provider == "dtrace" && probe.name == "BEGIN" ? Activity::Warmup
                      : probe.provider == "dtrace" && probe.name == "END" ? Activity::Cooldown
                                                                          : Activity::Active;
  auto enabledClauses = [this](const ProbeEnabling& e) {
    std::vector<codegen::EnabledClause> clauses;
    for (auto [clauseIndex, epid] : e.clauses) {
      clauses.push_back({&layout_.clauses.at(clauseIndex), epid});
    }
    return clauses;
  };
  codegen::ProgramEmitter emitter(probe, expected, layout_, fds, types(),
                                  [](const char* type, const char* member) {
                                    return types::KernelBtf::instance().memberOffset(type, member);
                                  });
  if (errorEnabling_)
    emitter.setErrorClauses(*errorEnabling_->probe, enabledClauses(*errorEnabling_));
  auto insns = emitter.emit(enabledClauses(enabling));
  if (!insns) {
    return makeError("failed to compile program for " + fullName(probe) + ": " +
                     insns.error().message);
  }
  if (config_.showProgram) {
    // Each clause under the description it matched this probe by.
    std::vector<ListedClause> listed;
    for (const auto& [clauseIndex, epid] : enabling.clauses) {
      ListedClause c{"", clauseIndex};
      for (const RetainedSpec& r : retainedSpecs_) {
        if (r.clauseIndex == clauseIndex && specMatches(r.spec, probe)) {
          c.description = fullDescription(r.spec);
          break;
        }
      }
      listed.push_back(std::move(c));
    }
    const std::string heading = fullName(probe) + " (probe ID " + std::to_string(probe.id) + ")";
    std::fputs(formatProgramListing(heading, *insns, emitter.clauseStarts(), listed).c_str(),
               stderr);
  }
  return insns;
}

Result<void> Session::loadProgram(std::span<ProbeEnabling* const> group) {
  ProbeEnabling& enabling = *group.front();
  const providers::Probe& probe = *enabling.probe;
  const bool shared = probe.owner && probe.owner->sharesPrograms();
  // BEGIN, END and ERROR run in the consumer's own thread: their programs
  // are run directly (BPF_PROG_RUN), in order with everything else.
  bool firedByConsumer = probe.attachKind == providers::AttachKind::Consumer;
  if (!probe.argsDescribed) {
    if (auto r = catalog_.describeArgs(probe); !r) return r;
  }
  const providers::Probe& probeView = probe;
  codegen::MapFds fds;
  fds.globals = maps_->globals->fd();
  fds.scratch = maps_->scratch->fd();
  fds.counters = maps_->counters->fd();
  fds.cpuRings = maps_->principal->arrayFd();
  fds.ringbufWakeBytes = maps_->principal->ringSize() / 4;
  if (maps_->speculationUsage) fds.speculationUsage = maps_->speculationUsage->fd();
  referToMaps(fds);
  if (maps_->aggregationZero) fds.aggregationZero = maps_->aggregationZero->fd();
  if (shared) {
    Result<int> table = createProbeTable(group);
    if (!table) return table.error();
    fds.probeTable = *table;
  }

  const std::string description = fullName(probe);
  auto insns = emitProgram(enabling, fds);
  if (!insns) return insns.error();
  std::string log;
  // -x bpflog (Oracle's): every program's verifier log, each line marked "BPF: ".
  const bool bpflog = options_.flag("bpflog");
  auto program = bpf::Program::load(shared ? probe.owner->programKind(probe) : probeView.progType,
                                    "dt_" + std::to_string(probe.id), *insns, &log,
                                    config_.showProgram || bpflog);
  if (!program) {
    return makeError("failed to enable " + description + ": " + program.error().message);
  }
  if (bpflog) {
    for (size_t at = 0; at < log.size();) {
      const size_t end = std::min(log.find('\n', at), log.size());
      std::fprintf(stderr, "BPF: %.*s\n", static_cast<int>(end - at), log.data() + at);
      at = end + 1;
    }
  } else if (config_.showProgram && !log.empty()) {
    std::fprintf(stderr, "%s\n", log.c_str());
  }
  loaded_.push_back(std::move(*program));
  const bpf::Program& loadedProgram = loaded_.back();
  if (firedByConsumer) {
    if (probe.name == "BEGIN") beginProgram_ = &loadedProgram;
    if (probe.name == "END") endProgram_ = &loadedProgram;
    return {};
  }
  std::vector<const providers::Probe*> probes;
  for (const ProbeEnabling* e : group) probes.push_back(e->probe);
  auto links = shared ? probe.owner->attachGroup(probes, loadedProgram.fd())
                      : catalog_.attach(probe, loadedProgram.fd());
  if (!links) return makeError("failed to enable " + description + ": " + links.error().message);
  for (auto& l : *links) links_.push_back(std::move(l));
  for (const std::string& w : probe.owner->takeWarnings()) {
    std::fprintf(stderr, "dtrace: %s: %s\n", description.c_str(), w.c_str());
  }
  return {};
}

// Drops not reported yet: per CPU for the principal buffer and the
// aggregations, in total for dynamic variables and speculations.
void Session::reportCounters(consume::Consumer& consumer) {
  int ncpu = bpf::Map::possibleCpus();
  std::vector<ir::Counters> values(ncpu);
  uint32_t key = 0;
  if (!maps_->counters->lookup(&key, values.data())) return;
  reportedDrops_.resize(2 * ncpu, 0);
  // Losses DTrace reports in total, not per CPU. Speculative drops are
  // counted by the consumer, once their speculation is committed.
  auto sum = [&](uint64_t ir::Counters::*counter) {
    uint64_t total = 0;
    for (int cpu = 0; cpu < ncpu; cpu++) total += values[cpu].*counter;
    return total;
  };
  const std::pair<uint64_t, const char*> totals[] = {
      {sum(&ir::Counters::dynamicDrops), "dynamic"},
      {consumer.speculativeDrops(), "speculation"},
      {sum(&ir::Counters::speculationsUnavailable), "speculation-unavailable"},
  };
  reportedTotals_.resize(std::size(totals), 0);
  for (size_t i = 0; i < std::size(totals); i++) {
    const auto [total, kind] = totals[i];
    if (total > reportedTotals_[i]) {
      consumer.reportDrops(kind, -1, total - reportedTotals_[i], total);
      reportedTotals_[i] = total;
    }
  }
  for (int cpu = 0; cpu < ncpu; cpu++) {
    uint64_t& seenBuffer = reportedDrops_[2 * cpu];
    uint64_t& seenAgg = reportedDrops_[2 * cpu + 1];
    if (values[cpu].bufferDrops > seenBuffer) {
      consumer.reportDrops("principal", cpu, values[cpu].bufferDrops - seenBuffer,
                           values[cpu].bufferDrops);
      seenBuffer = values[cpu].bufferDrops;
    }
    if (values[cpu].aggregationDrops > seenAgg) {
      consumer.reportDrops("aggregation", cpu, values[cpu].aggregationDrops - seenAgg,
                           values[cpu].aggregationDrops);
      seenAgg = values[cpu].aggregationDrops;
    }
  }
}

Result<int> Session::run(std::vector<proc::Target>& targets) {
  uint64_t* globals = maps_->globalsValue;
  timespec real{}, mono{};
  clock_gettime(CLOCK_REALTIME, &real);
  clock_gettime(CLOCK_MONOTONIC, &mono);
  int64_t offset = (real.tv_sec - mono.tv_sec) * 1000000000LL + (real.tv_nsec - mono.tv_nsec);
  globals[ir::kWallClockOffset / 8] = static_cast<uint64_t>(offset);

  // Mappings are followed before BEGIN, so a -c command's exec is seen.
  // Processes whose later objects (dlopen) may hold probes the
  // descriptions name: the targets, and those with pid or USDT probes.
  std::set<int> watchedProcesses;
  for (const proc::Target& t : targets) watchedProcesses.insert(t.pid());
  for (const ProbeEnabling& e : enablings_) {
    if (e.probe->attachKind == providers::AttachKind::Uprobe) {
      watchedProcesses.insert(e.probe->targetPid);
    }
  }
  SessionSymbols symbols(ir_, static_cast<int>(options_.value("stackindent")),
                         targets.empty() ? 0 : targets.front().pid(), !watchedProcesses.empty());
  std::set<int> mappedMore;  // watched processes that mapped code since the last look
  auto noteMapping = [&](const sym::MappingEvent& e) {
    if (e.kind == sym::MappingEvent::Kind::Mapped && e.mapping.executable && e.mapping.isFile() &&
        watchedProcesses.count(e.pid)) {
      mappedMore.insert(e.pid);
    }
  };
  auto extendToMapped = [&] {
    for (int pid : mappedMore) {
      if (auto r = extendToProcess(pid); !r) {
        std::fprintf(stderr, "dtrace: failed to enable probes in pid %d: %s\n", pid,
                     r.error().message.c_str());
      }
    }
    mappedMore.clear();
  };
  if (auto r = symbols.start(); !r) {
    std::fprintf(stderr, "dtrace: %s: addresses of processes that exit early print in hex\n",
                 r.error().message.c_str());
  }
  // Read now, while they cannot exit: running processes and -c commands
  // held at their entry point (exec'd before mapping events were followed).
  for (auto& t : targets) {
    if (!t.created() || t.held()) symbols.notePid(t.pid());
  }
  consume::Consumer consumer(
      ir_, output::makeSink(options_, config_.out, stderr, config_.quiet, config_.commandLine));
  std::vector<int> aggregationFds;
  for (const bpf::Map& m : maps_->aggregations) aggregationFds.push_back(m.fd());
  consume::KernelAggregations aggregations(std::move(aggregationFds), globals);
  // Keys that name functions or modules merge by what they name.
  const consume::SymbolKeys symbolKeys(symbols.user());
  aggregations.setSymbolKeys(&symbolKeys);
  consumer.setAggregationSource(&aggregations);
  consumer.setOptions(&options_);
  consumer.setSymbols(symbols.context());
  consumer.setFlowIndent(options_.isSet("flowindent"));
  consumer.watchExitWord(&globals[ir::kExitOffset / 8]);
  consumer.setSpeculations(layout_.speculations);
  consume::PrincipalBuffers::Order order;
  order.temporal = options_.flag("temporal");
  if (options_.text("bufpolicy") == "ring") order.ringBytes = options_.size("bufsize");
  auto principal = consume::PrincipalBuffers::open(
      maps_->principal->ringFds(), order,
      [&](const void* data, size_t size) { return consumer.handleRecord(data, size); });
  if (!principal) return principal.error();

  sigset_t mask;
  sigemptyset(&mask);
  sigaddset(&mask, SIGINT);
  sigaddset(&mask, SIGTERM);
  sigaddset(&mask, SIGHUP);
  sigaddset(&mask, SIGPIPE);
  sigprocmask(SIG_BLOCK, &mask, nullptr);
  int sigfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);

  auto state = stateRef(globals);
  state.store(static_cast<uint64_t>(Activity::Warmup));
  // BEGIN and END see every argument as 0, as in DTrace.
  const std::array<uint64_t, 6> noArgs{};
  // -x cpu: BEGIN and END run on that CPU, in this thread (so that they see
  // dtrace as the current process) unless it may not move there.
  auto fire = [&](const bpf::Program& program) {
    std::optional<ThreadOnCpu> onTracingCpu;
    if (layout_.tracingCpu) onTracingCpu.emplace(*layout_.tracingCpu);
    return program.run(noArgs, layout_.tracingCpu);
  };
  if (beginProgram_) {
    if (auto r = fire(*beginProgram_); !r) {
      return makeError("BEGIN failed: " + r.error().message);
    }
  }
  uint64_t expected = static_cast<uint64_t>(Activity::Warmup);
  state.compare_exchange_strong(expected, static_cast<uint64_t>(Activity::Active));
  const bool aggregates = !layout_.aggregations.empty();
  // printa() prints the consumer's last snapshot of an aggregation
  // (dtrace_aggregate_snap, before each pass reads the buffers): BEGIN's
  // records see BEGIN's data.
  if (aggregates) {
    if (auto r = consumer.snapAggregations(); !r) return r.error();
  }
  principal->interval();
  consumer.flush();

  for (auto& t : targets) {
    if (t.created()) {
      if (auto r = t.start(); !r) return r.error();
      symbols.notePid(t.pid());  // without mapping events, what it maps first
    }
  }

  int epfd = epoll_create1(EPOLL_CLOEXEC);
  auto watch = [&](int fd, uint64_t tag) {
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.u64 = tag;
    epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev);
  };
  constexpr uint64_t kMappingEvents = UINT64_MAX;
  watch(principal->epollFd(), 0);
  if (sigfd >= 0) watch(sigfd, 1);
  for (size_t i = 0; i < targets.size(); i++) watch(targets[i].exitFd(), 2 + i);
  for (int fd : symbols.pollFds()) watch(fd, kMappingEvents);

  // Records wake the consumer only when a ring is filling up or exit() was
  // called (see ProgramEmitter::wakeFlags); otherwise the buffers are read
  // once per switch interval, and other wake-ups (mapping events) leave
  // them be, so that an interval's records print together.
  // setopt() may change the interval as tracing goes.
  auto after = [&](const char* rate, uint64_t now) {
    const uint64_t interval = std::max<uint64_t>(options_.timeNs(rate), 1000000);
    return interval > UINT64_MAX - now ? UINT64_MAX : now + interval;
  };
  uint64_t nextSwitch = after("switchrate", util::monotonicNs());
  // Each aggrate starts a new aggregation interval: every CPU's aggsize is
  // whole again (codegen::Layout::aggregationBytesPerCpu).
  uint64_t nextAggregation = aggregates ? after("aggrate", util::monotonicNs()) : UINT64_MAX;
  // The consumer's snapshots of the aggregations printa() prints: before
  // the first pass that reads the buffers, then before a pass that reads
  // them once aggrate has gone by (dtrace_work: dtrace_aggregate_snap,
  // rate-limited by aggrate, then dtrace_consume).
  uint64_t nextSnapshot = 0;
  // With statusrate set, exit() and a filled buffer end tracing at the next
  // status check, as dtrace(1M) learns of them (dtrace_status()); without
  // it, at once. The probes record nothing meanwhile (Activity::Draining).
  uint64_t nextStatus = options_.isSet("statusrate") ? after("statusrate", util::monotonicNs()) : 0;
  size_t liveTargets = targets.size();
  bool done = consumer.exitRequested();
  while (!done) {
    epoll_event events[8];
    const uint64_t now = util::monotonicNs();
    const uint64_t wake =
        std::min({nextSwitch, nextAggregation, nextStatus != 0 ? nextStatus : UINT64_MAX});
    const int timeoutMs =
        now >= wake ? 0
                    : static_cast<int>(std::min<uint64_t>((wake - now + 999999) / 1000000, 60000));
    int n = epoll_wait(epfd, events, 8, timeoutMs);
    if (n < 0 && errno != EINTR) break;
    if (aggregates && util::monotonicNs() >= nextAggregation) {
      std::atomic_ref<uint64_t>(globals[layout_.aggregationEpochOffset / 8]).fetch_add(1);
      nextAggregation = after("aggrate", util::monotonicNs());
    }
    symbols.refresh(noteMapping);  // the mappings of what the records name
    extendToMapped();
    const bool ringsWoke = std::any_of(events, events + std::max(n, 0),
                                       [](const epoll_event& e) { return e.data.u64 == 0; });
    if (ringsWoke || util::monotonicNs() >= nextSwitch) {
      // A pass the rings brought forward (exit(), a ring filling up) stands
      // for the switchrate pass it replaces.
      if (aggregates && std::max(util::monotonicNs(), nextSwitch) >= nextSnapshot) {
        if (auto r = consumer.snapAggregations(); !r) return r.error();
        nextSnapshot = after("aggrate", util::monotonicNs());
      }
      principal->interval();
      consumer.flush();
      nextSwitch = after("switchrate", util::monotonicNs());
    }
    if (consumer.writeError() != 0) done = true;  // as dtrace(1M) aborts processing
    for (int i = 0; i < n; i++) {
      uint64_t tag = events[i].data.u64;
      if (tag == kMappingEvents) continue;  // taken in above
      if (tag == 1) {
        signalfd_siginfo si;
        while (read(sigfd, &si, sizeof si) == sizeof si) done = true;
      } else if (tag >= 2) {
        proc::Target& t = targets[tag - 2];
        if (t.exited()) {
          epoll_ctl(epfd, EPOLL_CTL_DEL, t.exitFd(), nullptr);
          if (!config_.quiet) std::fprintf(stderr, "dtrace: %s\n", proc::exitNotice(t).c_str());
          if (--liveTargets == 0) done = true;
        }
      }
    }
    reportCounters(consumer);
    if (nextStatus != 0) {
      if (util::monotonicNs() < nextStatus) continue;
      nextStatus = options_.isSet("statusrate") ? after("statusrate", util::monotonicNs()) : 0;
    }
    // exit(), or a fill buffer that filled up (bufpolicy=fill).
    if (consumer.exitRequested() || state.load() == static_cast<uint64_t>(Activity::Draining)) {
      done = true;
    }
  }

  state.store(static_cast<uint64_t>(Activity::Cooldown));
  symbols.refresh();
  // The final snapshots: the records still unread see what the probes
  // left, END's records what END left too.
  if (aggregates) (void)consumer.snapAggregations();
  principal->interval();
  if (endProgram_) (void)fire(*endProgram_);
  if (aggregates) (void)consumer.snapAggregations();
  principal->finish();
  state.store(static_cast<uint64_t>(Activity::Stopped));
  bpf::detachAll(links_);  // before the (possibly long) aggregation printing
  reportCounters(consumer);

  symbols.refresh();  // mappings made up to the end, for the keys about to print
  auto writeFailed = [&] {
    return makeError("failed to write to " + config_.outName + ": " +
                     std::strerror(consumer.writeError()));
  };
  if (consumer.writeError() != 0) return writeFailed();
  if (auto r = consumer.printFinal(); !r) {
    return consumer.writeError() != 0 ? writeFailed() : r.error();
  }
  consumer.flush();
  if (consumer.writeError() != 0) return writeFailed();
  close(epfd);
  if (sigfd >= 0) close(sigfd);
  return consumer.exitStatus();
}

}  // namespace dtrace::driver
