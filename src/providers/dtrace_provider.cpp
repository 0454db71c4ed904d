#include "providers/dtrace_provider.h"

#include <unistd.h>

#include <string>

#include "bpf/attach.h"
#include "providers/catalog.h"
#include "providers/glob.h"
#include "providers/self_uprobe.h"

// The empty asm with a memory clobber is a side effect the compiler must
// keep, so neither the markers nor the calls to them can be optimised away.
extern "C" {
__attribute__((noinline, used, noipa)) void dtrace_marker_begin(void) {
  asm volatile("" ::: "memory");
}
__attribute__((noinline, used, noipa)) void dtrace_marker_end(void) {
  asm volatile("" ::: "memory");
}
__attribute__((noinline, used, noipa)) void dtrace_marker_error(uint64_t a0, uint64_t a1,
                                                                uint64_t a2, uint64_t a3,
                                                                uint64_t a4, uint64_t a5) {
  asm volatile("" ::"r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(a4), "r"(a5) : "memory");
}
}

namespace dtrace::providers {

void fireBegin() {
  dtrace_marker_begin();
  asm volatile("" ::: "memory");
}

void fireEnd() {
  dtrace_marker_end();
  asm volatile("" ::: "memory");
}

void fireError(uint64_t a0, uint64_t epid, uint64_t action, uint64_t difOffset, uint64_t fault,
               uint64_t faultValue) {
  dtrace_marker_error(a0, epid, action, difOffset, fault, faultValue);
  asm volatile("" ::: "memory");
}

namespace {

const char* const kNames[] = {"BEGIN", "END", "ERROR"};

const void* markerFor(const std::string& name) {
  if (name == "BEGIN") return reinterpret_cast<const void*>(&dtrace_marker_begin);
  if (name == "END") return reinterpret_cast<const void*>(&dtrace_marker_end);
  if (name == "ERROR") return reinterpret_cast<const void*>(&dtrace_marker_error);
  return nullptr;
}

class DtraceProvider final : public Provider {
 public:
  const std::string& name() const override { return name_; }

  ProviderAttributes attributes() const override {
    const Attribute stable{Stability::Stable, Stability::Stable, DependencyClass::Common};
    const Attribute priv{Stability::Private, Stability::Private, DependencyClass::Unknown};
    return {stable, priv, priv, stable, stable};
  }

  bool mightMatch(const ast::ProbeSpec& spec) const override {
    if (!fieldMatches("", spec.module) || !fieldMatches("", spec.function)) return false;
    for (const char* n : kNames) {
      if (fieldMatches(n, spec.name)) return true;
    }
    return false;
  }

  void enumerate(ProbeCatalog& catalog) override {
    for (const char* n : kNames) {
      catalog.addProbe(*this, "", "", n, BPF_PROG_TYPE_KPROBE, AttachKind::Marker);
    }
  }

  Result<void> describeArgs(Probe& probe) override {
    probe.args.clear();
    if (probe.name == "ERROR") {
      for (int16_t off :
           {ptregs::kRdi, ptregs::kRsi, ptregs::kRdx, ptregs::kRcx, ptregs::kR8, ptregs::kR9}) {
        ArgSource a;
        a.kind = ArgSource::Kind::CtxField;
        a.offset = off;
        a.size = 8;
        probe.args.push_back(a);
      }
    }
    probe.argsDescribed = true;
    return {};
  }

  Result<std::vector<bpf::Link>> attach(const Probe& probe, int progFd) override {
    const void* marker = markerFor(probe.name);
    if (marker == nullptr) return Error{"dtrace provider has no probe " + probe.name};
    Result<UprobeTarget> target = locateOwnFunction(marker);
    if (!target) return target.error();
    Result<bpf::Link> link =
        bpf::attachUprobe(progFd, target->path, target->fileOffset, false, getpid());
    if (!link) return link.error();
    std::vector<bpf::Link> links;
    links.push_back(std::move(*link));
    return links;
  }

 private:
  std::string name_ = "dtrace";
};

}  // namespace

std::unique_ptr<Provider> makeDtraceProvider() { return std::make_unique<DtraceProvider>(); }

}  // namespace dtrace::providers
