#include "providers/pid_provider.h"

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <map>

#include "providers/catalog.h"
#include "providers/glob.h"
#include "providers/uprobe_provider.h"
#include "sym/function_code.h"
#include "sym/object_file.h"
#include "sym/process_maps.h"

namespace dtrace::providers {

namespace {

// A whole string of hex digits (a pid probe's offset or address).
std::optional<uint64_t> hexNumber(std::string_view text) {
  uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, 16);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::string hex(uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "%llx", static_cast<unsigned long long>(value));
  return text;
}

class PidProvider final : public UprobeProvider {
 public:
  PidProvider(int pid) : name_("pid" + std::to_string(pid)), pid_(pid) {}

  const std::string& name() const override { return name_; }

  ProviderAttributes attributes() const override {
    const Attribute evolving{Stability::Evolving, Stability::Evolving, DependencyClass::Isa};
    const Attribute priv{Stability::Private, Stability::Private, DependencyClass::Unknown};
    return {evolving, priv, priv, evolving, priv};
  }

  void enumerate(ProbeCatalog&) override {}  // probes exist once a description names them

  Result<const Probe*> create(ProbeCatalog& catalog, const ast::ProbeSpec& spec) override;

  Result<void> describeArgs(Probe& probe) override {
    probe.args.clear();
    if (probe.name == "return") {
      ArgSource offset;
      offset.kind = ArgSource::Kind::SiteValue;
      ArgSource value;
      value.kind = ArgSource::Kind::CtxField;
      value.offset = kUserReturnRegister;
      probe.args = {offset, value};
      return {};
    }
    // The x86-64 calling convention: six registers, then the stack above
    // the return address. An offset probe sees the registers as they are.
    for (int16_t reg : kUserArgRegisters) {
      ArgSource a;
      a.kind = ArgSource::Kind::CtxField;
      a.offset = reg;
      probe.args.push_back(a);
    }
    for (int n = 6; n < kMaxArgs; n++) {
      ArgSource a;
      a.kind = ArgSource::Kind::UserMemory;
      a.offset = kUserStackPointer;
      a.constant = 8 * (n - 5);
      probe.args.push_back(a);
    }
    return {};
  }

 private:
  static constexpr int kMaxArgs = 10;

  Error processGone() const {
    return makeTaggedError("D_PROC_GRAB", "failed to grab process " + std::to_string(pid_));
  }

  Result<void> probesInObject(ProbeCatalog& catalog, const ast::ProbeSpec& spec,
                              const ProcessObject& object);
  // `path` is uprobePath() of the object, worked out once per object.
  Result<void> probesInFunction(ProbeCatalog& catalog, const ast::ProbeSpec& spec,
                                const ProcessObject& object, const std::string& path,
                                const sym::ObjectFile& file, const sym::FunctionSymbol& function);
  void addProbe(ProbeCatalog& catalog, const ProcessObject& object, const std::string& path,
                std::string_view function, const std::string& name,
                std::vector<bpf::UprobeSite> sites, const char* argumentsKey);

  std::string name_;
  int pid_;
  std::map<std::string, std::shared_ptr<const sym::ObjectFile>> files_;
};

Result<const Probe*> PidProvider::create(ProbeCatalog& catalog, const ast::ProbeSpec& spec) {
  // Probes are made for descriptions that name this provider; others
  // (":::END", "pid*:::") match only the probes made already.
  if (providerProcessId(spec.provider) != pid_ || !gmatch(name_, spec.provider)) {
    return static_cast<const Probe*>(nullptr);
  }
  if (!sym::processExists(pid_)) return processGone();
  if (ProcessHook* hook = catalog.processHook()) {
    if (auto r = hook->prepare(pid_); !r) return r.error();
  }
  for (const ProcessObject& object : processObjects(pid_)) {
    if (!objectMatches(spec.module, object.mapping.path, object.executable)) continue;
    if (auto r = probesInObject(catalog, spec, object); !r) return r.error();
  }
  // A process that went while its objects were read left none, or only
  // some, to match: the description was not matched against it.
  if (!sym::processExists(pid_)) return processGone();
  return static_cast<const Probe*>(nullptr);
}

Result<void> PidProvider::probesInObject(ProbeCatalog& catalog, const ast::ProbeSpec& spec,
                                         const ProcessObject& object) {
  const std::string path = uprobePath(pid_, object.mapping);
  std::shared_ptr<const sym::ObjectFile>& file = files_[object.mapping.path];
  if (!file) file = sym::ObjectFile::load(path);
  const std::string_view function =
      spec.function.empty() ? std::string_view("*") : std::string_view(spec.function);
  if (function == "-") {
    if (!object.executable) {
      if (spec.module.empty()) return {};
      return makeTaggedError("D_PROC_LIB", "only the a.out module is valid with the '-' function");
    }
    if (isGlob(spec.name)) {
      return makeTaggedError("D_PROC_NAME",
                             "only individual addresses may be specified with the '-' function");
    }
    const std::optional<uint64_t> address = hexNumber(spec.name);
    const std::optional<uint64_t> offset = address ? file->fileOffset(*address) : std::nullopt;
    if (!offset) {
      return makeTaggedError("D_PROC_NAME", "'" + spec.name + "' is an invalid probe name");
    }
    addProbe(catalog, object, path, "-", spec.name, {{*offset, 0, 0}}, "pid-offset");
    return {};
  }
  if (!isGlob(function)) {
    std::optional<sym::FunctionSymbol> f = file->function(function);
    if (!f) {
      if (!spec.module.empty() && !isGlob(spec.module)) {
        return makeTaggedError("D_PROC_FUNC", "failed to lookup '" + std::string(function) +
                                                  "' in module '" + spec.module + "'");
      }
      return {};
    }
    if (f->size == 0) return {};
    return probesInFunction(catalog, spec, object, path, *file, *f);
  }
  for (const sym::FunctionSymbol& f : file->functions()) {
    // As DTrace does, _init and _fini are traced only when named.
    if (f.size == 0 || f.name == "_init" || f.name == "_fini" || !gmatch(f.name, function)) {
      continue;
    }
    if (auto r = probesInFunction(catalog, spec, object, path, *file, f); !r) return r;
  }
  return {};
}

Result<void> PidProvider::probesInFunction(ProbeCatalog& catalog, const ast::ProbeSpec& spec,
                                           const ProcessObject& object, const std::string& path,
                                           const sym::ObjectFile& file,
                                           const sym::FunctionSymbol& function) {
  const std::string_view name =
      spec.name.empty() ? std::string_view("*") : std::string_view(spec.name);
  std::optional<uint64_t> start = file.fileOffset(function.address);
  if (!start) return {};
  const bool wantsReturn = gmatch("return", name), wantsEntry = gmatch("entry", name);
  std::optional<sym::FunctionCode> code;
  auto decode = [&]() -> Result<void> {
    if (code) return {};
    auto decoded = sym::decodeFunction(path, *start, function.address, function.size);
    if (!decoded) return decoded.error();
    code = std::move(*decoded);
    return {};
  };
  // A probe whose instruction the kernel cannot trap (lock-prefixed, AVX)
  // does not exist here; named alone, it is an error.
  const bool named = !spec.function.empty() && !isGlob(spec.function) && !isGlob(name);
  auto untrappable = [&](const char* kind) {
    return makeTaggedError("D_PROC_CREATEFAIL", std::string("failed to create ") + kind +
                                                    " probe for '" + std::string(function.name) +
                                                    "': uprobes cannot trap its instruction");
  };
  auto trappableAt = [&](uint32_t at) {
    const auto it = std::lower_bound(code->instructions.begin(), code->instructions.end(), at);
    return it != code->instructions.end() && *it == at &&
           code->trappable[static_cast<size_t>(it - code->instructions.begin())];
  };
  if (wantsReturn) {
    if (auto r = decode(); !r) return r;
    std::vector<bpf::UprobeSite> sites;
    for (uint32_t at : code->returns) {
      if (trappableAt(at)) sites.push_back({*start + at, 0, uint64_t{at} << 32});
    }
    if (!sites.empty())
      addProbe(catalog, object, path, function.name, "return", sites, "pid-return");
  }
  if (wantsEntry) {
    if (sym::uprobeCanTrapAt(path, *start)) {
      addProbe(catalog, object, path, function.name, "entry", {{*start, 0, 0}}, "pid-entry");
    } else if (named) {
      return untrappable("entry");
    }
  }
  if (!isGlob(name) && !wantsReturn && !wantsEntry) {
    const std::optional<uint64_t> parsed = hexNumber(name);
    if (!parsed) {
      return makeTaggedError("D_PROC_NAME", "'" + std::string(name) + "' is an invalid probe name");
    }
    const uint64_t offset = *parsed;
    if (offset >= function.size) {
      return makeTaggedError("D_PROC_OFF", "offset 0x" + hex(offset) + " outside of function '" +
                                               std::string(function.name) + "'");
    }
    if (auto r = decode(); !r) return r;
    if (!std::binary_search(code->instructions.begin(), code->instructions.end(), offset)) {
      return makeTaggedError("D_PROC_ALIGN",
                             "offset 0x" + hex(offset) + " is not aligned on an instruction");
    }
    if (!trappableAt(static_cast<uint32_t>(offset))) return untrappable("offset");
    addProbe(catalog, object, path, function.name, hex(offset), {{*start + offset, 0, 0}},
             offset == 0 ? "pid-entry" : "pid-offset");
    return {};
  }
  if (isGlob(name)) {
    if (auto r = decode(); !r) return r;
    for (uint32_t at : code->instructions) {
      const std::string offsetName = hex(at);
      if (trappableAt(at) && gmatch(offsetName, name)) {
        addProbe(catalog, object, path, function.name, offsetName, {{*start + at, 0, 0}},
                 at == 0 ? "pid-entry" : "pid-offset");
      }
    }
  }
  return {};
}

void PidProvider::addProbe(ProbeCatalog& catalog, const ProcessObject& object,
                           const std::string& path, std::string_view function,
                           const std::string& name, std::vector<bpf::UprobeSite> sites,
                           const char* argumentsKey) {
  const std::string module(sym::baseName(object.mapping.path));
  if (catalog.find(name_, module, function, name)) return;
  Probe& p = catalog.addProbe(*this, module, std::string(function), name, BPF_PROG_TYPE_KPROBE,
                              AttachKind::Uprobe);
  p.objectPath = path;
  p.mappedPath = object.mapping.path;
  p.inExecutable = object.executable;
  p.targetPid = pid_;
  p.sites = std::move(sites);
  p.argumentsKey = argumentsKey;
  p.atFunctionEntry = p.argumentsKey == std::string("pid-entry");
}

class PidProviderFamily final : public ProviderFamily {
 public:
  Result<void> provide(ProbeCatalog& catalog, const ast::ProbeSpec& spec) override {
    // A name ending in a process ID (pid123, p*d123) may name that
    // process's pid provider.
    const int pid = providerProcessId(spec.provider);
    if (pid == 0) return {};
    if (pid > 0 && !gmatch("pid" + std::to_string(pid), spec.provider)) return {};
    if (pid < 0) {
      if (!spec.provider.starts_with("pid")) return {};
      return makeTaggedError("D_PROC_BADPID",
                             "'" + spec.provider + "' does not contain a valid pid");
    }
    if (pid == getpid()) {
      return makeTaggedError("D_PROC_DYN", "process " + std::to_string(pid) + " is dtrace itself");
    }
    if (!catalog.provider("pid" + std::to_string(pid))) {
      catalog.addDynamicProvider(std::make_unique<PidProvider>(pid));
    }
    return {};
  }
};

}  // namespace

int providerProcessId(std::string_view provider) {
  size_t digits = provider.size();
  while (digits > 0 && provider[digits - 1] >= '0' && provider[digits - 1] <= '9') digits--;
  if (digits == provider.size() || digits == 0) return 0;
  int pid = 0;
  auto [end, ec] =
      std::from_chars(provider.data() + digits, provider.data() + provider.size(), pid);
  if (ec != std::errc() || pid <= 0) return -1;
  return pid;
}

std::unique_ptr<ProviderFamily> makePidProviderFamily() {
  return std::make_unique<PidProviderFamily>();
}

}  // namespace dtrace::providers
