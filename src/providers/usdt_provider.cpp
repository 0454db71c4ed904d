#include "providers/usdt_provider.h"

#include <dirent.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "providers/catalog.h"
#include "providers/glob.h"
#include "providers/pid_provider.h"
#include "providers/uprobe_provider.h"
#include "sym/object_file.h"
#include "sym/process_maps.h"
#include "sym/provider_section.h"
#include "sym/usdt_notes.h"

namespace dtrace::providers {

namespace {

// What one object of a process declares: its USDT sites and provider
// definitions, read once per object.
struct ObjectProbes {
  std::vector<sym::UsdtSite> sites;
  std::vector<sym::ProviderDefinition> definitions;
  std::shared_ptr<const sym::ObjectFile> symbols;
};

// A probe name as DTrace spells it: "function__entry" is function-entry.
std::string probeName(std::string_view noteName) {
  std::string out;
  for (size_t i = 0; i < noteName.size(); i++) {
    if (noteName.compare(i, 2, "__") == 0) {
      out += '-';
      i++;
    } else {
      out += noteName[i];
    }
  }
  return out;
}

std::string sizedTypeName(uint8_t size, bool isSigned) {
  return std::string(isSigned ? "int" : "uint") + std::to_string(size * 8) + "_t";
}

struct MappedUsdtObject {
  sym::Mapping mapping;
  bool executable = false;
  uint64_t bias = 0;  // run-time address minus the object's virtual address
  const ObjectProbes* probes = nullptr;
};

class UsdtProvider final : public UprobeProvider {
 public:
  UsdtProvider(std::string noteProvider, int pid, std::vector<MappedUsdtObject> objects)
      : noteProvider_(std::move(noteProvider)),
        name_(pid > 0 ? noteProvider_ + std::to_string(pid) : noteProvider_),
        pid_(pid),
        objects_(std::move(objects)) {}

  const std::string& name() const override { return name_; }

  ProviderAttributes attributes() const override { return evolvingProviderAttributes(); }

  void enumerate(ProbeCatalog& catalog) override {
    for (const MappedUsdtObject& object : objects_) {
      for (const sym::UsdtSite& site : object.probes->sites) {
        if (site.provider != noteProvider_ || site.fileOffset == 0) continue;
        addSite(catalog, object, site);
      }
    }
  }

  Result<void> describeArgs(Probe& probe) override {
    auto it = arguments_.find(probe.id);
    if (it == arguments_.end() || it->second.empty()) return {};
    probe.args = it->second.front();
    if (it->second.size() > 1) probe.argVariants = it->second;
    return {};
  }

 private:
  void addSite(ProbeCatalog& catalog, const MappedUsdtObject& object, const sym::UsdtSite& site) {
    const std::string module(sym::baseName(object.mapping.path));
    std::string function = "-";
    if (auto f = object.probes->symbols->containing(site.address)) function = std::string(f->name);
    const std::string name = probeName(site.name);
    std::vector<ArgSource> args = arguments(object, site);
    const std::string key = argumentsKey(args);
    Probe* p = const_cast<Probe*>(catalog.find(name_, module, function, name));
    if (!p) {
      p = &catalog.addProbe(*this, module, function, name, BPF_PROG_TYPE_KPROBE,
                            AttachKind::Uprobe);
      p->objectPath = uprobePath(pid_, object.mapping);
      p->mappedPath = object.mapping.path;
      p->inExecutable = object.executable;
      p->targetPid = pid_;
    }
    // Another site of the same probe (the function inlined twice, or the
    // probe written twice) may read its arguments from other places.
    std::vector<std::vector<ArgSource>>& variants = arguments_[p->id];
    std::vector<std::string>& keys = variantKeys_[p->id];
    size_t variant = std::find(keys.begin(), keys.end(), key) - keys.begin();
    if (variant == keys.size()) {
      keys.push_back(key);
      variants.push_back(std::move(args));
    }
    p->sites.push_back({site.fileOffset, site.semaphoreFileOffset, uint64_t{variant} << 32});
    p->argumentsKey.clear();
    for (const std::string& k : keys) p->argumentsKey += k + ";";
  }

  static std::string argumentsKey(const std::vector<ArgSource>& args) {
    std::string key = "usdt";
    for (const ArgSource& a : args) {
      key += " " + std::to_string(static_cast<int>(a.kind)) + ":" + std::to_string(a.offset) + ":" +
             std::to_string(a.size) + ":" + std::to_string(a.isSigned) + ":" +
             std::to_string(a.indexOffset) + ":" + std::to_string(a.scale) + ":" +
             std::to_string(a.constant) + ":" + a.typeName;
    }
    return key;
  }

  std::vector<ArgSource> arguments(const MappedUsdtObject& object, const sym::UsdtSite& site) {
    const sym::ProviderProbe* declared = nullptr;
    for (const sym::ProviderDefinition& d : object.probes->definitions) {
      if (d.name != noteProvider_) continue;
      for (const sym::ProviderProbe& probe : d.probes) {
        if (probe.name == site.name) declared = &probe;
      }
    }
    std::vector<ArgSource> args;
    for (size_t i = 0; i < site.args.size(); i++) {
      const sym::UsdtArgument& u = site.args[i];
      ArgSource a;
      a.size = u.size;
      a.isSigned = u.isSigned;
      switch (u.kind) {
        case sym::UsdtArgument::Kind::Constant:
          a.kind = ArgSource::Kind::Constant;
          a.constant = u.constant + (u.objectAddress ? static_cast<int64_t>(object.bias) : 0);
          break;
        case sym::UsdtArgument::Kind::Register:
          a.kind = ArgSource::Kind::CtxField;
          a.offset = u.regOffset;
          break;
        case sym::UsdtArgument::Kind::Memory:
          a.kind = ArgSource::Kind::UserMemory;
          a.offset = u.regOffset;
          a.indexOffset = u.indexOffset;
          a.scale = u.scale;
          a.constant = u.displacement + (u.objectAddress ? static_cast<int64_t>(object.bias) : 0);
          if (u.ripRelative) {
            // The instruction pointer at the probe is the probe's own address.
            a.offset = -1;
            a.constant = static_cast<int64_t>(site.address + object.bias) + u.displacement;
          }
          break;
      }
      a.typeName = declared && i < declared->nativeArgs.size() ? declared->nativeArgs[i].type
                                                               : sizedTypeName(u.size, u.isSigned);
      args.push_back(std::move(a));
    }
    if (declared) applyTranslations(*declared, args);
    return args;
  }

  // A definition's translated arguments (`probe p(char *s, int n) : (int
  // n, string s)`): args[i] is translatedArgs[i], read from its native
  // argument, a user-space address when it is a pointer.
  static void applyTranslations(const sym::ProviderProbe& declared, std::vector<ArgSource>& args) {
    for (size_t i = 0; i < declared.translatedArgs.size(); i++) {
      const uint32_t from = i < declared.argMapping.size() ? declared.argMapping[i] : i;
      const bool same = from == i && from < declared.nativeArgs.size() &&
                        declared.nativeArgs[from].type == declared.translatedArgs[i].type;
      if (same) continue;
      if (i >= args.size()) {
        args.resize(i + 1);
        args[i].typeName = "uintptr_t";
      }
      args[i].translatedType = declared.translatedArgs[i].type;
      args[i].translatedFrom = static_cast<int>(from);
      args[i].userAddress = true;
    }
  }

  std::string noteProvider_;
  std::string name_;
  int pid_;
  std::vector<MappedUsdtObject> objects_;
  // By probe ID: each way its sites read their arguments, and its key.
  std::map<uint32_t, std::vector<std::vector<ArgSource>>> arguments_;
  std::map<uint32_t, std::vector<std::string>> variantKeys_;
};

class UsdtProviderFamily final : public ProviderFamily {
 public:
  Result<void> provide(ProbeCatalog& catalog, const ast::ProbeSpec& spec) override {
    const std::string& pattern = spec.provider;
    if (pattern.empty()) return {};
    const int pid = providerProcessId(pattern);
    if (pid > 0) return provideFor(catalog, pattern, pid);
    if (pid < 0 || !mayNameObjectProviders(catalog, pattern)) return {};
    return provideObjectWide(catalog, pattern, processes());
  }

  Result<void> provideInProcess(ProbeCatalog& catalog, const ast::ProbeSpec& spec,
                                int pid) override {
    const int named = providerProcessId(spec.provider);
    if (spec.provider.empty() || named < 0 || (named != 0 && named != pid)) return {};
    if (named == pid) return provideFor(catalog, spec.provider, pid);
    if (!mayNameObjectProviders(catalog, spec.provider)) return {};
    return provideObjectWide(catalog, spec.provider, {pid});
  }

 private:
  static std::vector<int> processes() {
    std::vector<int> out;
    DIR* d = opendir("/proc");
    if (!d) return out;
    while (dirent* e = readdir(d)) {
      char* end = nullptr;
      const long pid = std::strtol(e->d_name, &end, 10);
      if (pid > 0 && *end == '\0') out.push_back(static_cast<int>(pid));
    }
    closedir(d);
    return out;
  }

  // A provider name without a process ID (python, test_prov*) names the
  // provider of an object in every process that maps it: worth a look
  // through /proc unless it is "*" or a provider that exists already.
  static bool mayNameObjectProviders(ProbeCatalog& catalog, const std::string& pattern) {
    return pattern != "*" && !catalog.provider(pattern);
  }

  using ObjectsByProvider = std::map<std::string, std::vector<MappedUsdtObject>>;

  static void addByProvider(const MappedUsdtObject& object, ObjectsByProvider& byProvider) {
    std::set<std::string> providers;
    for (const sym::UsdtSite& s : object.probes->sites) providers.insert(s.provider);
    for (const std::string& p : providers) byProvider[p].push_back(object);
  }

  // The objects with USDT notes that process `pid` maps, in map order (as
  // processObjects gives them, but the executable's path is read only
  // for a process that has such an object: listing reads every process).
  std::vector<MappedUsdtObject> usdtObjects(int pid) {
    std::vector<MappedUsdtObject> out;
    std::set<std::string> seen;
    std::optional<std::string> executable;
    for (sym::Mapping& m : sym::readExecutableMappings(pid)) {
      if (!m.isFile() || !seen.insert(m.path).second) continue;
      const ObjectProbes& probes = objectProbes(pid, m);
      if (probes.sites.empty()) continue;
      if (!executable) executable = sym::executablePath(pid);
      MappedUsdtObject object{m, m.path == *executable, 0, &probes};
      if (auto at = probes.symbols->fileAddress(m, m.start)) object.bias = m.start - *at;
      out.push_back(std::move(object));
    }
    return out;
  }

  // The note providers of process `pid`'s objects, and where they are
  // (objects already in `seenPaths` left out), made ready to trace.
  Result<void> collect(ProbeCatalog& catalog, int pid, ObjectsByProvider& byProvider,
                       std::set<std::string>& seenPaths) {
    if (pid == getpid()) return {};
    if (!sym::processExists(pid)) return {};
    if (ProcessHook* hook = catalog.processHook()) {
      if (auto r = hook->prepare(pid); !r) return r.error();
    }
    for (const MappedUsdtObject& object : usdtObjects(pid)) {
      if (!seenPaths.insert(object.mapping.path).second) continue;
      sym::faultInReadOnlyData(pid, object.mapping.path);  // string constants its probes pass
      addByProvider(object, byProvider);
    }
    return {};
  }

  // The providers of one process: PROVIDER<pid>, its probes for it alone.
  Result<void> provideFor(ProbeCatalog& catalog, const std::string& pattern, int pid) {
    ObjectsByProvider byProvider;
    std::set<std::string> seenPaths;
    if (auto r = collect(catalog, pid, byProvider, seenPaths); !r) return r;
    addProcessProviders(catalog, pattern, pid, byProvider);
    return {};
  }

  static void addProcessProviders(ProbeCatalog& catalog, const std::string& pattern, int pid,
                                  const ObjectsByProvider& byProvider) {
    for (const auto& [noteProvider, objects] : byProvider) {
      const std::string name = noteProvider + std::to_string(pid);
      if (!gmatch(name, pattern) || catalog.provider(name)) continue;
      catalog.addDynamicProvider(std::make_unique<UsdtProvider>(noteProvider, pid, objects));
    }
  }

  // The providers of objects, in every process that maps them now or
  // later (path-wide uprobes): PROVIDER, for the objects the processes in
  // `pids` map.
  Result<void> provideObjectWide(ProbeCatalog& catalog, const std::string& pattern,
                                 const std::vector<int>& pids) {
    ObjectsByProvider byProvider;
    std::set<std::string> seenPaths;
    for (int pid : pids) {
      if (auto r = collect(catalog, pid, byProvider, seenPaths); !r) return r;
    }
    for (auto& [noteProvider, objects] : byProvider) {
      if (!gmatch(noteProvider, pattern) || catalog.provider(noteProvider)) continue;
      catalog.addDynamicProvider(std::make_unique<UsdtProvider>(noteProvider, -1, objects));
    }
    return {};
  }

 public:
  // PROVIDER<pid> for every running process, read once per listing. Only
  // read, never prepared: no process hook, no faulting in of every
  // process's pages, which listing has no use for.
  void provideRunning(ProbeCatalog& catalog, const std::string& pattern) override {
    if (!running_) {
      running_.emplace();
      for (int pid : processes()) {
        // A zombie, a process that exits meanwhile or one we may not read
        // maps nothing: skipped without a look at its state.
        if (pid == getpid()) continue;
        ObjectsByProvider byProvider;
        for (const MappedUsdtObject& object : usdtObjects(pid)) addByProvider(object, byProvider);
        if (!byProvider.empty()) running_->emplace(pid, std::move(byProvider));
      }
    }
    for (const auto& [pid, byProvider] : *running_) {
      addProcessProviders(catalog, pattern, pid, byProvider);
    }
  }

 private:
  // What identifies an object whatever path maps it (a deleted file's
  // map_files link differs in every process): its device and inode, or
  // its path when the mapping does not say.
  struct ObjectKey {
    uint64_t device = 0, inode = 0;
    std::string path;
    auto operator<=>(const ObjectKey&) const = default;
  };

  // An object's notes, read once: libc, mapped by every process, is read
  // for the first and rejected from the cache for the rest.
  const ObjectProbes& objectProbes(int pid, const sym::Mapping& mapping) {
    ObjectKey key{mapping.device, mapping.inode, ""};
    if (mapping.device == 0 || mapping.inode == 0) key.path = uprobePath(pid, mapping);
    auto [it, added] = objects_.try_emplace(std::move(key));
    if (added) {
      const std::string path = uprobePath(pid, mapping);
      if (auto sites = sym::readUsdtSites(path)) it->second.sites = std::move(*sites);
      if (!it->second.sites.empty()) {
        if (auto defs = sym::readProviderSection(path)) it->second.definitions = std::move(*defs);
        it->second.symbols = sym::ObjectFile::load(path);
      }
    }
    return it->second;
  }

  std::map<ObjectKey, ObjectProbes> objects_;
  // By process ID, the providers of the running processes (listing only).
  std::optional<std::map<int, ObjectsByProvider>> running_;
};

}  // namespace

std::unique_ptr<ProviderFamily> makeUsdtProviderFamily() {
  return std::make_unique<UsdtProviderFamily>();
}

}  // namespace dtrace::providers
