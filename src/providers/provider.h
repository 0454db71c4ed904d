// The provider interface: each provider lists its probes, creates probes on
// demand where its names encode parameters (profile-N), describes probe
// arguments, and attaches a loaded BPF program to one probe.
#pragma once

#include <string>
#include <vector>

#include "bpf/attach.h"
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

  // Attaches the loaded program `progFd` to the probe. The links detach when
  // destroyed. Empty for probes that the consumer fires itself (BEGIN, END,
  // ERROR: see dtrace_provider.h).
  virtual Result<std::vector<bpf::Link>> attach(const Probe& probe, int progFd) = 0;
};

}  // namespace dtrace::providers
