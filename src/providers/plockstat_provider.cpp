#include "providers/plockstat_provider.h"

#include <map>
#include <span>

#include "providers/catalog.h"
#include "providers/glob.h"
#include "providers/pid_provider.h"
#include "providers/stable_provider.h"
#include "providers/thread_record.h"
#include "providers/unavailable_provider.h"
#include "providers/uprobe_provider.h"
#include "sym/function_code.h"
#include "sym/object_file.h"
#include "sym/process_maps.h"

namespace dtrace::providers {

namespace {

using Test = ProbeGuard::Test;

// The record each function's entry writes: the time, the lock (its first
// argument), and the rwlock's writer (pthread_rwlock_t's __cur_writer on
// x86-64, read for every function alike: meaningless but harmless for a
// mutex).
constexpr int kLockWord = 1, kWriterWord = 2;
constexpr int16_t kCurWriterOffset = 24;
constexpr int64_t kBusy = 16;  // EBUSY: a trylock that found the lock held, not an error

// The function pthread_mutex_lock sleeps in; glibc exports it only under
// its private name, so it is found through libc's debug symbols.
constexpr const char* kLockWait = "__lll_lock_wait";

struct PlockstatProbe {
  std::string name;
  std::vector<std::string> functions;  // a probe in each (its function field)
  bool atEntry = false;                // else at the function's `ret`s
  std::vector<ProbeGuard> guards;
  std::vector<ArgSource> args;
  // Where the probe is when none of `functions` is found (named by libc's
  // debug symbols only) or returns by a `ret` of its own.
  std::string fallbackFunction{};
};

ArgSource constant(int64_t value) {
  ArgSource a;
  a.kind = ArgSource::Kind::Constant;
  a.constant = value;
  a.typeName = "int";
  return a;
}

std::vector<PlockstatProbe> plockstatProbes() {
  auto lock = [](const char* type) {
    ArgSource a;
    a.kind = ArgSource::Kind::Recorded;
    a.offset = kLockWord;
    a.typeName = type;
    return a;
  };
  const ArgSource mutex = lock("uintptr_t"), rwlock = lock("uintptr_t");
  ArgSource result;
  result.kind = ArgSource::Kind::CtxField;
  result.offset = kUserReturnRegister;
  result.size = 4;  // an int: the upper half of rax is not the function's
  result.isSigned = true;
  result.typeName = "int";
  ArgSource writer;
  writer.kind = ArgSource::Kind::Recorded;
  writer.offset = kWriterWord;
  writer.constant = -1;  // any bit: 1 when a writer held it
  writer.typeName = "int";
  ArgSource firstArgument;
  firstArgument.kind = ArgSource::Kind::CtxField;
  firstArgument.offset = kUserArgRegisters[0];
  firstArgument.typeName = "uintptr_t";

  const std::vector<ProbeGuard> succeeded = {guard(Test::Equal, result, {0})};
  const std::vector<ProbeGuard> failed = {guard(Test::NotEqual, result, {0}),
                                          guard(Test::NotEqual, result, {kBusy})};
  const std::vector<std::string> mutexLocks = {"pthread_mutex_lock", "pthread_mutex_trylock",
                                               "pthread_mutex_timedlock",
                                               "pthread_mutex_clocklock"};
  const std::vector<std::string> readLocks = {"pthread_rwlock_rdlock", "pthread_rwlock_tryrdlock",
                                              "pthread_rwlock_timedrdlock",
                                              "pthread_rwlock_clockrdlock"};
  const std::vector<std::string> writeLocks = {"pthread_rwlock_wrlock", "pthread_rwlock_trywrlock",
                                               "pthread_rwlock_timedwrlock",
                                               "pthread_rwlock_clockwrlock"};
  return {
      // mutex-acquire(mutex, is_recursive, spin_count): glibc returns early,
      // without its ret here, when a recursive mutex is taken again, and
      // counts no spins.
      {"mutex-acquire", mutexLocks, false, succeeded, {mutex, constant(0), constant(0)}},
      {"mutex-error", mutexLocks, false, failed, {mutex, result}},
      // pthread_mutex_unlock leaves through a tail call to the function that
      // releases (which pthread_cond_wait calls too).
      {"mutex-release",
       {"__pthread_mutex_unlock_usercnt"},
       false,
       succeeded,
       {mutex, constant(0)},
       "pthread_mutex_unlock"},
      {"mutex-block", {kLockWait}, true, {}, {firstArgument}},
      // __lll_lock_wait returns only once it has the lock.
      {"mutex-blocked", {kLockWait}, false, {}, {mutex, constant(1)}},
      {"rw-acquire", readLocks, false, succeeded, {rwlock, constant(0)}},
      {"rw-acquire", writeLocks, false, succeeded, {rwlock, constant(1)}},
      {"rw-error", readLocks, false, failed, {rwlock, constant(0), result}},
      {"rw-error", writeLocks, false, failed, {rwlock, constant(1), result}},
      {"rw-release", {"pthread_rwlock_unlock"}, false, succeeded, {rwlock, writer}},
  };
}

const UnavailableProbe kUnavailable[] = {
    {"mutex-spin", "glibc spins on an adaptive mutex inline, in no function a probe can mark"},
    {"mutex-spun", "glibc spins on an adaptive mutex inline, in no function a probe can mark"},
    {"rw-block", "glibc waits for a rwlock in inline futex calls, in no function a probe can mark"},
    {"rw-blocked",
     "glibc waits for a rwlock in inline futex calls, in no function a probe can mark"},
};

class PlockstatProvider final : public UprobeProvider {
 public:
  explicit PlockstatProvider(int pid)
      : name_("plockstat" + std::to_string(pid)), pid_(pid), definitions_(plockstatProbes()) {}

  const std::string& name() const override { return name_; }

  ProviderAttributes attributes() const override { return evolvingProviderAttributes(); }

  void enumerate(ProbeCatalog& catalog) override {
    if (!sym::processExists(pid_)) return;
    if (ProcessHook* hook = catalog.processHook()) {
      if (!hook->prepare(pid_)) return;
    }
    for (const ProcessObject& object : processObjects(pid_)) {
      if (!objectMatches("libc.so.*", object.mapping.path, false)) continue;
      const std::string path = uprobePath(pid_, object.mapping);
      std::shared_ptr<const sym::ObjectFile> file = sym::ObjectFile::load(path);
      for (const PlockstatProbe& def : definitions_) {
        bool added = false;
        for (const std::string& function : def.functions) {
          added |= addProbe(catalog, object, path, *file, def, function);
        }
        if (!added && !def.fallbackFunction.empty()) {
          addProbe(catalog, object, path, *file, def, def.fallbackFunction);
        }
      }
      return;
    }
  }

  Result<const Probe*> create(ProbeCatalog& /*catalog*/, const ast::ProbeSpec& spec) override {
    if (isGlob(spec.name)) return static_cast<const Probe*>(nullptr);
    for (const UnavailableProbe& u : kUnavailable) {
      if (u.name == spec.name) {
        return Error{"probe " + name_ + ":::" + u.name + " is not available: " + u.reason,
                     kMatchesNothingTag};
      }
    }
    if ((spec.name == "mutex-block" || spec.name == "mutex-blocked") && lockWaitMissing_) {
      return Error{"probe " + name_ + ":::" + spec.name +
                       " is not available: libc's symbols do not name " + kLockWait +
                       " (install its debug symbols: Debian's libc6-dbg)",
                   kMatchesNothingTag};
    }
    return static_cast<const Probe*>(nullptr);
  }

  Result<void> describeArgs(Probe& probe) override {
    Result<ThreadRecord*> record = threadRecord();
    if (!record) return record.error();
    probe.threadRecordFd = (*record)->mapFd();
    probe.args = definition(probe).args;
    probe.argsDescribed = true;
    return {};
  }

  // Each probe's argumentsKey is its own (its guards are), so a group is
  // one probe; its functions' entries start recording first.
  Result<std::vector<bpf::Link>> attachGroup(std::span<const Probe* const> group,
                                             int progFd) override {
    for (const Probe* probe : group) {
      auto it = starts_.find(probe->function);
      if (it == starts_.end() || probe->atFunctionEntry) continue;
      Result<ThreadRecord*> record = threadRecord();
      if (!record) return record.error();
      if (auto r = (*record)->start(probe->function, it->second); !r) return r.error();
    }
    return UprobeProvider::attachGroup(group, progFd);
  }

 private:
  // Whether the function is there to hold the probe.
  bool addProbe(ProbeCatalog& catalog, const ProcessObject& object, const std::string& path,
                const sym::ObjectFile& file, const PlockstatProbe& def,
                const std::string& function) {
    const std::optional<sym::FunctionSymbol> f = file.function(function);
    const std::optional<uint64_t> start = f ? file.fileOffset(f->address) : std::nullopt;
    if (!start || f->size == 0) {
      if (function == kLockWait) lockWaitMissing_ = true;
      return false;
    }
    std::vector<bpf::UprobeSite> sites;
    if (def.atEntry) {
      sites.push_back({*start, 0, 0});
    } else {
      Result<sym::FunctionCode> code = sym::decodeFunction(path, *start, f->address, f->size);
      if (!code) return false;
      for (uint32_t at : code->rets) sites.push_back({*start + at, 0, 0});
      if (sites.empty()) return false;  // it returns only through a tail call
      StartPoint entry;
      entry.objectPath = path;
      entry.pid = pid_;
      entry.sites = {{*start, 0, 0}};
      entry.values = {{kUserArgRegisters[0]}, {kUserArgRegisters[0], kCurWriterOffset}};
      starts_.emplace(function, std::move(entry));
    }
    const std::string module(sym::baseName(object.mapping.path));
    if (catalog.find(name_, module, function, def.name)) return true;
    Probe& p = catalog.addProbe(*this, module, function, def.name, BPF_PROG_TYPE_KPROBE,
                                AttachKind::Uprobe);
    p.objectPath = path;
    p.mappedPath = object.mapping.path;
    p.targetPid = pid_;
    p.sites = std::move(sites);
    p.guards = def.guards;
    p.atFunctionEntry = def.atEntry;
    p.argumentsKey = "plockstat " + def.name + " " + function;
    return true;
  }

  const PlockstatProbe& definition(const Probe& probe) const {
    for (const PlockstatProbe& def : definitions_) {
      if (def.name != probe.name) continue;
      for (const std::string& f : def.functions) {
        if (f == probe.function) return def;
      }
      if (def.fallbackFunction == probe.function) return def;
    }
    return definitions_.front();  // not reached: every probe comes from a definition
  }

  Result<ThreadRecord*> threadRecord() {
    if (!record_) {
      Result<std::shared_ptr<ThreadRecord>> made = ThreadRecord::create("dt_" + name_, 3);
      if (!made) return made.error();
      record_ = std::move(*made);
    }
    return record_.get();
  }

  std::string name_;
  int pid_;
  std::vector<PlockstatProbe> definitions_;
  std::map<std::string, StartPoint> starts_;  // by function: its entry, recording the lock
  std::shared_ptr<ThreadRecord> record_;
  bool lockWaitMissing_ = false;
};

class PlockstatProviderFamily final : public ProviderFamily {
 public:
  Result<void> provide(ProbeCatalog& catalog, const ast::ProbeSpec& spec) override {
    const int pid = providerProcessId(spec.provider);
    if (pid <= 0) return {};
    const std::string name = "plockstat" + std::to_string(pid);
    if (!gmatch(name, spec.provider) || catalog.provider(name)) return {};
    if (pid == getpid()) {
      return makeTaggedError("D_PROC_DYN", "process " + std::to_string(pid) + " is dtrace itself");
    }
    catalog.addDynamicProvider(std::make_unique<PlockstatProvider>(pid));
    return {};
  }
};

}  // namespace

std::unique_ptr<ProviderFamily> makePlockstatProviderFamily() {
  return std::make_unique<PlockstatProviderFamily>();
}

}  // namespace dtrace::providers
