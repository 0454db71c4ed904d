#include "providers/syscall_provider.h"

#include <dirent.h>

#include <algorithm>
#include <map>
#include <string_view>

#include "bpf/attach.h"
#include "providers/catalog.h"
#include "providers/glob.h"

namespace dtrace::providers {

namespace {

constexpr std::string_view kEnterPrefix = "sys_enter_";
constexpr std::string_view kExitPrefix = "sys_exit_";
constexpr const char* kCategory = "syscalls";

class SyscallProvider final : public Provider {
 public:
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
  void enumerate(ProbeCatalog& catalog) override {
    const std::string dir = bpf::tracefsRoot() + "/events/" + kCategory;
    DIR* d = opendir(dir.c_str());
    if (d == nullptr) return;
    std::map<std::string, std::pair<bool, bool>> calls;  // name -> (has entry, has return)
    while (dirent* ent = readdir(d)) {
      std::string_view n = ent->d_name;
      if (n.starts_with(kEnterPrefix)) {
        calls[std::string(n.substr(kEnterPrefix.size()))].first = true;
      } else if (n.starts_with(kExitPrefix)) {
        calls[std::string(n.substr(kExitPrefix.size()))].second = true;
      }
    }
    closedir(d);
    for (const auto& [call, has] : calls) {
      if (has.first) add(catalog, call, "entry", std::string(kEnterPrefix) + call);
      if (has.second) add(catalog, call, "return", std::string(kExitPrefix) + call);
    }
  }

  Result<void> describeArgs(Probe& probe) override {
    Result<std::vector<TracepointField>> fields =
        readTracepointFormat(probe.tpCategory, probe.tpEvent);
    if (!fields) return fields.error();
    if (probe.name == "entry") {
      probe.args = syscallEntryArgs(*fields);
    } else {
      Result<std::vector<ArgSource>> args = syscallReturnArgs(*fields);
      if (!args) return args.error();
      probe.args = std::move(*args);
    }
    probe.argsDescribed = true;
    return {};
  }

  Result<std::vector<bpf::Link>> attach(const Probe& probe, int progFd) override {
    Result<int> id = bpf::tracepointId(probe.tpCategory, probe.tpEvent);
    if (!id) return id.error();
    Result<bpf::Link> link = bpf::attachTracepoint(progFd, *id);
    if (!link) return link.error();
    std::vector<bpf::Link> links;
    links.push_back(std::move(*link));
    return links;
  }

 private:
  void add(ProbeCatalog& catalog, const std::string& call, const char* probeName,
           std::string event) {
    Probe& p = catalog.addProbe(*this, "", call, probeName, BPF_PROG_TYPE_TRACEPOINT,
                                AttachKind::Tracepoint);
    p.tpCategory = kCategory;
    p.tpEvent = std::move(event);
  }

  std::string name_ = "syscall";
};

}  // namespace

std::vector<ArgSource> syscallEntryArgs(const std::vector<TracepointField>& fields) {
  std::vector<ArgSource> args;
  for (const TracepointField& f : fields) {
    if (f.name.starts_with("common_") || f.name == "__syscall_nr") continue;
    ArgSource a;
    a.kind = ArgSource::Kind::CtxField;
    a.offset = static_cast<int16_t>(f.offset);
    a.size = static_cast<uint8_t>(f.size);
    a.isSigned = f.isSigned;
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
    a.offset = static_cast<int16_t>(f.offset);
    a.size = static_cast<uint8_t>(f.size);
    a.isSigned = true;
    a.typeName = f.type;
    return std::vector<ArgSource>{a, a};
  }
  return Error{"syscall exit tracepoint has no ret field"};
}

std::unique_ptr<Provider> makeSyscallProvider() { return std::make_unique<SyscallProvider>(); }

}  // namespace dtrace::providers
