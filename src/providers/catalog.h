// The probe catalog: owns every provider and every probe, gives probes their
// ids in order of creation, and matches probe descriptions against them.
// Providers are enumerated only when a description could match them, so that
// `dtrace -n BEGIN` never reads tracefs.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "parse/ast.h"
#include "providers/probe.h"
#include "providers/provider.h"
#include "util/result.h"

namespace dtrace::providers {

class ProbeCatalog {
 public:
  // The standard providers, in the order that fixes their probe ids:
  // dtrace (BEGIN = 1, END = 2, ERROR = 3), profile, syscall, fbt, proc, sched, io, tcp, udp, ip,
  // lockstat, sdt.
  ProbeCatalog();
  // An empty catalog, for tests that bring their own providers.
  struct Empty {};
  explicit ProbeCatalog(Empty) {}
  ~ProbeCatalog();
  ProbeCatalog(const ProbeCatalog&) = delete;
  ProbeCatalog& operator=(const ProbeCatalog&) = delete;

  void addProvider(std::unique_ptr<Provider> provider);
  // A provider made on demand (a family's): its probes are numbered as it
  // makes them, without first listing the providers before it.
  void addDynamicProvider(std::unique_ptr<Provider> provider);
  void addFamily(std::unique_ptr<ProviderFamily> family);
  // Who holds the processes that user-space providers read (-c targets);
  // null when no process is held.
  void setProcessHook(ProcessHook* hook) { processHook_ = hook; }
  ProcessHook* processHook() const { return processHook_; }
  // dtrace -l: match() and all() also bring in the providers of every
  // running process (ProviderFamily::provideRunning). Never for tracing.
  void setListingRunningProcesses(bool listing) { listingRunning_ = listing; }
  Provider* provider(std::string_view name) const;

  // Every probe matching all four fields of `spec` (globs allowed, empty
  // field = any), in id order. An error only when a provider refuses the
  // description outright (e.g. fbt on this kernel); no match is an empty list.
  Result<std::vector<const Probe*>> match(const ast::ProbeSpec& spec);
  // The same after process `pid` mapped new objects: the families look at
  // that process only.
  Result<std::vector<const Probe*>> matchInProcess(const ast::ProbeSpec& spec, int pid);

  // The probe with this id, enumerating all providers if it is not yet known.
  const Probe* byId(uint32_t id);

  // Every probe of every provider, in id order.
  std::vector<const Probe*> all();

  // Whether the provider has listed its probes yet (for tests of laziness).
  bool enumerated(std::string_view providerName) const;

  // Fills probe.args through its provider, once.
  Result<void> describeArgs(const Probe& probe);

  // -x cpu: tells every provider (see Provider::restrictToCpu).
  void setTracingCpu(uint32_t cpu);

  // Attaches a loaded program to the probe through its provider.
  Result<std::vector<bpf::Link>> attach(const Probe& probe, int progFd);

  // For providers: adds a probe and gives it the next id. The returned
  // reference stays valid for the catalog's lifetime.
  Probe& addProbe(Provider& owner, std::string module, std::string function, std::string name,
                  bpf_prog_type progType, AttachKind attachKind);

  // For providers: the probe with exactly these fields, or null.
  const Probe* find(std::string_view provider, std::string_view module, std::string_view function,
                    std::string_view name) const;

 private:
  struct Entry {
    std::unique_ptr<Provider> provider;
    bool enumerated = false;
    std::vector<Probe*> probes;
    bool dynamic = false;
  };
  Entry* entryFor(const Provider& provider);
  void ensureEnumerated(Entry& entry);
  Result<std::vector<const Probe*>> matchProviders(const ast::ProbeSpec& spec);
  void provideRunning(const std::string& pattern);

  std::vector<Entry> entries_;
  std::vector<std::unique_ptr<ProviderFamily>> families_;
  ProcessHook* processHook_ = nullptr;
  bool listingRunning_ = false;
  std::deque<Probe> probes_;  // index = id - 1; deque keeps addresses stable
};

}  // namespace dtrace::providers
