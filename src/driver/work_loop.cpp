#include "driver/work_loop.h"

#include <signal.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <optional>

#include "consume/aggregation_source.h"
#include "consume/consumer.h"
#include "consume/principal_buffers.h"
#include "consume/symbol_keys.h"
#include "driver/signal_mask.h"
#include "driver/symbols.h"
#include "output/make_sink.h"
#include "proc/target.h"
#include "sym/process_maps.h"
#include "util/clock.h"
#include "util/fd.h"

namespace dtrace::driver {

using ir::Activity;

namespace {

std::atomic_ref<uint64_t> stateRef(uint64_t* globals) {
  return std::atomic_ref<uint64_t>(globals[ir::kStateOffset / 8]);
}

// epoll tags: the principal buffers, the signalfd, mapping events, the
// sink's wish for the aggregations; a target's exit is 2 + its index.
constexpr uint64_t kRingsTag = 0;
constexpr uint64_t kSignalTag = 1;
constexpr uint64_t kFirstTargetTag = 2;
constexpr uint64_t kMappingEvents = UINT64_MAX;
constexpr uint64_t kSinkWantsTag = UINT64_MAX - 1;  // Sink::aggregationsWantedFd

}  // namespace

// The consumer and what it reads the kernel through.
struct WorkLoop::Consuming {
  Consuming(const Program& program, std::unique_ptr<consume::Sink> sink, SessionSymbols& symbols)
      : consumer(program.ir(), std::move(sink)),
        aggregations(program.aggregationFds(), program.globals()),
        symbolKeys(symbols.user()) {}
  consume::Consumer consumer;
  consume::KernelAggregations aggregations;
  // Keys that name functions or modules merge by what they name.
  const consume::SymbolKeys symbolKeys;
  std::optional<consume::PrincipalBuffers> principal;
};

// What one run() works with, from BEGIN to the final printing.
struct WorkLoop::Tracing {
  std::vector<proc::Target>& targets;
  SessionSymbols& symbols;
  consume::Consumer& consumer;
  consume::PrincipalBuffers& principal;
  // Processes whose later objects (dlopen) may hold probes the
  // descriptions name, and those of them that mapped code since the last
  // look.
  const std::set<int>& watchedProcesses;
  bool watchesEveryProcess;  // Program::followsEveryProcess
  std::set<int> mappedMore;
  std::set<int> unwindMore;  // processes that mapped code, for the unwind tables
  const bool aggregates;
  Fd signals;  // SIGINT, SIGTERM, SIGHUP and SIGPIPE, blocked meanwhile
  Fd epoll;
  size_t liveTargets = 0;
  // Wake-up times (util::monotonicNs()); see consume().
  uint64_t nextSwitch = 0, nextAggregation = UINT64_MAX, nextSnapshot = 0, nextStatus = 0;
};

WorkLoop::WorkLoop(Program& program, OptionTable& options, WorkLoopConfig config)
    : program_(program), options_(options), config_(std::move(config)) {}

WorkLoop::~WorkLoop() = default;

uint64_t WorkLoop::after(const char* rate, uint64_t now) const {
  const uint64_t interval = std::max<uint64_t>(options_.timeNs(rate), 1000000);
  return interval > UINT64_MAX - now ? UINT64_MAX : now + interval;
}

Result<std::unique_ptr<WorkLoop::Consuming>> WorkLoop::setUpConsumer(SessionSymbols& symbols) {
  auto sink = output::makeSink(options_, config_.out, stderr, config_.quiet, config_.commandLine);
  if (!sink) return sink.error();
  auto parts = std::make_unique<Consuming>(program_, std::move(*sink), symbols);
  consume::Consumer& consumer = parts->consumer;
  parts->aggregations.setSymbolKeys(&parts->symbolKeys);
  consumer.setAggregationSource(&parts->aggregations);
  consumer.setOptions(&options_);
  consumer.setSymbols(symbols.context());
  consumer.setFlowIndent(options_.isSet("flowindent"));
  consumer.watchExitWord(&program_.globals()[ir::kExitOffset / 8]);
  consumer.setSpeculations(program_.layout().speculations);
  consume::PrincipalBuffers::Order order;
  order.temporal = options_.flag("temporal");
  if (options_.text("bufpolicy") == "ring") order.ringBytes = options_.size("bufsize");
  auto principal = consume::PrincipalBuffers::open(
      program_.principalBuffers().ringFds(), order,
      [&consumer](const void* data, size_t size) { return consumer.handleRecord(data, size); });
  if (!principal) return principal.error();
  parts->principal.emplace(std::move(*principal));
  return parts;
}

Result<int> WorkLoop::run(std::vector<proc::Target>& targets) {
  uint64_t* globals = program_.globals();
  timespec real{}, mono{};
  clock_gettime(CLOCK_REALTIME, &real);
  clock_gettime(CLOCK_MONOTONIC, &mono);
  int64_t offset = (real.tv_sec - mono.tv_sec) * 1000000000LL + (real.tv_nsec - mono.tv_nsec);
  globals[ir::kWallClockOffset / 8] = static_cast<uint64_t>(offset);

  // Mappings are followed before BEGIN, so a -c command's exec is seen.
  // Processes whose later objects (dlopen) may hold probes the
  // descriptions name: the targets, and those with pid or USDT probes.
  std::set<int> watchedProcesses = program_.processesWithProbes();
  for (const proc::Target& t : targets) watchedProcesses.insert(t.pid());
  const bool everyProcess = program_.followsEveryProcess();
  for (const proc::Target& t : targets) program_.unwindProcess(t.pid());
  SessionSymbols symbols(program_.ir(), static_cast<int>(options_.value("stackindent")),
                         targets.empty() ? 0 : targets.front().pid(),
                         everyProcess || program_.unwindsByCfi() || !watchedProcesses.empty(),
                         options_.value("demangle") != 0);
  if (auto r = symbols.start(); !r) {
    std::fprintf(stderr, "dtrace: %s: addresses of processes that exit early print in hex\n",
                 r.error().message.c_str());
  }
  // Read now, while they cannot exit: running processes and -c commands
  // held at their entry point (exec'd before mapping events were followed).
  for (auto& t : targets) {
    if (!t.created() || t.held()) symbols.notePid(t.pid());
  }
  auto consuming = setUpConsumer(symbols);
  if (!consuming) return consuming.error();

  BlockedSignals blocked({SIGINT, SIGTERM, SIGHUP, SIGPIPE});
  Tracing t{targets,
            symbols,
            (*consuming)->consumer,
            *(*consuming)->principal,
            watchedProcesses,
            everyProcess,
            {},
            {},
            !program_.layout().aggregations.empty(),
            Fd(signalfd(-1, &blocked.set(), SFD_CLOEXEC | SFD_NONBLOCK)),
            Fd(),
            targets.size()};
  if (auto r = begin(t); !r) return r.error();
  if (auto r = consume(t); !r) return r.error();
  end(t);
  return finish(t);
}

Result<void> WorkLoop::begin(Tracing& t) {
  auto state = stateRef(program_.globals());
  state.store(static_cast<uint64_t>(Activity::Warmup));
  if (auto r = program_.fireBegin(); !r) return makeError("BEGIN failed: " + r.error().message);
  uint64_t expected = static_cast<uint64_t>(Activity::Warmup);
  state.compare_exchange_strong(expected, static_cast<uint64_t>(Activity::Active));
  // printa() prints the consumer's last snapshot of an aggregation
  // (dtrace_aggregate_snap, before each pass reads the buffers): BEGIN's
  // records see BEGIN's data.
  if (t.aggregates) {
    if (auto r = t.consumer.snapAggregations(); !r) return r.error();
  }
  // BEGIN's records come first, as dt_consume_begin() reads the buffer of
  // BEGIN's CPU before the others: what other CPUs record from here on
  // follows BEGIN's freopen() or setopt().
  t.principal.interval(program_.consumerCpu());
  t.consumer.flush();

  for (auto& target : t.targets) {
    if (target.created()) {
      if (auto r = target.start(); !r) return r.error();
      t.symbols.notePid(target.pid());  // without mapping events, what it maps first
    }
  }
  return {};
}

void WorkLoop::extendToMapped(Tracing& t) {
  for (int pid : t.mappedMore) {
    if (auto r = program_.extendToProcess(pid); !r) {
      std::fprintf(stderr, "dtrace: failed to enable probes in pid %d: %s\n", pid,
                   r.error().message.c_str());
    }
  }
  t.mappedMore.clear();
  for (int pid : t.unwindMore) program_.unwindProcess(pid);
  t.unwindMore.clear();
}

Result<void> WorkLoop::consume(Tracing& t) {
  t.epoll.reset(epoll_create1(EPOLL_CLOEXEC));
  auto watch = [&](int fd, uint64_t tag) {
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.u64 = tag;
    epoll_ctl(t.epoll.get(), EPOLL_CTL_ADD, fd, &ev);
  };
  watch(t.principal.epollFd(), kRingsTag);
  if (t.signals) watch(t.signals.get(), kSignalTag);
  for (size_t i = 0; i < t.targets.size(); i++) {
    watch(t.targets[i].exitFd(), kFirstTargetTag + i);
  }
  for (int fd : t.symbols.pollFds()) watch(fd, kMappingEvents);
  if (t.consumer.aggregationsWantedFd() >= 0)
    watch(t.consumer.aggregationsWantedFd(), kSinkWantsTag);

  // Records wake the consumer only when a ring is filling up or exit() was
  // called (see ProgramEmitter::wakeFlags); otherwise the buffers are read
  // once per switch interval, and other wake-ups (mapping events) leave
  // them be, so that an interval's records print together.
  // setopt() may change the interval as tracing goes.
  t.nextSwitch = after("switchrate", util::monotonicNs());
  // Each aggrate starts a new aggregation interval: every CPU's aggsize is
  // whole again (ir::RuntimeConfig::aggregationBytesPerCpu).
  t.nextAggregation = t.aggregates ? after("aggrate", util::monotonicNs()) : UINT64_MAX;
  // The consumer's snapshots of the aggregations printa() prints: before
  // the first pass that reads the buffers, then before a pass that reads
  // them once aggrate has gone by (dtrace_work: dtrace_aggregate_snap,
  // rate-limited by aggrate, then dtrace_consume).
  t.nextSnapshot = 0;
  // With statusrate set, exit() and a filled buffer end tracing at the next
  // status check, as dtrace(1M) learns of them (dtrace_status()); without
  // it, at once. The probes record nothing meanwhile (Activity::Draining).
  t.nextStatus = options_.isSet("statusrate") ? after("statusrate", util::monotonicNs()) : 0;
  uint64_t* globals = program_.globals();
  auto state = stateRef(globals);
  // Processes whose stacks are unwound by tables that map more code (a
  // library loaded later; an exec) are read again. Other processes get
  // tables when a probe first takes their stack (Program::unwindWanted).
  auto noteMapping = [&t, this](const sym::MappingEvent& e) {
    if (e.kind != sym::MappingEvent::Kind::Mapped || !e.mapping.executable || !e.mapping.isFile()) {
      return;
    }
    const bool watched = t.watchedProcesses.count(e.pid) != 0;
    if (t.watchesEveryProcess || watched) t.mappedMore.insert(e.pid);
    if (watched || program_.unwindsProcess(e.pid)) t.unwindMore.insert(e.pid);
  };
  bool done = t.consumer.exitRequested();
  while (!done) {
    epoll_event events[8];
    const uint64_t now = util::monotonicNs();
    const uint64_t wake =
        std::min({t.nextSwitch, t.nextAggregation, t.nextStatus != 0 ? t.nextStatus : UINT64_MAX});
    const int timeoutMs =
        now >= wake ? 0
                    : static_cast<int>(std::min<uint64_t>((wake - now + 999999) / 1000000, 60000));
    int n = epoll_wait(t.epoll.get(), events, 8, timeoutMs);
    if (n < 0 && errno != EINTR) break;
    if (t.aggregates && util::monotonicNs() >= t.nextAggregation) {
      std::atomic_ref<uint64_t>(globals[program_.layout().aggregationEpochOffset / 8]).fetch_add(1);
      t.nextAggregation = after("aggrate", util::monotonicNs());
    }
    t.symbols.refresh(noteMapping);  // the mappings of what the records name
    extendToMapped(t);
    const bool ringsWoke = std::any_of(events, events + std::max(n, 0), [](const epoll_event& e) {
      return e.data.u64 == kRingsTag;
    });
    if (ringsWoke || util::monotonicNs() >= t.nextSwitch) {
      // A pass the rings brought forward (exit(), a ring filling up) stands
      // for the switchrate pass it replaces.
      if (t.aggregates && std::max(util::monotonicNs(), t.nextSwitch) >= t.nextSnapshot) {
        if (auto r = t.consumer.snapAggregations(); !r) return r.error();
        t.nextSnapshot = after("aggrate", util::monotonicNs());
      }
      t.principal.interval();
      t.consumer.buffersSwitched();
      t.consumer.flush();
      t.nextSwitch = after("switchrate", util::monotonicNs());
    }
    const bool sinkWants = std::any_of(events, events + std::max(n, 0), [](const epoll_event& e) {
      return e.data.u64 == kSinkWantsTag;
    });
    if (sinkWants) {
      if (auto r = t.consumer.showSinkAggregations(); !r) return r.error();
    }
    if (t.consumer.writeError() != 0) done = true;  // as dtrace(1M) aborts processing
    if (handleEvents(t, events, n)) done = true;
    reportCounters(t.consumer);
    if (t.nextStatus != 0) {
      if (util::monotonicNs() < t.nextStatus) continue;
      t.nextStatus = options_.isSet("statusrate") ? after("statusrate", util::monotonicNs()) : 0;
    }
    // exit(), or a fill buffer that filled up (bufpolicy=fill).
    if (t.consumer.exitRequested() || state.load() == static_cast<uint64_t>(Activity::Draining)) {
      done = true;
    }
  }
  return {};
}

bool WorkLoop::handleEvents(Tracing& t, const epoll_event* events, int n) {
  bool done = false;
  for (int i = 0; i < n; i++) {
    uint64_t tag = events[i].data.u64;
    if (tag == kMappingEvents || tag == kSinkWantsTag) continue;  // taken in before
    if (tag == kSignalTag) {
      signalfd_siginfo si;
      while (read(t.signals.get(), &si, sizeof si) == sizeof si) done = true;
    } else if (tag >= kFirstTargetTag) {
      proc::Target& target = t.targets[tag - kFirstTargetTag];
      if (target.exited()) {
        epoll_ctl(t.epoll.get(), EPOLL_CTL_DEL, target.exitFd(), nullptr);
        if (!config_.quiet) std::fprintf(stderr, "dtrace: %s\n", proc::exitNotice(target).c_str());
        if (--t.liveTargets == 0) done = true;
      }
    }
  }
  return done;
}

void WorkLoop::end(Tracing& t) {
  auto state = stateRef(program_.globals());
  state.store(static_cast<uint64_t>(Activity::Cooldown));
  t.symbols.refresh();
  // The final snapshots: the records still unread see what the probes
  // left, END's records what END left too.
  if (t.aggregates) (void)t.consumer.snapAggregations();
  t.principal.interval();
  (void)program_.fireEnd();
  if (t.aggregates) (void)t.consumer.snapAggregations();
  t.principal.finish();
  state.store(static_cast<uint64_t>(Activity::Stopped));
  program_.detach();  // before the (possibly long) aggregation printing
  reportCounters(t.consumer);
}

Result<int> WorkLoop::finish(Tracing& t) {
  t.symbols.refresh();  // mappings made up to the end, for the keys about to print
  consume::Consumer& consumer = t.consumer;
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
  return consumer.exitStatus();
}

// Drops not reported yet: per CPU for the principal buffer and the
// aggregations, in total for dynamic variables and speculations.
void WorkLoop::reportCounters(consume::Consumer& consumer) {
  std::vector<ir::Counters> values;
  if (!program_.readCounters(values)) return;
  const int ncpu = static_cast<int>(values.size());
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
  for (const ir::Counters& c : values) {
    if (c.unwindWanted != 0) program_.unwindWanted(static_cast<int>(c.unwindWanted));
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

}  // namespace dtrace::driver
