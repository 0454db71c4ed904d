#include "providers/syscall_provider.h"

#include <dirent.h>

#include <algorithm>
#include <map>
#include <string_view>

#include "bpf/attach.h"
#include "providers/catalog.h"
#include "providers/glob.h"
#include "providers/syscall_dispatch.h"
#include "providers/syscall_numbers.h"

namespace dtrace::providers {

namespace {

constexpr std::string_view kEnterPrefix = "sys_enter_";
constexpr std::string_view kExitPrefix = "sys_exit_";
constexpr const char* kCategory = "syscalls";
constexpr int16_t kReturnValueOffset = 8;  // sys_exit raw tracepoint: (regs, ret)

struct Call {
  int number = -1;
  std::string tracefsName;
  bool hasEntry = false, hasReturn = false;
};

class SyscallProvider final : public Provider {
 public:
  SyscallProvider()
      : entry_(SyscallDirection::Entry, maxSyscallNumber()),
        return_(SyscallDirection::Return, maxSyscallNumber()) {}

  const std::string& name() const override { return name_; }

  ProviderAttributes attributes() const override {
    const Attribute evolving{Stability::Evolving, Stability::Evolving, DependencyClass::Common};
    const Attribute priv{Stability::Private, Stability::Private, DependencyClass::Unknown};
    const Attribute isa{Stability::Private, Stability::Private, DependencyClass::Isa};
    return {evolving, priv, isa, evolving, isa};
  }

  bool mightMatch(const ast::ProbeSpec& spec) const override {
    return fieldMatches("", spec.module) &&
           (fieldMatches("entry", spec.name) || fieldMatches("return", spec.name));
  }

  // One readdir of events/syscalls; formats are read only by describeArgs.
  // Probes take the system call table's names (fstat, not tracefs's
  // newfstat); a tracefs event with no number here is not listed.
  void enumerate(ProbeCatalog& catalog) override {
    const std::string dir = bpf::tracefsRoot() + "/events/" + kCategory;
    DIR* d = opendir(dir.c_str());
    if (d == nullptr) return;
    std::map<std::string, Call> calls;  // by probe function name
    while (dirent* ent = readdir(d)) {
      std::string_view n = ent->d_name;
      const bool entry = n.starts_with(kEnterPrefix);
      if (!entry && !n.starts_with(kExitPrefix)) continue;
      const std::string_view tracefsName =
          n.substr(entry ? kEnterPrefix.size() : kExitPrefix.size());
      std::optional<SyscallId> id = syscallForTracepoint(tracefsName);
      if (!id) continue;
      Call& c = calls[std::string(id->name)];
      c.number = id->number;
      c.tracefsName = tracefsName;
      (entry ? c.hasEntry : c.hasReturn) = true;
    }
    closedir(d);
    for (const auto& [function, call] : calls) {
      if (call.hasEntry) add(catalog, function, "entry", call, kEnterPrefix);
      if (call.hasReturn) add(catalog, function, "return", call, kExitPrefix);
    }
  }

  Result<void> describeArgs(Probe& probe) override {
    Result<std::vector<TracepointField>> fields =
        readTracepointFormat(probe.tpCategory, probe.tpEvent);
    if (!fields) return fields.error();
    if (syscallDirection(probe.name) == SyscallDirection::Entry) {
      probe.args = syscallEntryArgs(*fields);
    } else {
      Result<std::vector<ArgSource>> args = syscallReturnArgs(*fields);
      if (!args) return args.error();
      probe.args = std::move(*args);
    }
    probe.argsDescribed = true;
    return {};
  }

  std::string rawTracepoint(const Probe& probe) const override {
    return syscallTracepoint(syscallDirection(probe.name));
  }

  // A direction's first probe goes on the raw tracepoint directly (its
  // program's guard checks the number); the others through the dispatcher,
  // so that every system call runs at most two programs however many calls
  // are traced.
  Result<std::vector<bpf::Link>> attach(const Probe& probe, int progFd) override {
    const bool entry = syscallDirection(probe.name) == SyscallDirection::Entry;
    SyscallDispatcher& dispatcher = entry ? entry_ : return_;
    bool& directUsed = entry ? entryDirectUsed_ : returnDirectUsed_;
    Result<bpf::Link> link = Error{"not attached"};
    if (!directUsed) {
      directUsed = true;
      link = bpf::attachRawTracepoint(progFd, rawTracepoint(probe));
    }
    if (!link) link = dispatcher.attach(probe.syscallNumber, progFd);
    if (!link) return link.error();
    std::vector<bpf::Link> links;
    links.push_back(std::move(*link));
    return links;
  }

 private:
  void add(ProbeCatalog& catalog, const std::string& function, const char* probeName,
           const Call& call, std::string_view prefix) {
    Probe& p = catalog.addProbe(*this, "", function, probeName, BPF_PROG_TYPE_RAW_TRACEPOINT,
                                AttachKind::SyscallDispatch);
    p.tpCategory = kCategory;
    p.tpEvent = std::string(prefix) + call.tracefsName;
    p.syscallNumber = call.number;
  }

  std::string name_ = "syscall";
  SyscallDispatcher entry_, return_;
  bool entryDirectUsed_ = false, returnDirectUsed_ = false;
};

struct ScalarType {
  const char* name;
  uint8_t size;
  bool isSigned;
};

// Scalar syscall argument types as the kernel declares them (tracefs
// formats give every field 8 bytes and "signed:0"); anything else (pointers,
// size_t, unsigned long, aio_context_t...) is an unsigned 8-byte value.
constexpr ScalarType kScalarTypes[] = {
    {"int", 4, true},           {"s32", 4, true},
    {"__s32", 4, true},         {"pid_t", 4, true},
    {"key_t", 4, true},         {"key_serial_t", 4, true},
    {"clockid_t", 4, true},     {"timer_t", 4, true},
    {"mqd_t", 4, true},         {"rwf_t", 4, true},
    {"unsigned int", 4, false}, {"unsigned", 4, false},
    {"u32", 4, false},          {"__u32", 4, false},
    {"uid_t", 4, false},        {"gid_t", 4, false},
    {"qid_t", 4, false},        {"umode_t", 2, false},
    {"short", 2, true},         {"unsigned short", 2, false},
    {"long", 8, true},          {"loff_t", 8, true},
    {"off_t", 8, true},         {"ssize_t", 8, true},
    {"s64", 8, true},           {"__s64", 8, true},
};

ScalarType scalarType(std::string type) {
  if (type.starts_with("const ")) type.erase(0, 6);
  if (type.find('*') == std::string::npos) {
    if (type.starts_with("enum ")) return {"enum", 4, true};
    for (const ScalarType& t : kScalarTypes) {
      if (type == t.name) return t;
    }
  }
  return {"", 8, false};
}

}  // namespace

std::vector<ArgSource> syscallEntryArgs(const std::vector<TracepointField>& fields) {
  std::vector<ArgSource> args;
  for (const TracepointField& f : fields) {
    if (f.name.starts_with("common_") || f.name == "__syscall_nr") continue;
    if (args.size() == std::size(syscallabi::kArgRegisters)) break;
    ArgSource a;
    a.kind = ArgSource::Kind::SyscallArg;
    a.offset = syscallabi::kArgRegisters[args.size()];
    const ScalarType scalar = scalarType(f.type);
    a.size = scalar.size;
    a.isSigned = scalar.isSigned;
    a.typeName = f.type;
    args.push_back(std::move(a));
  }
  return args;
}

Result<std::vector<ArgSource>> syscallReturnArgs(const std::vector<TracepointField>& fields) {
  for (const TracepointField& f : fields) {
    if (f.name != "ret") continue;
    ArgSource a;
    a.kind = ArgSource::Kind::SyscallReturn;
    a.offset = kReturnValueOffset;
    a.size = 8;
    a.isSigned = true;
    a.typeName = f.type;
    return std::vector<ArgSource>{a, a};
  }
  return Error{"syscall exit tracepoint has no ret field"};
}

std::unique_ptr<Provider> makeSyscallProvider() { return std::make_unique<SyscallProvider>(); }

}  // namespace dtrace::providers
