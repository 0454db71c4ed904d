#include "providers/catalog.h"

#include <algorithm>

#include "providers/dtrace_provider.h"
#include "providers/fbt_provider.h"
#include "providers/glob.h"
#include "providers/io_provider.h"
#include "providers/ip_provider.h"
#include "providers/lockstat_provider.h"
#include "providers/pid_provider.h"
#include "providers/plockstat_provider.h"
#include "providers/proc_provider.h"
#include "providers/profile_provider.h"
#include "providers/sched_provider.h"
#include "providers/sdt_provider.h"
#include "providers/syscall_provider.h"
#include "providers/tcp_provider.h"
#include "providers/udp_provider.h"
#include "providers/unavailable_provider.h"
#include "providers/usdt_provider.h"

namespace dtrace::providers {

ProbeCatalog::ProbeCatalog() {
  addProvider(makeDtraceProvider());
  addProvider(makeProfileProvider());
  addProvider(makeSyscallProvider());
  addProvider(makeUnavailableProvider("fbt", kFbtUnavailable));
  // Stable providers before sdt, so that naming one never lists every
  // tracepoint.
  addProvider(makeProcProvider());
  addProvider(makeSchedProvider());
  addProvider(makeIoProvider());
  addProvider(makeTcpProvider());
  addProvider(makeUdpProvider());
  addProvider(makeIpProvider());
  addProvider(makeLockstatProvider());
  addProvider(makeSdtProvider());
  addFamily(makePidProviderFamily());
  addFamily(makeUsdtProviderFamily());
  addFamily(makePlockstatProviderFamily());
}

ProbeCatalog::~ProbeCatalog() = default;

void ProbeCatalog::addProvider(std::unique_ptr<Provider> provider) {
  entries_.push_back(Entry{std::move(provider), false, {}, false});
}

void ProbeCatalog::addDynamicProvider(std::unique_ptr<Provider> provider) {
  entries_.push_back(Entry{std::move(provider), false, {}, true});
}

void ProbeCatalog::addFamily(std::unique_ptr<ProviderFamily> family) {
  families_.push_back(std::move(family));
}

Provider* ProbeCatalog::provider(std::string_view name) const {
  for (const Entry& e : entries_) {
    if (e.provider->name() == name) return e.provider.get();
  }
  return nullptr;
}

ProbeCatalog::Entry* ProbeCatalog::entryFor(const Provider& provider) {
  for (Entry& e : entries_) {
    if (e.provider.get() == &provider) return &e;
  }
  return nullptr;
}

// Providers enumerate in their fixed order, each one only after those before
// it, so a probe's ID never depends on which providers a command happened
// to need: BEGIN is always 1, and `dtrace -l -P syscall` shows the same IDs
// as `dtrace -l`. Providers after the one asked for stay unread.
void ProbeCatalog::ensureEnumerated(Entry& entry) {
  if (entry.dynamic) {
    // Made on demand, its probes come after those of every standard
    // provider, as a process's probes follow the kernel's in DTrace.
    for (Entry& e : entries_) {
      if (!e.enumerated) {
        e.enumerated = true;
        e.provider->enumerate(*this);
      }
      if (&e == &entry) return;
    }
    return;
  }
  for (Entry& e : entries_) {
    if (!e.enumerated) {
      e.enumerated = true;  // first, so that a provider may call find() while enumerating
      e.provider->enumerate(*this);
    }
    if (&e == &entry) return;
  }
}

bool ProbeCatalog::enumerated(std::string_view providerName) const {
  for (const Entry& e : entries_) {
    if (e.provider->name() == providerName) return e.enumerated;
  }
  return false;
}

Probe& ProbeCatalog::addProbe(Provider& owner, std::string module, std::string function,
                              std::string name, bpf_prog_type progType, AttachKind attachKind) {
  Probe& p = probes_.emplace_back();
  p.id = static_cast<uint32_t>(probes_.size());
  p.provider = owner.name();
  p.module = std::move(module);
  p.function = std::move(function);
  p.name = std::move(name);
  p.progType = progType;
  p.attachKind = attachKind;
  p.owner = &owner;
  if (Entry* e = entryFor(owner)) e->probes.push_back(&p);
  return p;
}

const Probe* ProbeCatalog::find(std::string_view provider, std::string_view module,
                                std::string_view function, std::string_view name) const {
  for (const Entry& e : entries_) {
    if (e.provider->name() != provider) continue;
    for (const Probe* p : e.probes) {
      if (p->module == module && p->function == function && p->name == name) return p;
    }
  }
  return nullptr;
}

Result<std::vector<const Probe*>> ProbeCatalog::match(const ast::ProbeSpec& spec) {
  for (auto& family : families_) {
    if (auto r = family->provide(*this, spec); !r) return r.error();
  }
  provideRunning(spec.provider.empty() ? "*" : spec.provider);
  return matchProviders(spec);
}

void ProbeCatalog::provideRunning(const std::string& pattern) {
  if (!listingRunning_) return;
  for (auto& family : families_) family->provideRunning(*this, pattern);
}

Result<std::vector<const Probe*>> ProbeCatalog::matchInProcess(const ast::ProbeSpec& spec,
                                                               int pid) {
  for (auto& family : families_) {
    if (auto r = family->provideInProcess(*this, spec, pid); !r) return r.error();
  }
  return matchProviders(spec);
}

Result<std::vector<const Probe*>> ProbeCatalog::matchProviders(const ast::ProbeSpec& spec) {
  std::vector<const Probe*> out;
  for (Entry& e : entries_) {
    Provider& prov = *e.provider;
    if (!fieldMatches(prov.name(), spec.provider) || !prov.mightMatch(spec)) continue;
    ensureEnumerated(e);
    Result<const Probe*> made = prov.create(*this, spec);
    if (!made) return made.error();
    for (const Probe* p : e.probes) {
      if (prov.moduleMatches(*p, spec.module) && fieldMatches(p->function, spec.function) &&
          fieldMatches(p->name, spec.name)) {
        out.push_back(p);
      }
    }
  }
  std::sort(out.begin(), out.end(), [](const Probe* a, const Probe* b) { return a->id < b->id; });
  return out;
}

const Probe* ProbeCatalog::byId(uint32_t id) {
  if (id == 0) return nullptr;
  if (id > probes_.size()) {
    for (Entry& e : entries_) ensureEnumerated(e);
  }
  return id <= probes_.size() ? &probes_[id - 1] : nullptr;
}

std::vector<const Probe*> ProbeCatalog::all() {
  provideRunning("*");
  for (Entry& e : entries_) ensureEnumerated(e);
  std::vector<const Probe*> out;
  out.reserve(probes_.size());
  for (const Probe& p : probes_) out.push_back(&p);
  return out;
}

Result<void> ProbeCatalog::describeArgs(const Probe& probe) {
  if (probe.argsDescribed) return {};
  // The catalog owns every probe as a mutable object; callers only ever see
  // them as const, so this is the one place that fills them in.
  Probe& owned = const_cast<Probe&>(probe);
  Result<void> r = owned.owner->describeArgs(owned);
  if (r) owned.argsDescribed = true;
  return r;
}

void ProbeCatalog::setTracingCpu(uint32_t cpu) {
  for (Entry& e : entries_) e.provider->restrictToCpu(cpu);
}

Result<std::vector<bpf::Link>> ProbeCatalog::attach(const Probe& probe, int progFd) {
  return probe.owner->attach(probe, progFd);
}

}  // namespace dtrace::providers
