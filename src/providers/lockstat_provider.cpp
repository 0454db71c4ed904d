#include "providers/lockstat_provider.h"

#include "providers/stable_provider.h"

namespace dtrace::providers {

namespace {

using Test = ProbeGuard::Test;

// contention_begin's flags (include/trace/events/lock.h, LCB_F_*).
constexpr int64_t kSpin = 1 << 0;
constexpr int64_t kRead = 1 << 1;
constexpr int64_t kWrite = 1 << 2;
constexpr int64_t kMutex = 1 << 5;

// The record contention_begin writes: the time, then its flags.
constexpr int kFlagsWord = 1;

ArgSource recorded(int word, int64_t mask = 0) {
  ArgSource a;
  a.kind = ArgSource::Kind::Recorded;
  a.offset = static_cast<int16_t>(word);
  a.constant = mask;
  a.typeName = "int";
  return a;
}

std::vector<StableProbe> lockstatProbes() {
  // contention_end(lock, ret) runs in the thread that waited.
  const ArgSource result = [] {
    ArgSource a = contextWord(1, "int");
    a.size = 4;
    a.isSigned = true;
    return a;
  }();
  ArgSource waited;
  waited.kind = ArgSource::Kind::SinceRecorded;
  waited.typeName = "uint64_t";
  const ArgSource isWriter = recorded(kFlagsWord, kWrite);
  const ProbeGuard begun = guard(Test::NotEqual, recorded(0), {0});
  const ProbeGuard acquired = guard(Test::Equal, result, {0});
  auto flagsSet = [](int64_t bits) { return guard(Test::AnyBitSet, recorded(kFlagsWord), {bits}); };
  auto flagsClear = [](int64_t bits) {
    return guard(Test::NoBitSet, recorded(kFlagsWord), {bits});
  };
  auto probe = [&](std::string name, std::vector<ProbeGuard> guards, std::vector<ArgSource> args) {
    StableProbe p{std::move(name), {"contention_end"}, {begun}, std::move(args)};
    p.guards.insert(p.guards.end(), guards.begin(), guards.end());
    p.startTracepoint = "contention_begin";
    p.recorded = {{8 /* ctx word 1: the flags */}};
    return p;
  };
  return {
      // A struct mutex: an optimistic spin (LCB_F_MUTEX | LCB_F_SPIN) that
      // got the lock, or a sleep (LCB_F_MUTEX alone, begun again after a
      // spin that failed, so the time is the sleep's).
      probe("adaptive-block", {flagsSet(kMutex), flagsClear(kSpin), acquired},
            {contextWord(0, "struct mutex *"), waited}),
      probe("adaptive-spin", {flagsSet(kMutex), flagsSet(kSpin), acquired},
            {contextWord(0, "struct mutex *"), waited}),
      probe("adaptive-acquire-error", {flagsSet(kMutex), guard(Test::NotEqual, result, {0})},
            {contextWord(0, "struct mutex *"), result}),
      // A spinlock (queued spinlock slow path).
      probe("spin-spin", {flagsSet(kSpin), flagsClear(kMutex | kRead | kWrite)},
            {contextWord(0, "spinlock_t *"), waited}),
      // A reader-writer spinlock (rwlock_t), and a sleeping one (struct
      // rw_semaphore, percpu_rw_semaphore).
      probe("rw-spin", {flagsSet(kSpin), flagsSet(kRead | kWrite), flagsClear(kMutex)},
            {contextWord(0, "rwlock_t *"), waited, isWriter}),
      probe("rw-block", {flagsSet(kRead | kWrite), flagsClear(kSpin | kMutex), acquired},
            {contextWord(0, "struct rw_semaphore *"), waited, isWriter}),
  };
}

}  // namespace

std::unique_ptr<Provider> makeLockstatProvider() {
  const std::string hold =
      "Linux has no tracepoint where a lock is taken or released without contention";
  return makeStableProvider(
      "lockstat", lockstatProbes(),
      {{"adaptive-acquire", hold},
       {"adaptive-release", hold},
       {"spin-acquire", hold},
       {"spin-release", hold},
       {"rw-acquire", hold},
       {"rw-release", hold},
       {"rw-upgrade", "Linux has no tracepoint where a reader becomes a writer"},
       {"rw-downgrade", "Linux has no tracepoint where a writer becomes a reader"},
       {"thread-spin", "Linux has no thread locks"}});
}

}  // namespace dtrace::providers
