#include "providers/profile_provider.h"

#include <linux/perf_event.h>
#include <strings.h>
#include <unistd.h>

#include <cctype>
#include <optional>
#include <string>

#include "bpf/attach.h"
#include "providers/catalog.h"
#include "providers/glob.h"
#include "providers/tick_timer.h"
#include "util/cpu_list.h"

namespace dtrace::providers {

namespace {

constexpr uint64_t kNanosPerSecond = 1000000000ULL;
constexpr uint64_t kMinIntervalNs = kNanosPerSecond / 5000;  // DTrace's profile_interval_min

struct Unit {
  const char* suffix;
  uint64_t nanos;  // 0: the number is a frequency in Hz
};

constexpr Unit kUnits[] = {
    {"ns", 1},
    {"nsec", 1},
    {"us", 1000},
    {"usec", 1000},
    {"ms", 1000000},
    {"msec", 1000000},
    {"s", kNanosPerSecond},
    {"sec", kNanosPerSecond},
    {"m", 60 * kNanosPerSecond},
    {"min", 60 * kNanosPerSecond},
    {"h", 3600 * kNanosPerSecond},
    {"hour", 3600 * kNanosPerSecond},
    {"d", 86400 * kNanosPerSecond},
    {"day", 86400 * kNanosPerSecond},
    {"hz", 0},
};

constexpr int kDefaultRates[] = {97, 199, 499, 997, 1999, 4001, 4999};
constexpr int kDefaultTicks[] = {1, 10, 100, 500, 1000, 5000};

}  // namespace

Result<ProfileRate> parseProfileName(std::string_view name) {
  ProfileRate rate;
  std::string_view rest;
  if (name.starts_with("profile-")) {
    rest = name.substr(8);
  } else if (name.starts_with("tick-")) {
    rest = name.substr(5);
    rate.tick = true;
  } else {
    return Error{"not a profile probe name: " + std::string(name)};
  }
  size_t digits = 0;
  while (digits < rest.size() && std::isdigit(static_cast<unsigned char>(rest[digits]))) ++digits;
  if (digits == 0) return Error{"missing rate in " + std::string(name)};
  if (digits > 18) return Error{"rate out of range in " + std::string(name)};
  const uint64_t value = std::stoull(std::string(rest.substr(0, digits)));
  if (value == 0) return Error{"zero rate in " + std::string(name)};

  const std::string suffix(rest.substr(digits));
  uint64_t nanos = 0;
  if (!suffix.empty()) {
    const Unit* unit = nullptr;
    for (const Unit& u : kUnits) {
      if (strcasecmp(u.suffix, suffix.c_str()) == 0) unit = &u;
    }
    if (unit == nullptr) return Error{"invalid unit \"" + suffix + "\" in " + std::string(name)};
    nanos = unit->nanos;
  }
  if (nanos == 0) {
    rate.periodNs = kNanosPerSecond / value;
  } else {
    if (value > UINT64_MAX / nanos) return Error{"rate out of range in " + std::string(name)};
    rate.periodNs = value * nanos;
  }
  if (rate.periodNs < kMinIntervalNs) {
    return Error{"rate too high in " + std::string(name) + " (at most 5000 Hz)"};
  }
  return rate;
}

const std::vector<std::string>& defaultProfileNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (int r : kDefaultRates) v.push_back("profile-" + std::to_string(r));
    for (int t : kDefaultTicks) v.push_back("tick-" + std::to_string(t));
    return v;
  }();
  return names;
}

namespace {

class ProfileProvider final : public Provider {
 public:
  const std::string& name() const override { return name_; }

  ProviderAttributes attributes() const override {
    const Attribute evolving{Stability::Evolving, Stability::Evolving, DependencyClass::Common};
    const Attribute priv{Stability::Private, Stability::Private, DependencyClass::Unknown};
    const Attribute isa{Stability::Private, Stability::Private, DependencyClass::Isa};
    return {evolving, priv, isa, evolving, isa};
  }

  bool mightMatch(const ast::ProbeSpec& spec) const override {
    if (!fieldMatches("", spec.module) || !fieldMatches("", spec.function)) return false;
    if (spec.name.empty() || isGlob(spec.name)) return true;
    return spec.name.starts_with("profile-") || spec.name.starts_with("tick-");
  }

  void enumerate(ProbeCatalog& catalog) override {
    for (const std::string& n : defaultProfileNames()) {
      Result<ProfileRate> rate = parseProfileName(n);
      if (rate) add(catalog, n, *rate);
    }
  }

  // Any rate is a probe, made when first named; like DTrace, an invalid or
  // too-fast rate simply names no probe, so the description matches nothing.
  Result<const Probe*> create(ProbeCatalog& catalog, const ast::ProbeSpec& spec) override {
    if (spec.name.empty() || isGlob(spec.name)) return static_cast<const Probe*>(nullptr);
    if (!fieldMatches("", spec.module) || !fieldMatches("", spec.function)) {
      return static_cast<const Probe*>(nullptr);
    }
    if (const Probe* existing = catalog.find(name_, "", "", spec.name)) return existing;
    Result<ProfileRate> rate = parseProfileName(spec.name);
    if (!rate) return static_cast<const Probe*>(nullptr);
    return static_cast<const Probe*>(&add(catalog, spec.name, *rate));
  }

  Result<void> describeArgs(Probe& probe) override {
    probe.args.clear();
    if (probe.perCpu) {
      // arg0/arg1: where the CPU was interrupted, in the kernel or in user mode.
      ArgSource pc;
      pc.kind = ArgSource::Kind::KernelPc;
      probe.args.push_back(pc);
      pc.kind = ArgSource::Kind::UserPc;
      probe.args.push_back(pc);
    } else {
      // A tick fires from the consumer's timer thread, which interrupts
      // nothing: arg0 and arg1 read as 0.
      probe.args.resize(2);
    }
    probe.argsDescribed = true;
    return {};
  }

  Result<std::vector<bpf::Link>> attach(const Probe& probe, int progFd) override {
    return probe.perCpu ? attachProfile(probe, progFd) : attachTick(probe, progFd);
  }

  void restrictToCpu(uint32_t cpu) override { cpu_ = cpu; }

 private:
  Probe& add(ProbeCatalog& catalog, const std::string& probeName, const ProfileRate& rate) {
    Probe& p = catalog.addProbe(*this, "", "", probeName,
                                rate.tick ? BPF_PROG_TYPE_RAW_TRACEPOINT : BPF_PROG_TYPE_PERF_EVENT,
                                rate.tick ? AttachKind::Timer : AttachKind::PerfEvent);
    p.periodNs = rate.periodNs;
    p.perCpu = !rate.tick;
    return p;
  }

  // One cpu-clock sampling event per online CPU. On this VM (see
  // tick_timer.h) such an event barely fires while its CPU is idle, so
  // profile-N under-samples idle CPUs; that is what it measures anyway:
  // where busy CPUs spend their time.
  Result<std::vector<bpf::Link>> attachProfile(const Probe& probe, int progFd) {
    perf_event_attr attr{};
    attr.type = PERF_TYPE_SOFTWARE;
    attr.size = sizeof(attr);
    attr.config = PERF_COUNT_SW_CPU_CLOCK;
    attr.sample_period = probe.periodNs;
    std::vector<bpf::Link> links;
    for (int cpu : onlineCpus()) {
      if (cpu_ && static_cast<uint32_t>(cpu) != *cpu_) continue;
      Result<bpf::Link> link = bpf::attachPerfEvent(progFd, attr, -1, cpu);
      if (!link) return link.error();
      links.push_back(std::move(*link));
    }
    return links;
  }

  // A timer thread that runs the program (see tick_timer.h for why).
  Result<std::vector<bpf::Link>> attachTick(const Probe& probe, int progFd) {
    Result<bpf::Link> link = timers_.start(progFd, probe.periodNs, cpu_);
    if (!link) return link.error();
    std::vector<bpf::Link> links;
    links.push_back(std::move(*link));
    return links;
  }

  std::string name_ = "profile";
  std::optional<uint32_t> cpu_;  // -x cpu
  TickTimers timers_;
};

}  // namespace

std::unique_ptr<Provider> makeProfileProvider() { return std::make_unique<ProfileProvider>(); }

}  // namespace dtrace::providers
