// The provider interface: each provider lists its probes, creates probes on
// demand where its names encode parameters (profile-N), describes probe
// arguments, and attaches a loaded BPF program to one probe.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "bpf/attach.h"
#include "bpf/program.h"
#include "parse/ast.h"
#include "providers/probe.h"
#include "util/result.h"

namespace dtrace::providers {

class ProbeCatalog;

// DTrace stability levels and dependency classes, in increasing order so
// that the minimum of two attributes is the weaker one.
enum class Stability {
  Internal,
  Private,
  Obsolete,
  External,
  Unstable,
  Evolving,
  Stable,
  Standard
};
enum class DependencyClass { Unknown, Cpu, Platform, Group, Isa, Common };

struct Attribute {
  Stability name = Stability::Internal;
  Stability data = Stability::Internal;
  DependencyClass dependency = DependencyClass::Unknown;
};

// A provider's stability, field by field, as `dtrace -v` reports it.
struct ProviderAttributes {
  Attribute provider, module, function, name, args;
};

// What the Guide gives the providers whose names and arguments are stable
// but whose modules and functions are the implementation's (proc, sched,
// io, USDT, plockstat): Evolving, save the module and function, Private.
ProviderAttributes evolvingProviderAttributes();

const char* stabilityName(Stability s);
const char* dependencyClassName(DependencyClass c);
Attribute minAttribute(const Attribute& a, const Attribute& b);

class Provider {
 public:
  virtual ~Provider() = default;

  virtual const std::string& name() const = 0;
  virtual ProviderAttributes attributes() const = 0;

  // Cheap test (no I/O) of whether `spec` could match any probe of this
  // provider; the catalog enumerates only providers for which it holds.
  // `spec.provider` has already been matched against name().
  virtual bool mightMatch(const ast::ProbeSpec& /*spec*/) const { return true; }

  // Whether a description's module field matches the probe (providers with
  // other names for a module, such as a.out for an executable, say so).
  virtual bool moduleMatches(const Probe& probe, std::string_view pattern) const;

  // Adds every probe this provider lists to the catalog.
  virtual void enumerate(ProbeCatalog& catalog) = 0;

  // For providers whose probes are made on demand: creates (or finds) the
  // probe named by `spec`. Null when the description is not one of the
  // provider's forms; an Error when the provider cannot offer it at all.
  virtual Result<const Probe*> create(ProbeCatalog& /*catalog*/, const ast::ProbeSpec& /*spec*/) {
    return static_cast<const Probe*>(nullptr);
  }

  // Fills probe.args (and sets argsDescribed).
  virtual Result<void> describeArgs(Probe& probe) = 0;

  // The kernel tracepoint whose raw-tracepoint program runs the probe's
  // clauses; empty for probes attached otherwise.
  virtual std::string rawTracepoint(const Probe& /*probe*/) const { return {}; }

  // -x cpu: probes are to fire on this CPU only. Programs check the CPU
  // themselves; a provider that chooses where its probes fire (profile)
  // fires them there.
  virtual void restrictToCpu(uint32_t /*cpu*/) {}

  // Attaches the loaded program `progFd` to the probe. The links detach when
  // destroyed. Empty for probes that the consumer fires itself (BEGIN, END,
  // ERROR: see dtrace_provider.h).
  virtual Result<std::vector<bpf::Link>> attach(const Probe& probe, int progFd) = 0;

  // Whether probes of this provider with equal Probe::argumentsKey that
  // run the same clauses may share one program, which tells them apart at
  // run time by the low 32 bits of the attach cookie: the probe's index in
  // the group (see Probe::sites).
  virtual bool sharesPrograms() const { return false; }
  // How such a shared program is loaded.
  virtual bpf::ProgramKind programKind(const Probe& probe) const { return probe.progType; }
  // Attaches one shared program to every probe of a group, probe i's sites
  // with cookie i (and their per-site value in the high 32 bits).
  virtual Result<std::vector<bpf::Link>> attachGroup(std::span<const Probe* const> group,
                                                     int progFd);
  // What attaching did not do but did not fail for (sites the kernel would
  // not instrument), for dtrace to report; cleared as taken.
  virtual std::vector<std::string> takeWarnings() { return {}; }
};

// A family of providers made on demand from the names that descriptions
// use, such as pid1234 (the pid provider of process 1234) or the USDT
// providers a process's objects declare.
class ProviderFamily {
 public:
  virtual ~ProviderFamily() = default;
  // Adds to the catalog the providers of the family that `spec`'s provider
  // field could name (none when it names none). An Error when the name
  // is the family's but unusable (pid0), with the D compiler's tag.
  virtual Result<void> provide(ProbeCatalog& catalog, const ast::ProbeSpec& spec) = 0;
  // The same, for process `pid` alone, after it mapped new objects (a
  // library it dlopen'd): providers of its new objects.
  virtual Result<void> provideInProcess(ProbeCatalog& /*catalog*/, const ast::ProbeSpec& /*spec*/,
                                        int /*pid*/) {
    return {};
  }
  // For listing only (dtrace -l): adds the family's providers of every
  // running process whose names match `pattern` (a provider field, "*"
  // for any), as illumos lists every provider a process registered.
  // Tracing never calls it: a process's own provider next to the path-wide
  // one would fire a clause twice. Processes it cannot read are skipped.
  virtual void provideRunning(ProbeCatalog& /*catalog*/, const std::string& /*pattern*/) {}
};

// How providers of user processes reach a process: one that dtrace
// created (-c) is held before it runs; this makes its address space ready
// to read (the process run to its entry point, its libraries mapped).
class ProcessHook {
 public:
  virtual ~ProcessHook() = default;
  virtual Result<void> prepare(int pid) = 0;
};

}  // namespace dtrace::providers
