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
#include <cstring>
#include <map>
#include <optional>

#include "bpf/disasm.h"
#include "bpf/ringbuf.h"
#include "codegen/emitter.h"
#include "consume/aggregation_reader.h"
#include "consume/consumer.h"
#include "consume/messages.h"
#include "driver/d_library.h"
#include "parse/parser.h"
#include "proc/target.h"
#include "providers/probe_args.h"
#include "types/kernel_btf.h"

namespace dtrace::driver {

using codegen::Activity;

struct Session::Maps {
  std::optional<bpf::Map> globals, scratch, counters, ringbuf;
  std::vector<bpf::Map> aggregations;
  std::vector<bpf::Map> dynamics;
  uint64_t* globalsValue = nullptr;  // mmapped: the state is only touched through atomic_ref
};

namespace {

// Kernel bookkeeping per hash-map element (struct htab_elem), for sizing.
constexpr uint64_t kHashEntryOverhead = 48;

uint64_t nextPowerOfTwo(uint64_t v) {
  uint64_t p = 1;
  while (p < v) p <<= 1;
  return p;
}

// "$target" and friends inside probe descriptions are replaced textually,
// as DTrace's lexer does (pid$target::malloc:entry).
std::string expandMacros(const std::string& field, const sema::MacroTable& macros) {
  std::string out;
  for (size_t i = 0; i < field.size(); i++) {
    if (field[i] != '$') {
      out += field[i];
      continue;
    }
    size_t j = i + 1;
    while (j < field.size() && (std::isalnum(static_cast<unsigned char>(field[j])) || field[j] == '_')) j++;
    const std::string* value = macros.find(field.substr(i + 1, j - i - 1));
    if (!value) {
      out += field[i];
      continue;
    }
    out += *value;
    i = j - 1;
  }
  return out;
}

std::string fullDescription(const ast::ProbeSpec& s) {
  return s.provider + ":" + s.module + ":" + s.function + ":" + s.name;
}

bool isErrorProbe(const providers::Probe& p) {
  return p.provider == "dtrace" && p.name == "ERROR";
}

std::atomic_ref<uint64_t> stateRef(uint64_t* globals) {
  return std::atomic_ref<uint64_t>(globals[codegen::kStateOffset / 8]);
}

}  // namespace

Session::Session(SessionConfig config, OptionTable& options)
    : config_(std::move(config)),
      options_(options),
      types_(options.value("strsize") ? static_cast<uint32_t>(options.value("strsize")) : 256) {
  types_.setSource(&kernelTypes_);
}

Session::~Session() = default;

std::string Session::compileError(const SourceUnit& unit, const Diagnostic& d) const {
  if (unit.isScript) {
    return "failed to compile script " + unit.name + ": " +
           formatDiagnostic(d, config_.errtags, true);
  }
  return "invalid probe specifier " + unit.name + ": " + formatDiagnostic(d, config_.errtags, false);
}

// The library units a script needs, each checked once per session; their
// inlines and translators are then visible to every later program.
Result<void> Session::loadLibraries(std::string_view script) {
  for (const LibraryUnit* lib : libraryUnitsFor(script)) {
    if (!loadedLibraries_.insert(lib).second) continue;
    if (auto r = loadLibraries(lib->source); !r) return r;  // units it builds on
    parse::ParseOptions po;
    po.isTypeName = [this](std::string_view n, bool) { return types_.isTypeName(n); };
    parse::ParseResult parsed = parse::parseProgram(lib->source, po);
    SourceUnit unit{true, std::string("/usr/lib/dtrace/") + lib->name, lib->source};
    if (!parsed.diags.empty()) return makeError(compileError(unit, parsed.diags.first()));
    auto program = std::make_unique<ast::Program>(std::move(parsed.program));
    Diagnostics diags;
    sema::Checker checker(types_, symbols_, config_.macros, diags, &definitions_);
    if (!checker.check(*program)) return makeError(compileError(unit, diags.first()));
    programs_.push_back(std::move(program));
  }
  return {};
}

Result<void> Session::compile(const SourceUnit& unit, size_t* matched) {
  if (auto r = loadLibraries(unit.text); !r) return r;
  parse::ParseOptions po;
  po.isTypeName = [this](std::string_view n, bool inClause) {
    if (!inClause || symbols_.findBuiltin(n, types_)) return types_.isLocalTypeName(n);
    return types_.isTypeName(n);
  };
  po.allowBareProbeSpec = !unit.isScript;
  parse::ParseResult parsed = parse::parseProgram(unit.text, po);
  if (!parsed.diags.empty()) return makeError(compileError(unit, parsed.diags.first()));
  auto program = std::make_unique<ast::Program>(std::move(parsed.program));

  for (auto& item : program->items) {
    auto* pragma = std::get_if<ast::Pragma>(&item);
    if (!pragma || pragma->words.empty() || pragma->words[0] != "option") continue;
    for (size_t i = 1; i < pragma->words.size(); i++) {
      const std::string& w = pragma->words[i];
      size_t eq = w.find('=');
      std::string name = w.substr(0, eq);
      std::string value = eq == std::string::npos ? "" : w.substr(eq + 1);
      auto set = options_.set(name, value);
      if (!set) {
        return makeError(compileError(
            unit, {"D_PRAGMA_INVAL", pragma->loc,
                   "failed to set option '" + name + "': " + set.error().message}));
      }
      if (name == "quiet") config_.quiet = true;
      if (name == "errtags") config_.errtags = true;
      if (name == "defaultargs") config_.macros.defaultArgs = true;
    }
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
      for (std::string* f : {&spec.provider, &spec.module, &spec.function, &spec.name}) {
        *f = expandMacros(*f, config_.macros);
      }
      auto probes = catalog_.match(spec);
      if (!probes) {
        return makeError(compileError(unit, {"D_PDESC_INVAL", spec.loc, probes.error().message}));
      }
      if (probes->empty() && !config_.allowZeroMatches) {
        return makeError(compileError(
            unit, {"D_PDESC_ZERO", spec.loc,
                   "probe description " + fullDescription(spec) + " does not match any probes"}));
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
          d.args.push_back({p->args[i].typeName, p->args[i].size, p->args[i].isSigned});
        }
        out.push_back(std::move(d));
      }
      return out;
    }
    providers::ProbeCatalog& catalog;
    MatchMap& matches;
  } clauseArgs(catalog_, matches);

  Diagnostics diags;
  sema::Checker checker(types_, symbols_, config_.macros, diags, &definitions_);
  checker.prepareBuiltins(*program, &clauseArgs);
  if (!checker.check(*program)) return makeError(compileError(unit, diags.first()));

  size_t count = 0;
  std::map<uint32_t, size_t> enablingIndex;
  for (size_t i = 0; i < enablings_.size(); i++) enablingIndex[enablings_[i].probe->id] = i;
  for (auto& item : program->items) {
    auto* clause = std::get_if<ast::ProbeClause>(&item);
    if (!clause) continue;
    size_t clauseIndex = clauses_.size();
    clauses_.push_back(clause);
    for (const Matched& m : matches[clause]) {
      for (const providers::Probe* probe : m.probes) {
        auto [it, added] = enablingIndex.emplace(probe->id, enablings_.size());
        if (added) enablings_.push_back({probe, {}});
        ir::Ecb ecb;
        ecb.epid = static_cast<uint32_t>(ir_.ecbs.size() + 1);
        ecb.probeId = probe->id;
        ecb.clauseIndex = static_cast<uint32_t>(clauseIndex);
        ecb.provider = probe->provider;
        ecb.module = probe->module;
        ecb.function = probe->function;
        ecb.name = probe->name;
        ir_.ecbs.push_back(ecb);
        enablings_[it->second].clauses.push_back({clauseIndex, ecb.epid});
        count++;
      }
    }
  }
  programs_.push_back(std::move(program));
  if (matched) *matched = count;
  return {};
}

Result<void> Session::createMaps() {
  maps_ = std::make_unique<Maps>();
  auto globals = bpf::Map::create(BPF_MAP_TYPE_ARRAY, "dt_globals", 4, layout_.globalsSize, 1,
                                  BPF_F_MMAPABLE);
  if (!globals) return makeError("cannot create globals map: " + globals.error().message);
  maps_->globals.emplace(std::move(*globals));
  auto mapped = maps_->globals->mmapValue();
  if (!mapped) return makeError("cannot map globals: " + mapped.error().message);
  maps_->globalsValue = static_cast<uint64_t*>(*mapped);

  auto scratch = bpf::Map::create(BPF_MAP_TYPE_PERCPU_ARRAY, "dt_scratch", 4,
                                  (layout_.scratchSize + 7) / 8 * 8, 1);
  if (!scratch) return makeError("cannot create scratch map: " + scratch.error().message);
  maps_->scratch.emplace(std::move(*scratch));

  auto counters = bpf::Map::create(BPF_MAP_TYPE_PERCPU_ARRAY, "dt_counters", 4,
                                   sizeof(codegen::Counters), 1);
  if (!counters) return makeError("cannot create counters map: " + counters.error().message);
  maps_->counters.emplace(std::move(*counters));

  uint64_t bufsize = options_.size("bufsize");
  if (bufsize == 0) bufsize = 4 << 20;
  // One ring buffer shared by all CPUs serves as the principal buffer; it
  // is `bufsize` bytes (DTrace sizes one buffer per CPU): see docs/DIFFERENCES.md.
  uint64_t ringSize = nextPowerOfTwo(std::max<uint64_t>(bufsize, 4096));
  auto ringbuf = bpf::Map::create(BPF_MAP_TYPE_RINGBUF, "dt_buffer", 0, 0,
                                  static_cast<uint32_t>(ringSize));
  if (!ringbuf) return makeError("cannot create principal buffer: " + ringbuf.error().message);
  maps_->ringbuf.emplace(std::move(*ringbuf));

  // Entries are allocated as they are first used; `aggsize` (per CPU, as
  // in DTrace) bounds how many there may be, and a full map counts drops.
  uint64_t aggsize = options_.size("aggsize");
  if (aggsize == 0) aggsize = 4 << 20;
  for (ir::Aggregation& agg : layout_.aggregations) {
    const uint32_t mapKey = agg.keySize + ir::kAggregationCpuSlot;
    const uint64_t perEntry = mapKey + sizeof(ir::AggValue) + kHashEntryOverhead;
    agg.maxEntries = static_cast<uint32_t>(std::clamp<uint64_t>(
        aggsize / perEntry * bpf::Map::possibleCpus(), 1024, 1u << 28));
    auto map = bpf::Map::create(BPF_MAP_TYPE_HASH, "dt_agg", mapKey, sizeof(ir::AggValue),
                                agg.maxEntries, BPF_F_NO_PREALLOC);
    if (!map) return makeError("cannot create aggregation map: " + map.error().message);
    maps_->aggregations.push_back(std::move(*map));
  }
  // Each dynamic variable gets a map of up to `dynvarsize` bytes of
  // elements, allocated as elements are stored.
  uint64_t dynvarsize = options_.size("dynvarsize");
  if (dynvarsize == 0) dynvarsize = 1 << 20;
  for (const codegen::DynamicLayout& d : layout_.dynamics) {
    const uint64_t perEntry = d.keySize + d.valueSize + kHashEntryOverhead;
    const uint32_t maxEntries =
        static_cast<uint32_t>(std::clamp<uint64_t>(dynvarsize / perEntry, 64, 1u << 28));
    auto map = bpf::Map::create(BPF_MAP_TYPE_HASH, "dt_dynvar", d.keySize, d.valueSize, maxEntries,
                                BPF_F_NO_PREALLOC);
    if (!map) return makeError("cannot create dynamic variable map: " + map.error().message);
    maps_->dynamics.push_back(std::move(*map));
  }
  return {};
}

constexpr uint32_t kMaxScratchSize = 32 * 1024;

Result<void> Session::load() {
  layout_ = codegen::computeLayout(clauses_, symbols_, config_.quiet, types_.strsize());
  // A per-CPU map value (and a BPF instruction's offset) reaches 32 KiB.
  if (layout_.scratchSize > kMaxScratchSize) {
    return makeError("scratch space of " + std::to_string(layout_.scratchSize) +
                     " bytes per CPU exceeds the limit of " + std::to_string(kMaxScratchSize) +
                     ": lower strsize (now " + std::to_string(types_.strsize()) +
                     ") or the size of clause-local variables");
  }
  for (ir::Ecb& ecb : ir_.ecbs) {
    const codegen::ClauseLayout& cl = layout_.clauses.at(ecb.clauseIndex);
    ecb.actions = cl.orderedActions;
    ecb.dataSize = cl.recordsData ? cl.dataSize : 0;
    ecb.hasActionMask = cl.hasActionMask;
  }
  ir_.aggregations = layout_.aggregations;
  ir_.formats = layout_.formats;

  if (auto r = createMaps(); !r) return r;
  // ERROR has no program of its own: its clauses run inline where a fault
  // happens, so they are found first.
  for (ProbeEnabling& e : enablings_) {
    if (!isErrorProbe(*e.probe)) continue;
    if (auto r = catalog_.describeArgs(*e.probe); !r) return r;
    errorEnabling_ = &e;
  }
  for (ProbeEnabling& e : enablings_) {
    if (&e == errorEnabling_) continue;
    if (auto r = loadProbe(e); !r) return r;
  }
  return {};
}

Result<void> Session::loadProbe(ProbeEnabling& enabling) {
  const providers::Probe& probe = *enabling.probe;
  // BEGIN, END and ERROR run in the consumer's own thread: their programs
  // are run directly (BPF_PROG_RUN), in order with everything else.
  bool firedByConsumer = probe.attachKind == providers::AttachKind::Consumer;
  if (!probe.argsDescribed) {
    if (auto r = catalog_.describeArgs(probe); !r) return r;
  }
  const providers::Probe& probeView = probe;
  Activity expected = probe.provider == "dtrace" && probe.name == "BEGIN"   ? Activity::Warmup
                      : probe.provider == "dtrace" && probe.name == "END"   ? Activity::Cooldown
                                                                             : Activity::Active;
  codegen::MapFds fds;
  fds.globals = maps_->globals->fd();
  fds.scratch = maps_->scratch->fd();
  fds.counters = maps_->counters->fd();
  fds.ringbuf = maps_->ringbuf->fd();
  for (const auto& m : maps_->aggregations) fds.aggregations.push_back(m.fd());
  for (const auto& m : maps_->dynamics) fds.dynamics.push_back(m.fd());

  auto enabledClauses = [this](const ProbeEnabling& e) {
    std::vector<codegen::EnabledClause> clauses;
    for (auto [clauseIndex, epid] : e.clauses) {
      clauses.push_back({&layout_.clauses.at(clauseIndex), epid});
    }
    return clauses;
  };
  codegen::ProgramEmitter emitter(
      probeView, expected, layout_, fds, types_,
      [](const char* type, const char* member) {
        return types::KernelBtf::instance().memberOffset(type, member);
      });
  if (errorEnabling_) emitter.setErrorClauses(*errorEnabling_->probe, enabledClauses(*errorEnabling_));
  const std::vector<codegen::EnabledClause> clauses = enabledClauses(enabling);
  std::string description =
      probe.provider + ":" + probe.module + ":" + probe.function + ":" + probe.name;
  auto insns = emitter.emit(clauses);
  if (!insns) return makeError("failed to compile program for " + description + ": " + insns.error().message);
  if (config_.showProgram) {
    std::fprintf(stderr, "\n%s (probe ID %u): %zu instructions\n%s", description.c_str(), probe.id,
                 insns->size(), bpf::disassemble(*insns).c_str());
  }
  std::string log;
  auto program = bpf::Program::load(probeView.progType, "dt_" + std::to_string(probe.id), *insns,
                                    &log, config_.showProgram);
  if (!program) {
    return makeError("failed to enable " + description + ": " + program.error().message);
  }
  if (config_.showProgram && !log.empty()) std::fprintf(stderr, "%s\n", log.c_str());
  loaded_.push_back(std::move(*program));
  const bpf::Program& loadedProgram = loaded_.back();
  if (firedByConsumer) {
    if (probe.name == "BEGIN") beginProgram_ = &loadedProgram;
    if (probe.name == "END") endProgram_ = &loadedProgram;
    return {};
  }
  auto links = catalog_.attach(probe, loadedProgram.fd());
  if (!links) return makeError("failed to enable " + description + ": " + links.error().message);
  for (auto& l : *links) links_.push_back(std::move(l));
  return {};
}

void Session::reportCounters() {
  int ncpu = bpf::Map::possibleCpus();
  std::vector<codegen::Counters> values(ncpu);
  uint32_t key = 0;
  if (!maps_->counters->lookup(&key, values.data())) return;
  reportedDrops_.resize(2 * ncpu, 0);
  uint64_t dynamicDrops = 0;
  for (int cpu = 0; cpu < ncpu; cpu++) dynamicDrops += values[cpu].dynamicDrops;
  if (dynamicDrops > reportedDynamicDrops_) {
    std::fprintf(stderr, "%s\n",
                 consume::formatDynvarDrops(dynamicDrops - reportedDynamicDrops_).c_str());
    reportedDynamicDrops_ = dynamicDrops;
  }
  for (int cpu = 0; cpu < ncpu; cpu++) {
    uint64_t& seenBuffer = reportedDrops_[2 * cpu];
    uint64_t& seenAgg = reportedDrops_[2 * cpu + 1];
    if (values[cpu].bufferDrops > seenBuffer) {
      std::fprintf(stderr, "%s\n",
                   consume::formatDrops(values[cpu].bufferDrops - seenBuffer, cpu).c_str());
      seenBuffer = values[cpu].bufferDrops;
    }
    if (values[cpu].aggregationDrops > seenAgg) {
      std::fprintf(stderr, "%s\n",
                   consume::formatAggregationDrops(values[cpu].aggregationDrops - seenAgg, cpu)
                       .c_str());
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
  globals[codegen::kWallClockOffset / 8] = static_cast<uint64_t>(offset);

  consume::Consumer consumer(ir_, config_.out, config_.quiet);
  auto ring = bpf::RingBuffer::open(maps_->ringbuf->fd(), [&](const void* data, size_t size) {
    return consumer.handleRecord(data, size);
  });
  if (!ring) return ring.error();

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
  if (beginProgram_) {
    if (auto r = beginProgram_->run(noArgs); !r) {
      return makeError("BEGIN failed: " + r.error().message);
    }
  }
  uint64_t expected = static_cast<uint64_t>(Activity::Warmup);
  state.compare_exchange_strong(expected, static_cast<uint64_t>(Activity::Active));
  (void)ring->consume();
  consumer.flush();

  for (auto& t : targets) {
    if (t.created()) {
      if (auto r = t.start(); !r) return r.error();
    }
  }

  int epfd = epoll_create1(EPOLL_CLOEXEC);
  auto watch = [&](int fd, uint64_t tag) {
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.u64 = tag;
    epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev);
  };
  watch(ring->epollFd(), 0);
  if (sigfd >= 0) watch(sigfd, 1);
  for (size_t i = 0; i < targets.size(); i++) watch(targets[i].exitFd(), 2 + i);

  uint64_t switchNs = options_.timeNs("switchrate");
  int timeoutMs = switchNs ? static_cast<int>(std::max<uint64_t>(switchNs / 1000000, 10)) : 1000;
  size_t liveTargets = targets.size();
  bool done = consumer.exitRequested();
  while (!done) {
    epoll_event events[8];
    int n = epoll_wait(epfd, events, 8, timeoutMs);
    if (n < 0 && errno != EINTR) break;
    (void)ring->consume();
    consumer.flush();
    for (int i = 0; i < n; i++) {
      uint64_t tag = events[i].data.u64;
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
    reportCounters();
    if (consumer.exitRequested()) done = true;
  }

  state.store(static_cast<uint64_t>(Activity::Cooldown));
  (void)ring->consume();
  if (endProgram_) (void)endProgram_->run(noArgs);
  (void)ring->consume();
  state.store(static_cast<uint64_t>(Activity::Stopped));
  links_.clear();  // detach before the (possibly long) aggregation printing
  reportCounters();

  std::vector<consume::AggregationData> aggs;
  for (size_t i = 0; i < layout_.aggregations.size(); i++) {
    auto data = consume::readAggregation(layout_.aggregations[i], maps_->aggregations[i].fd());
    if (!data) return data.error();
    aggs.push_back(std::move(*data));
  }
  if (auto r = consumer.printFinal(aggs); !r) return r.error();
  consumer.flush();
  close(epfd);
  if (sigfd >= 0) close(sigfd);
  return consumer.exitStatus();
}

}  // namespace dtrace::driver
